"""The computer's turn task plays a turn once, and never a turn that has moved on."""

import pytest

from games.engine import Pass
from games.models import RoomSeat, Round, RoundAction
from games.selectors import round_view
from games.services import presence, table
from games.services import rooms as room_services
from games.tasks import bot_play_turn, seat_check_presence
from tests.games.conftest import bot_room, make_user, seated_room

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


def test_a_player_gone_past_the_grace_time_is_played_for(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4
    presence.seat_connected(room_id=room.pk, user=players[seat])
    presence.seat_disconnected(room_id=room.pk, user=players[seat])

    seat_check_presence(room.pk, seat)

    assert RoomSeat.objects.get(room=room, seat=seat).away


def test_a_player_back_in_time_keeps_the_seat(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    presence.seat_connected(room_id=room.pk, user=players[1])
    presence.seat_disconnected(room_id=room.pk, user=players[1])
    presence.seat_connected(room_id=room.pk, user=players[1])

    seat_check_presence(room.pk, 1)

    assert not RoomSeat.objects.get(room=room, seat=1).away


def test_a_strangers_connection_changes_nothing(players, queued):
    room = seated_room(players)
    stranger = make_user()

    presence.seat_connected(room_id=room.pk, user=stranger)
    presence.seat_disconnected(room_id=room.pk, user=stranger)

    assert queued.calls == []
    assert not RoomSeat.objects.filter(room=room, connections__gt=0).exists()
