"""Guests and their tables go 7 days after their last activity; everything else stays."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth.signals import user_logged_in
from django.test import RequestFactory

from accounts.models import User
from accounts.services import guest_convert, guest_create
from config.celery import app
from games.engine import Bid, Play
from games.models import Match, Room, RoomSeat, Round, RoundAction
from games.selectors import round_view
from games.services.rooms import room_play_now
from games.services.table import round_apply_action
from games.tasks import bot_play_turn, guests_sweep
from tests.factories import make_user

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def on(day: float) -> time_machine.travel:
    return time_machine.travel(START + timedelta(days=day), tick=False)


def guest_with_table() -> tuple[User, Room]:
    guest = guest_create(language="en")
    return guest, room_play_now(user=guest, level="easy", target=301)


def plays_a_card(user: User, room: Room) -> None:
    """Let the computers act until the user's turn, then act once."""
    round_ = Round.objects.get(match__room=room, status=Round.Status.PLAYING)
    while (view := round_view(round_)).state.to_act != 0:
        bot_play_turn(round_.pk, view.seq)
    legal = view.state.legal_actions()
    action = ([a for a in legal if isinstance(a, Bid | Play)] or legal)[0]
    round_apply_action(round_id=round_.pk, seat=0, action=action, actor=user)


def logs_in(user: User) -> None:
    request = RequestFactory().get("/")
    user_logged_in.send(sender=User, request=request, user=user)


def test_guests_quiet_for_a_week_go_with_their_tables_and_the_rest_stays(queued):
    with on(0):
        gone, gone_room = guest_with_table()
        played_later, played_room = guest_with_table()
        came_back, _room = guest_with_table()
        player = make_user("Eleni")
        player_room = room_play_now(user=player, level="easy", target=301)
        signed_up, _room = guest_with_table()
        guest_convert(
            guest_id=signed_up.pk,
            account=User(email="maria@example.com", display_name="Maria", password="x"),
        )
    with on(3):
        recent, _room = guest_with_table()
    with on(6):
        plays_a_card(played_later, played_room)
    with on(6.5):
        logs_in(came_back)

    with on(8):
        deleted = guests_sweep()

    assert deleted == 1
    assert not User.objects.filter(pk=gone.pk).exists()
    assert not Room.objects.filter(pk=gone_room.pk).exists()
    assert not RoomSeat.objects.filter(room_id=gone_room.pk).exists()
    assert not Match.objects.filter(room_id=gone_room.pk).exists()
    assert not Round.objects.filter(match__room_id=gone_room.pk).exists()
    kept = {played_later.pk, came_back.pk, player.pk, signed_up.pk, recent.pk}
    assert set(User.objects.values_list("pk", flat=True)) == kept
    assert Room.objects.filter(pk=player_room.pk).exists()
    assert RoundAction.objects.filter(actor=played_later).exists()


def test_each_guest_goes_a_week_after_their_own_last_activity(queued):
    with on(0):
        guest, room = guest_with_table()
    with on(5):
        plays_a_card(guest, room)

    with on(11.9):
        assert guests_sweep() == 0
    with on(12.1):
        assert guests_sweep() == 1

    assert not User.objects.filter(pk=guest.pk).exists()


def test_an_account_quiet_for_months_is_never_swept(queued):
    with on(0):
        player = make_user("Eleni")
        room = room_play_now(user=player, level="easy", target=301)

    with on(200):
        assert guests_sweep() == 0

    assert Room.objects.filter(pk=room.pk, owner=player).exists()


def test_beat_runs_the_guest_sweep_every_hour():
    entry = app.conf.beat_schedule["guests-sweep"]

    assert entry["task"] == guests_sweep.name == "games.tasks.guests_sweep"
    assert entry["schedule"] == 60 * 60
