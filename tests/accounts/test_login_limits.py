"""Login limits behind a proxy: per client address and per account, refused with 429."""

import pytest

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"
LOGIN = "/en/accounts/login/"
LOCKED = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


def log_in(client, login, password, forwarded):
    return client.post(
        LOGIN,
        {"login": login, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


def fail_from(client, forwarded, times, login=None):
    """Fail ``times`` logins from one address, on different accounts unless ``login`` is given."""
    statuses = [
        log_in(client, login or f"nobody{n}@example.com", "guess", forwarded).status_code
        for n in range(times)
    ]
    assert statuses == [200] * times


def test_failed_logins_lock_out_the_address_that_made_them(client):
    fail_from(client, "203.0.113.5", 10)

    refused = log_in(client, "someone@example.com", "guess", "203.0.113.5")

    assert refused.status_code == 429
    assert LOCKED in refused.content.decode()


def test_two_clients_behind_the_same_proxy_have_their_own_buckets(client):
    player = UserFactory()
    fail_from(client, "203.0.113.5", 10)

    other = log_in(client, player.email, PASSWORD, "203.0.113.6")

    assert other.status_code == 302
    assert client.session["_auth_user_id"] == str(player.pk)


def test_a_forged_leftmost_entry_does_not_change_the_bucket(client):
    for n in range(10):
        forged = f"192.0.2.{n}, 203.0.113.5"
        assert log_in(client, f"nobody{n}@example.com", "guess", forged).status_code == 200

    refused = log_in(client, "someone@example.com", "guess", "198.51.100.1, 203.0.113.5")

    assert refused.status_code == 429


def test_failed_logins_lock_the_account_from_every_address(client):
    player = UserFactory()
    fail_from(client, "203.0.113.5", 5, login=player.email)

    refused = log_in(client, player.email, PASSWORD, "203.0.113.6")

    assert refused.status_code == 429
    assert LOCKED in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_locked_out_page_keeps_the_translated_message(client):
    player = UserFactory()
    fail_from(client, "203.0.113.5", 5, login=player.email)

    refused = client.post(
        "/fr/accounts/login/",
        {"login": player.email, "password": PASSWORD},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="203.0.113.5",
    )

    assert refused.status_code == 429
    assert "Trop de tentatives de connexion" in refused.content.decode()


def test_too_many_login_posts_get_the_429_page_per_client(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {"login": "3/m/ip"}
    for _attempt in range(3):
        assert log_in(client, "x@example.com", "guess", "203.0.113.5").status_code == 200

    refused = log_in(client, "x@example.com", "guess", "192.0.2.1, 203.0.113.5")
    other = log_in(client, "x@example.com", "guess", "203.0.113.6")

    assert refused.status_code == 429
    assert "Too many requests" in refused.content.decode()
    assert other.status_code == 200
