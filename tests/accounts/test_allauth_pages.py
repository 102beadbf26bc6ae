"""allauth's own flows, dressed as the site: password reset, changes, an inactive account."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-Kafenio-2025"


@pytest.mark.parametrize(
    "url", ["/en/accounts/login/", "/en/accounts/signup/", "/en/accounts/password/reset/"]
)
def test_entrance_pages_wear_the_sites_frame(client, url, settings):
    settings.SIGNUP_MODE = "open"

    html = client.get(url).content.decode()

    assert 'class="site-header"' in html
    assert "/static/accounts/accounts.css" in html
    assert 'name="viewport"' in html
    assert "Pilotta.io</title>" in html.replace("\n", "")


@pytest.mark.parametrize("url", ["/en/accounts/email/", "/en/accounts/password/change/"])
def test_account_pages_wear_the_sites_frame(player_client, url):
    response = player_client.get(url)

    assert response.status_code == 200
    assert 'class="site-header"' in response.content.decode()


def test_greek_pages_use_allauths_greek(client):
    html = client.get("/el/accounts/login/").content.decode()

    assert "Σύνδεση" in html
    assert 'lang="el"' in html


def test_password_reset_by_email_link(client, player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/en/accounts/password/reset/", {"email": "andreas@example.com"})
    assert response.status_code == 302
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+/", mail.outbox[0].body)
    assert link is not None

    # allauth moves the key from the URL into the session before showing the form.
    form_page = client.get(link.group(0), follow=True)
    assert 'name="password1"' in form_page.content.decode()
    client.post(
        form_page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )

    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_password_reset_for_an_unknown_address_answers_the_same(
    client, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post("/en/accounts/password/reset/", {"email": "andreas@example.com"})
        unknown = client.post("/en/accounts/password/reset/", {"email": "ghost@example.com"})

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]


def test_changing_the_password(player_client, player):
    response = player_client.post(
        "/en/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(NEW_PASSWORD)


def test_changing_the_password_needs_the_old_one(player_client, player):
    player_client.post(
        "/en/accounts/password/change/",
        {"oldpassword": "wrong", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_changing_the_email_waits_for_the_new_address_to_be_verified(
    player_client, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        player_client.post(
            "/en/accounts/email/", {"action_add": "", "email": "andreas.k@example.com"}
        )

    player.refresh_from_db()
    assert player.email == "andreas@example.com"
    assert mail.outbox[0].to == ["andreas.k@example.com"]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body)
    assert link is not None

    player_client.post(link.group(0))

    player.refresh_from_db()
    assert player.email == "andreas.k@example.com"
    assert EmailAddress.objects.get(user=player).email == "andreas.k@example.com"


def test_a_deactivated_player_sees_the_inactive_page(client):
    UserFactory(email="sleepy@example.com", is_active=False)

    response = client.post(
        "/en/accounts/login/", {"login": "sleepy@example.com", "password": PASSWORD}, follow=True
    )

    assert response.redirect_chain == [(reverse("account_inactive"), 302)]
    assert "_auth_user_id" not in client.session
    assert "This account is not active. If you think this is a mistake, write to us." in (
        response.content.decode()
    )


def test_logging_out_takes_a_post(player_client):
    assert player_client.get("/en/accounts/logout/").status_code == 200
    assert "_auth_user_id" in player_client.session

    player_client.post("/en/accounts/logout/")

    assert "_auth_user_id" not in player_client.session
    assert User.objects.filter(email="andreas@example.com").exists()
