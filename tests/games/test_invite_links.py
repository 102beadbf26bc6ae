"""A room's share link for newcomers: greeted in their language, signed up, seated at login."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext

from accounts.adapter import waitlist_url
from accounts.models import User
from games.errors import GameError
from games.models import Room
from games.services import rooms as room_services
from tests.factories import PASSWORD, confirmation_link, make_user, seated_room, signup_data

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def invite_only(settings, eager_celery):
    """Sign-up is by invitation; emails are sent at once; allauth's limits start empty."""
    settings.SIGNUP_MODE = "invite"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def owner(db):
    return make_user("Maria", language="el")


@pytest.fixture
def room(owner):
    return room_services.room_create(owner=owner)


def newcomer_data(**overrides: str) -> dict[str, str]:
    return signup_data(**({"email": "nikos@example.com", "display_name": "Nikos"} | overrides))


def link(room: Room) -> str:
    """Return the share link as the room page gives it: with no language in it."""
    return f"/join/{room.invite_token}/"


def in_language(language: str, url_name: str, *args: object) -> str:
    with translation.override(language):
        return reverse(url_name, args=args)


def said(language: str, message: str, **values: object) -> str:
    with translation.override(language):
        return gettext(message) % values if values else gettext(message)


def open_link(client, room: Room, language: str = "en"):
    """Open the share link with a browser set to ``language``; return the page it lands on."""
    return client.get(link(room), HTTP_ACCEPT_LANGUAGE=language, follow=True)


def sign_up(client, capture, language: str = "en", **data):
    with capture(execute=True):
        return client.post(in_language(language, "account_signup"), newcomer_data(**data))


def verify_and_log_in(client, language: str = "en", email: str = "nikos@example.com"):
    confirm = confirmation_link(mail.outbox[-1])
    assert client.get(confirm).status_code == 200
    client.post(confirm)
    return client.post(
        in_language(language, "account_login"), {"login": email, "password": PASSWORD}
    )


def test_the_room_page_shares_a_link_without_a_language(client, owner, room):
    client.force_login(owner)

    page = client.get(in_language("el", "games:room", room.pk))

    assert f'value="http://testserver{link(room)}"' in page.text


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_a_newcomer_is_greeted_in_their_browsers_language(client, room, language):
    page = open_link(client, room, language)

    assert page.redirect_chain[0][0] == in_language(language, "games:room_join", room.invite_token)
    assert page.status_code == 200
    assert f'<html lang="{language}">' in page.text
    heading = said(
        language, "%(name)s invites you to play at “%(room)s”", name="Maria", room="ROOM"
    )
    with translation.override(language):
        title = room.title
    assert escape(heading.replace("ROOM", title)) in page.text
    assert f'href="{in_language(language, "account_signup")}"' in page.text
    assert said(language, "Sign up") in page.text
    assert said(language, "Log in") in page.text


def test_the_link_opens_sign_up_even_by_invitation_only(client, room):
    open_link(client, room)

    signup = client.get(in_language("en", "account_signup"))

    assert signup.status_code == 200
    assert 'name="display_name"' in signup.text


def test_invitation_only_still_holds_for_everyone_else(client, room):
    signup = client.get(in_language("en", "account_signup"))

    assert signup.status_code == 302
    assert signup["Location"] == waitlist_url()


def test_a_newcomer_signs_up_verifies_logs_in_and_sits_at_the_table(
    client, room, django_capture_on_commit_callbacks
):
    open_link(client, room, "fr")

    signed_up = sign_up(client, django_capture_on_commit_callbacks, "fr")
    assert signed_up.status_code == 302
    assert signed_up["Location"] == in_language("fr", "account_email_verification_sent")
    newcomer = User.objects.get(email="nikos@example.com")
    assert not room.seats.filter(user=newcomer).exists()

    login = verify_and_log_in(client, "fr")

    assert login.status_code == 302
    assert login["Location"] == in_language("fr", "games:room", room.pk)
    assert room.seats.get(seat=1).user == newcomer
    page = client.get(login["Location"])
    assert page.status_code == 200
    assert f'<h1 class="room-title">{escape(room.title)}</h1>' in page.text


def test_the_seat_is_taken_once_only(client, room, django_capture_on_commit_callbacks):
    open_link(client, room)
    sign_up(client, django_capture_on_commit_callbacks)
    verify_and_log_in(client)
    client.logout()

    again = client.post(
        in_language("en", "account_login"), {"login": "nikos@example.com", "password": PASSWORD}
    )

    assert again["Location"] == in_language("en", "lobby:rooms")
    assert room.seats.filter(user__email="nikos@example.com").count() == 1


def test_a_player_who_only_opened_the_link_is_not_seated_by_logging_in(client, room):
    player = make_user("Eleni")
    open_link(client, room)

    login = client.post(
        in_language("en", "account_login"), {"login": player.email, "password": PASSWORD}
    )

    assert login["Location"] == in_language("en", "lobby:rooms")
    assert not room.seats.filter(user=player).exists()


def test_a_player_logging_in_from_the_link_comes_back_to_take_a_seat(client, room):
    player = make_user("Eleni")
    page = open_link(client, room)
    login_url = re.search(r'href="(/en/accounts/login/\?next=[^"]+)"', page.text).group(1)

    login = client.post(login_url, {"login": player.email, "password": PASSWORD})
    back = client.get(login["Location"])

    assert login["Location"] == in_language("en", "games:room_join", room.invite_token)
    assert "Take a seat" in back.text


def test_a_room_that_fills_before_the_login_leaves_the_newcomer_at_the_link(
    client, room, owner, django_capture_on_commit_callbacks
):
    open_link(client, room)
    sign_up(client, django_capture_on_commit_callbacks)
    for seat in (1, 2, 3):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)

    login = verify_and_log_in(client)
    page = client.get(login["Location"])

    assert login["Location"] == in_language("en", "games:room_join", room.invite_token)
    assert "every seat at this table is taken" in page.text
    assert not room.seats.filter(user__email="nikos@example.com").exists()


class TestRefusedLinks:
    """A link that may not seat a newcomer opens no sign-up."""

    def assert_no_signup(self, client):
        signup = client.get(in_language("en", "account_signup"))
        assert signup.status_code == 302
        assert signup["Location"] == waitlist_url()

    def test_a_renewed_link_is_refused(self, client, room, owner):
        old = link(room)
        room_services.room_renew_invite(room_id=room.pk, user=owner)

        page = client.get(old, HTTP_ACCEPT_LANGUAGE="en", follow=True)

        assert page.status_code == 404
        assert "This invitation link is not valid any more." in page.text
        self.assert_no_signup(client)

    def test_a_link_renewed_after_it_was_opened_is_refused_at_sign_up(self, client, room, owner):
        open_link(client, room)
        room_services.room_renew_invite(room_id=room.pk, user=owner)

        response = client.post(in_language("en", "account_signup"), newcomer_data())

        assert response["Location"] == waitlist_url()
        assert not User.objects.filter(email="nikos@example.com").exists()

    def test_an_expired_link_is_refused(self, client, room, settings):
        with time_machine.travel(
            timezone.now() + timedelta(days=settings.INVITATION_MAX_AGE_DAYS, seconds=1)
        ):
            page = open_link(client, room)
            self.assert_no_signup(client)

        assert page.status_code == 410
        assert "This invitation link is not valid any more." in page.text

    def test_a_link_that_expires_after_it_was_opened_is_refused_at_sign_up(
        self, client, room, settings
    ):
        settings.INVITATION_MAX_AGE_DAYS = 2  # within the visitor's session, which lasts 2 weeks
        open_link(client, room)

        with time_machine.travel(timezone.now() + timedelta(days=3)):
            response = client.post(in_language("en", "account_signup"), newcomer_data())

        assert response["Location"] == waitlist_url()
        assert not User.objects.filter(email="nikos@example.com").exists()

    def test_one_browser_signs_up_once_through_a_link(
        self, client, room, django_capture_on_commit_callbacks
    ):
        open_link(client, room)
        sign_up(client, django_capture_on_commit_callbacks)

        again = client.post(
            in_language("en", "account_signup"),
            newcomer_data(email="other@example.com", display_name="Other"),
        )

        assert again["Location"] == waitlist_url()
        assert not User.objects.filter(email="other@example.com").exists()

    def test_a_full_room_is_refused(self, client):
        room = seated_room([make_user() for _ in range(4)])

        page = open_link(client, room)

        assert page.status_code == 200
        assert "every seat at this table is taken" in page.text
        assert 'class="join-actions"' not in page.text
        self.assert_no_signup(client)

    def test_a_started_room_is_refused(self, client, owner, room, monkeypatch):
        from tests.games.conftest import record_tasks

        record_tasks(monkeypatch)
        for seat in (1, 2, 3):
            room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
        room_services.room_start(room_id=room.pk, user=owner)

        page = open_link(client, room)

        assert "every seat at this table is taken" in page.text
        self.assert_no_signup(client)

    def test_a_closed_room_is_refused(self, client, room, owner):
        room_services.room_close(room_id=room.pk, user=owner)

        page = open_link(client, room)

        assert page.status_code == 404
        self.assert_no_signup(client)


def test_an_expired_link_seats_no_player_either(client, room, settings):
    settings.INVITATION_MAX_AGE_DAYS = 2  # within the player's session, which lasts 2 weeks
    player = make_user("Eleni")
    client.force_login(player)
    url = in_language("en", "games:room_join", room.invite_token)

    with time_machine.travel(timezone.now() + timedelta(days=3)):
        page = client.get(url)
        response = client.post(url)
        with pytest.raises(GameError, match="bad_invite"):
            room_services.room_take_seat(room_id=room.pk, user=player, token=room.invite_token)

    assert page.status_code == 410
    assert response.status_code == 410
    assert not room.seats.filter(user=player).exists()


def test_renewing_the_link_starts_its_days_again(room, owner):
    with time_machine.travel(timezone.now() + timedelta(days=13)):
        token = room_services.room_renew_invite(room_id=room.pk, user=owner)
    player = make_user()

    with time_machine.travel(timezone.now() + timedelta(days=20)):
        room_services.room_take_seat(room_id=room.pk, user=player, token=token)

    assert room.seats.filter(user=player).exists()
