"""Accounts tests send Celery tasks eagerly and start each test with empty rate limits."""

import pytest
from django.core.cache import cache

from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def _tasks_run_inline(eager_celery: None) -> None:
    """Send every accounts email in the request's thread."""


@pytest.fixture(autouse=True)
def empty_cache():
    """allauth keeps its rate limits in the cache; start every test without any."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def open_signup(settings):
    settings.SIGNUP_MODE = "open"


@pytest.fixture
def invite_only(settings):
    settings.SIGNUP_MODE = "invite"


@pytest.fixture
def player(db):
    return UserFactory(display_name="Andreas", email="andreas@example.com")


@pytest.fixture
def other(db):
    return UserFactory(display_name="Eleni", email="eleni@example.com", preferred_language="el")


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client
