"""Play now: one tap seats a visitor, as a guest, at a started table with three computers."""

import re
import threading

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.models import Match, Room, Round
from games.selectors import round_view
from games.services import guests
from games.services import rooms as room_services
from tests.factories import make_user

pytestmark = pytest.mark.django_db

GUEST_NAME = re.compile(r"Guest \d{4}")


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def empty_limits():
    """The limits count in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def play_now(client: Client, address: str = "203.0.113.7", **choices: str):
    return client.post(reverse("games:play_now"), choices, REMOTE_ADDR=address)


def guest_of(client: Client) -> User:
    return User.objects.get(pk=client.session[SESSION_KEY])


def test_one_tap_seats_a_new_visitor_as_a_guest_at_a_started_table(client, queued):
    response = play_now(client)

    guest = guest_of(client)
    room = Room.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert guest.is_guest
    assert GUEST_NAME.fullmatch(guest.display_name or "")
    assert guest.email is None
    assert not guest.has_usable_password()
    assert guest.preferred_language == "en"
    assert room.owner == guest
    assert (room.bot_level, room.target, room.status) == ("medium", 301, Room.Status.PLAYING)
    seats = list(room.seats.order_by("seat"))
    assert (seats[0].user, [s.is_bot for s in seats]) == (guest, [False, True, True, True])
    assert Match.objects.get(room=room).status == Match.Status.PLAYING


@pytest.mark.parametrize("mode", ["invite", "open"])
def test_play_now_works_whatever_the_signup_mode(client, settings, queued, mode):
    settings.SIGNUP_MODE = mode

    response = play_now(client)

    assert response.status_code == 302
    assert guest_of(client).is_guest
    assert Room.objects.get().status == Room.Status.PLAYING


def test_the_table_page_shows_the_guest_eight_cards(client, queued):
    room_url = play_now(client)["Location"]

    page = client.get(room_url)

    hand = round_view(Round.objects.get()).state.hand(0)
    assert page.status_code == 200
    assert page.text.count('class="card-button') == 8
    for card in hand:
        assert f'data-card="{card}"' in page.text


def test_the_visitor_picks_the_level_and_the_target(client, queued):
    play_now(client, level="strong", target="251")

    room = Room.objects.get()
    assert (room.bot_level, room.target) == ("strong", 251)


def test_bad_choices_are_refused_with_a_message_and_make_nothing(client, queued):
    response = play_now(client, level="grandmaster", target="1000")

    assert response.status_code == 400
    assert "Please choose easy, medium or strong." in response.text
    assert "Please choose one of the targets offered." in response.text
    assert not User.objects.exists()
    assert not Room.objects.exists()


def test_get_leads_to_the_landing_page_form(client):
    response = client.get(reverse("games:play_now"))

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby:home") + "#play-now"
    assert not User.objects.exists()


def test_a_guest_at_an_unfinished_table_goes_back_to_it(client, queued):
    first = play_now(client)
    again = play_now(client, level="easy")

    assert again["Location"] == first["Location"]
    assert Room.objects.count() == 1
    assert User.objects.count() == 1


def test_a_guest_whose_match_is_over_gets_a_new_table(client, queued):
    play_now(client)
    guest = guest_of(client)
    Match.objects.update(status=Match.Status.FINISHED, winner=0)
    Room.objects.update(status=Room.Status.FINISHED)

    again = play_now(client)

    assert Room.objects.count() == 2
    assert again["Location"] == reverse("games:room", args=[Room.objects.latest("pk").pk])
    assert guest_of(client) == guest
    assert User.objects.count() == 1


def test_the_landing_page_and_the_header_offer_play_now(client):
    page = client.get(reverse("lobby:home"))

    assert page.status_code == 200
    assert page.text.count(f'action="{reverse("games:play_now")}"') == 2
    assert "Play now against the computer" in page.text
    assert 'name="level" value="medium"' in page.text


def test_five_guest_tables_an_hour_per_address_then_429(queued):
    for _ in range(guests.GUEST_TABLES_PER_HOUR):
        assert play_now(Client()).status_code == 302

    refused = play_now(Client())

    assert refused.status_code == 429
    assert "Please try again in an hour." in refused.text
    assert Room.objects.count() == User.objects.count() == guests.GUEST_TABLES_PER_HOUR
    assert play_now(Client(), address="198.51.100.9").status_code == 302


def test_a_returning_guest_counts_only_new_tables(client, queued):
    for _ in range(guests.GUEST_TABLES_PER_HOUR + 3):
        assert play_now(client).status_code == 302  # back to the same unfinished table

    assert Room.objects.count() == 1


def test_a_player_with_an_account_plays_now_as_themselves_without_limit(client, queued):
    player = make_user("Eleni")
    client.force_login(player)

    for _ in range(guests.GUEST_TABLES_PER_HOUR + 1):
        assert play_now(client).status_code == 302

    assert Room.objects.filter(owner=player).count() == guests.GUEST_TABLES_PER_HOUR + 1
    assert not User.objects.filter(is_guest=True).exists()


def test_guest_play_off_hides_the_button_and_refuses_new_guests(client, settings, queued):
    settings.GUEST_PLAY = False

    home = client.get(reverse("lobby:home"))
    refused = play_now(client)

    assert reverse("games:play_now") not in home.text
    assert "Play now" not in home.text
    assert refused.status_code == 404
    assert "Playing without an account is turned off for now." in refused.text
    assert not User.objects.exists()
    assert not Room.objects.exists()


def test_guest_play_off_leaves_play_now_to_players_with_an_account(client, settings, queued):
    settings.GUEST_PLAY = False
    client.force_login(make_user("Eleni"))

    assert reverse("games:play_now") in client.get(reverse("lobby:home")).text
    assert play_now(client).status_code == 302


def test_guest_play_off_refuses_an_existing_guest_a_new_table(client, settings, queued):
    play_now(client)
    Room.objects.update(status=Room.Status.FINISHED)
    settings.GUEST_PLAY = False

    assert play_now(client).status_code == 404
    assert Room.objects.count() == 1


def test_play_now_opens_a_started_room_in_one_transaction(queued):
    owner = make_user("Solo")

    room = room_services.room_play_now(user=owner, level="easy", target=351)

    assert room.status == Room.Status.PLAYING
    assert (room.bot_level, room.target) == ("easy", 351)
    assert [s.is_bot for s in room.seats.order_by("seat")] == [False, True, True, True]
    assert Round.objects.filter(match__room=room, number=1).exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_double_tap_opens_one_table(client, queued):
    """Two taps at once from the same guest: the guest's row lock lets one table through."""
    play_now(client)
    Match.objects.update(status=Match.Status.FINISHED, winner=0)
    Room.objects.update(status=Room.Status.FINISHED)
    twin = Client()
    twin.cookies = client.cookies
    start = threading.Barrier(2)
    answers: list[int] = []

    def tap(browser: Client) -> None:
        start.wait()
        answers.append(play_now(browser).status_code)
        connections.close_all()

    taps = [threading.Thread(target=tap, args=(browser,)) for browser in (client, twin)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join(timeout=30)

    assert answers == [302, 302]
    assert Room.objects.filter(status=Room.Status.PLAYING).count() == 1
    assert Room.objects.count() == 2
