"""The lobby's list of rooms: each room's state, its score, and the result for the viewer."""

# ruff: noqa: RUF001 - scores are written with an en dash, as the page writes them.

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games.models import Match, Room
from games.selectors import lobby_rooms
from games.services import rooms as room_services
from tests.factories import make_user, seated_room
from tests.games.conftest import QueuedTasks, record_tasks

pytestmark = pytest.mark.django_db

LANGUAGES = ["el", "en", "fr"]


@pytest.fixture
def queued(monkeypatch) -> QueuedTasks:
    """Record the computers' turns a started match would queue."""
    return record_tasks(monkeypatch)


@pytest.fixture
def players(db):
    return [make_user(f"Seat{n}") for n in range(4)]


def lobby(client, user, language="en"):
    client.force_login(user)
    with translation.override(language):
        return client.get(reverse("lobby:rooms")).text


def said(language: str, message: str, **values: object) -> str:
    """Return a message of the lobby as the page writes it in ``language``."""
    with translation.override(language):
        return gettext(message) % values if values else gettext(message)


def started(players, queued) -> Room:
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    return room


def score(room: Room, totals: list[int]) -> None:
    Match.objects.filter(room=room).update(totals=totals)


def finish(room: Room, totals: list[int], winner: int) -> None:
    """End the room's match the way the table does, without playing every card of it."""
    Match.objects.filter(room=room).update(
        status=Match.Status.FINISHED, totals=totals, winner=winner
    )
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_room_waiting_for_players_says_so(client, players, language):
    room_services.room_create(owner=players[0])

    page = lobby(client, players[0], language)

    assert said(language, "waiting for players") in page


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_room_being_played_shows_the_score_from_my_side(client, players, queued, language):
    room = started(players, queued)
    score(room, [120, 80])

    mine = lobby(client, players[0], language)
    theirs = lobby(client, players[1], language)

    assert said(language, "Playing: %(us)s–%(them)s", us=120, them=80) in mine
    assert said(language, "Playing: %(us)s–%(them)s", us=80, them=120) in theirs


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_finished_room_shows_who_won_from_my_side(client, players, queued, language):
    room = started(players, queued)
    finish(room, [312, 187], winner=0)

    winner = lobby(client, players[2], language)
    loser = lobby(client, players[3], language)

    assert said(language, "Won %(us)s–%(them)s", us=312, them=187) in winner
    assert said(language, "Lost %(us)s–%(them)s", us=187, them=312) in loser
    assert said(language, "waiting for players") not in winner


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_owner_without_a_seat_sees_both_teams_totals(client, players, queued, language):
    owner = make_user("Host")
    room = room_services.room_create(owner=owner)
    room_services.room_leave_seat(room_id=room.pk, user=owner)
    for seat, player in enumerate(players):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    room_services.room_start(room_id=room.pk, user=owner)
    score(room, [40, 162])

    playing = lobby(client, owner, language)
    finish(room, [187, 312], winner=1)
    finished = lobby(client, owner, language)

    teams = "seats 1 and 3 %(first)s, seats 2 and 4 %(second)s"
    assert said(language, f"Playing: {teams}", first=40, second=162) in playing
    assert said(language, f"Finished: {teams}", first=187, second=312) in finished


def test_a_rematch_shows_the_new_match_being_played(client, players, queued):
    room = started(players, queued)
    finish(room, [312, 187], winner=0)
    room_services.match_rematch(room_id=room.pk, user=players[0])

    page = lobby(client, players[0])

    assert "Playing: 0–0" in page
    assert "Won" not in page


def test_the_greek_lobby_speaks_greek(client, players):
    """The status words already in the catalog read in Greek, not in English."""
    room_services.room_create(owner=players[0])

    page = lobby(client, players[0], "el")

    assert "περιμένει παίκτες" in page
    assert "waiting for players" not in page


def test_the_list_costs_the_same_queries_for_one_room_or_many(
    client, players, queued, django_assert_num_queries
):
    room_services.room_create(owner=players[0])
    client.force_login(players[0])
    url = reverse("lobby:rooms")
    client.get(url)  # the session and the site are read once, cached after
    with django_assert_num_queries(2):
        assert len(lobby_rooms(players[0])) == 1
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    queries_for_one = len(one.captured_queries)
    assert queries_for_one <= 8

    finish(started(players, queued), [312, 187], winner=0)
    started(players, queued)
    room_services.room_create(owner=players[0])

    with django_assert_num_queries(queries_for_one):
        response = client.get(url)
    assert response.text.count('class="room-link') == 4
