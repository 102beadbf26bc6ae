"""The computer's turn task plays a turn once, and never a turn that has moved on."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.engine import Pass
from games.liveness import lease_release, lease_renew, table_scope
from games.models import RoomSeat, Round, RoundAction
from games.selectors import round_view
from games.services import presence, table
from games.services import rooms as room_services
from games.tasks import bot_play_turn, seat_check_presence
from tests.factories import bot_room, make_user, seated_room

pytestmark = pytest.mark.django_db


def started_bot_round(owner):
    room = bot_room(owner, bot_level="easy")
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)
    return room, Round.objects.get(match__room=room, status=Round.Status.PLAYING)


def test_a_duplicate_task_plays_once(owner, queued):
    _room, round_ = started_bot_round(owner)

    bot_play_turn(round_.pk, 0)
    bot_play_turn(round_.pk, 0)

    assert list(RoundAction.objects.filter(round=round_).values_list("seq", flat=True)) == [0]
    assert RoundAction.objects.get(round=round_).is_bot


def test_a_stale_seq_does_nothing(owner, queued):
    _room, round_ = started_bot_round(owner)
    bot_play_turn(round_.pk, 0)

    bot_play_turn(round_.pk, 5)

    assert round_view(round_).seq == 1


def test_the_task_leaves_a_present_player_alone(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)

    bot_play_turn(round_.pk, 0)

    assert not RoundAction.objects.exists()


def test_a_turn_out_of_time_is_played_for_the_player(players, queued):
    room = seated_room(players, turn_seconds=30)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4

    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        bot_play_turn(round_.pk, 0, timeout=True)

    action = RoundAction.objects.get(round=round_)
    assert (action.seat, action.is_bot, action.actor_id) == (seat, True, None)
    assert RoomSeat.objects.get(room=room, seat=seat).away


def test_the_players_own_action_takes_the_seat_back(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4
    RoomSeat.objects.filter(room=room, seat=seat).update(away=True)

    table.round_apply_action(round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat])

    assert not RoomSeat.objects.get(room=room, seat=seat).away


def open_socket(room, user, name="socket-1"):
    """Do what the table consumer does when a socket opens."""
    lease_renew(scopes=[table_scope(room.pk, user.pk)], connection=name)
    presence.seat_connected(room_id=room.pk, user=user)


def close_socket(room, user, name="socket-1"):
    """Do what the table consumer does when a socket closes."""
    alive = lease_release(scopes=[table_scope(room.pk, user.pk)], connection=name)
    if not alive:
        presence.seat_disconnected(room_id=room.pk, user=user)


def test_a_player_gone_past_the_grace_time_is_played_for(
    players, queued, settings, django_capture_on_commit_callbacks
):
    settings.DISCONNECT_GRACE_SECONDS = 0
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4
    open_socket(room, players[seat])
    close_socket(room, players[seat])

    with django_capture_on_commit_callbacks(execute=True):
        seat_check_presence(room.pk, seat)

    assert RoomSeat.objects.get(room=room, seat=seat).away
    assert queued.bot_turns()[-1] == (round_.pk, 0, False)


def test_a_player_within_the_grace_time_keeps_the_seat(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    open_socket(room, players[1])
    close_socket(room, players[1])

    seat_check_presence(room.pk, 1)

    assert not RoomSeat.objects.get(room=room, seat=1).away
    assert RoomSeat.objects.get(room=room, seat=1).disconnected_at is not None


def test_a_player_back_in_time_keeps_the_seat(players, queued, settings):
    settings.DISCONNECT_GRACE_SECONDS = 0
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    open_socket(room, players[1])
    close_socket(room, players[1])
    open_socket(room, players[1])

    seat_check_presence(room.pk, 1)

    assert not RoomSeat.objects.get(room=room, seat=1).away


def test_a_second_socket_keeps_the_seat_when_the_first_closes(players, queued, settings):
    settings.DISCONNECT_GRACE_SECONDS = 0
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    open_socket(room, players[1], "tab-1")
    open_socket(room, players[1], "tab-2")
    close_socket(room, players[1], "tab-1")

    seat_check_presence(room.pk, 1)

    chair = RoomSeat.objects.get(room=room, seat=1)
    assert (chair.away, chair.disconnected_at) == (False, None)


def test_a_strangers_connection_changes_nothing(players, queued):
    room = seated_room(players)
    stranger = make_user()

    open_socket(room, stranger)
    close_socket(room, stranger)

    assert queued.calls == []
    assert not RoomSeat.objects.filter(room=room, disconnected_at__isnull=False).exists()


def test_a_clock_started_again_outruns_the_old_clocks_task(players, queued):
    room = seated_room(players, turn_seconds=30)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)

    with time_machine.travel(timezone.now() + timedelta(seconds=20)):
        bot_play_turn(round_.pk, 0, timeout=True)

    assert not RoundAction.objects.exists()
    assert not RoomSeat.objects.filter(room=room, away=True).exists()


def test_a_player_back_during_their_turn_gets_a_fresh_clock(
    players, queued, django_capture_on_commit_callbacks
):
    room = seated_room(players, turn_seconds=30)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4
    RoomSeat.objects.filter(room=room, seat=seat).update(away=True)
    later = timezone.now() + timedelta(seconds=25)

    with time_machine.travel(later), django_capture_on_commit_callbacks(execute=True):
        open_socket(room, players[seat])

    round_.refresh_from_db()
    assert not RoomSeat.objects.get(room=room, seat=seat).away
    assert round_.turn_due_at >= later + timedelta(seconds=29)
    assert queued.bot_turns()[-1] == (round_.pk, 0, True)
