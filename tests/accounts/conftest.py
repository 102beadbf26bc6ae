"""Accounts tests send Celery tasks eagerly and start each test with empty rate limits."""

import pytest
from django.core.cache import cache

from config.celery import app as celery_app
from tests.accounts.factories import UserFactory


@pytest.fixture(autouse=True)
def eager_celery(settings):
    """Run Celery tasks in the calling thread, so emails land in mail.outbox."""
    # Read Celery's values before touching settings: the first read loads them from settings.
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
