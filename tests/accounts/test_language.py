"""The preferred language follows the player: after login and whenever no language was chosen."""

import pytest
from django.conf import settings

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def test_login_lands_in_the_lobby_in_the_preferred_language(client):
    UserFactory(email="maria@example.com", preferred_language="fr")

    response = client.post(
        "/en/accounts/login/", {"login": "maria@example.com", "password": PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == "/fr/play/"
    assert response.cookies[COOKIE].value == "fr"


def test_login_keeps_the_page_asked_for_but_sets_the_language_cookie(client):
    UserFactory(email="maria@example.com", preferred_language="el")

    response = client.post(
        "/en/accounts/login/?next=/en/accounts/friends/",
        {"login": "maria@example.com", "password": PASSWORD},
    )

    assert response["Location"] == "/en/accounts/friends/"
    assert response.cookies[COOKIE].value == "el"


def test_a_failed_login_changes_no_language(client):
    UserFactory(email="maria@example.com", preferred_language="fr")

    response = client.post("/en/accounts/login/", {"login": "maria@example.com", "password": "x"})

    assert response.status_code == 200
    assert COOKIE not in response.cookies


def test_the_bare_address_uses_the_players_language_when_none_was_chosen(client):
    client.force_login(UserFactory(preferred_language="fr"))

    response = client.get("/", headers={"accept-language": "el"})

    assert response["Location"] == "/fr/"


def test_the_language_cookie_is_an_explicit_choice_and_wins(client):
    client.force_login(UserFactory(preferred_language="fr"))
    client.cookies[COOKIE] = "el"

    response = client.get("/", headers={"accept-language": "en"})

    assert response["Location"] == "/el/"


def test_a_language_prefix_wins_over_the_preferred_language(client):
    client.force_login(UserFactory(preferred_language="fr"))

    response = client.get("/en/")

    assert response.status_code == 200
    assert 'lang="en"' in response.content.decode()


def test_visitors_keep_the_browsers_language(client):
    response = client.get("/", headers={"accept-language": "fr"})

    assert response["Location"] == "/fr/"


def test_the_switcher_still_works_for_a_logged_in_player(client):
    client.force_login(UserFactory(preferred_language="fr"))

    response = client.post("/i18n/setlang/", {"language": "el", "next": "/fr/accounts/profile/"})

    assert response["Location"] == "/el/accounts/profile/"
    assert client.get("/")["Location"] == "/el/"
