"""The sweeper: lost turns are queued again, and players whose sockets died unseen are covered."""

from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.utils import timezone

from games.engine.actions import PASS
from games.liveness import lease_renew, table_scope
from games.models import Room, RoomSeat, Round
from games.realtime import table_group
from games.services import rooms as room_services
from games.services import table as table_services
from games.services.presence import seats_sweep_absent
from games.services.table import (
    rooms_announce_lost_changes,
    round_schedule_turn,
    seat_apply_action,
    turns_sweep_overdue,
)
from games.snapshots import round_state_cached
from games.tasks import table_sweep
from tests.factories import bot_room, seated_room

pytestmark = pytest.mark.django_db


def later(seconds: float) -> time_machine.travel:
    return time_machine.travel(timezone.now() + timedelta(seconds=seconds))


def started_bot_round(owner) -> Round:
    room = bot_room(owner, bot_level="easy")
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)
    round_ = Round.objects.get(match__room=room)
    round_schedule_turn(round_id=round_.pk)
    return round_


def test_a_turn_on_time_is_left_to_its_task(owner, queued):
    started_bot_round(owner)
    queued.calls.clear()

    assert turns_sweep_overdue() == 0
    assert queued.calls == []


def test_an_overdue_computer_turn_is_queued_again_once_per_wait(owner, queued):
    round_ = started_bot_round(owner)
    queued.calls.clear()

    with later(10):
        assert turns_sweep_overdue() == 1
        assert turns_sweep_overdue() == 0
    with later(17):
        assert turns_sweep_overdue() == 1

    assert queued.bot_turns() == [(round_.pk, 0, False), (round_.pk, 0, False)]


def test_an_overdue_clock_is_queued_as_a_clock(players, queued):
    room = seated_room(players, turn_seconds=30)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    queued.calls.clear()

    with later(20):
        assert turns_sweep_overdue() == 0
    with later(40):
        assert turns_sweep_overdue() == 1

    assert queued.bot_turns() == [(round_.pk, 0, True)]


def test_a_players_turn_without_a_clock_is_never_overdue(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    queued.calls.clear()

    with later(3600):
        assert turns_sweep_overdue() == 0


def test_the_queued_again_turn_is_played_once(owner, queued):
    round_ = started_bot_round(owner)
    from games.tasks import bot_play_turn

    with later(10):
        turns_sweep_overdue()
    for round_id, seq, timeout in queued.bot_turns():
        bot_play_turn(round_id, seq, timeout=timeout)

    assert round_.actions.count() == 1


def playing_room(players) -> Room:
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    for player in players:
        lease_renew(scopes=[table_scope(room.pk, player.pk)], connection=f"c{player.pk}")
    return room


def test_live_sockets_leave_every_seat_alone(players, queued):
    room = playing_room(players)

    assert seats_sweep_absent() == 0
    assert not room.seats.filter(disconnected_at__isnull=False).exists()


def test_a_seat_whose_lease_lapsed_starts_its_grace_then_is_covered(
    players, queued, settings, django_capture_on_commit_callbacks
):
    settings.PRESENCE_TTL_SECONDS = 15
    settings.DISCONNECT_GRACE_SECONDS = 30
    room = playing_room(players)
    round_ = Round.objects.get(match__room=room)
    gone = (round_.dealer + 1) % 4
    others = [p for seat, p in enumerate(players) if seat != gone]

    with later(16):
        for player in others:
            lease_renew(scopes=[table_scope(room.pk, player.pk)], connection=f"c{player.pk}")
        assert seats_sweep_absent() == 0
        noticed = RoomSeat.objects.get(room=room, seat=gone).disconnected_at
    with later(40):
        for player in others:
            lease_renew(scopes=[table_scope(room.pk, player.pk)], connection=f"c{player.pk}")
        assert seats_sweep_absent() == 0
    with later(47), django_capture_on_commit_callbacks(execute=True):
        for player in others:
            lease_renew(scopes=[table_scope(room.pk, player.pk)], connection=f"c{player.pk}")
        assert seats_sweep_absent() == 1

    assert noticed is not None
    assert list(room.seats.filter(away=True).values_list("seat", flat=True)) == [gone]
    assert queued.bot_turns()[-1] == (round_.pk, 0, False)


def test_a_seat_alive_again_forgets_its_grace(players, queued):
    room = playing_room(players)
    RoomSeat.objects.filter(room=room, seat=2).update(disconnected_at=timezone.now())

    seats_sweep_absent()

    assert RoomSeat.objects.get(room=room, seat=2).disconnected_at is None


def test_the_periodic_task_runs_both_sweeps(owner, queued):
    round_ = started_bot_round(owner)
    queued.calls.clear()

    with later(10):
        table_sweep()

    assert queued.bot_turns() == [(round_.pk, 0, False)]


def test_beat_runs_the_sweeper_every_few_seconds():
    entry = django_settings.CELERY_BEAT_SCHEDULE["table-sweep"]

    assert entry["task"] == table_sweep.name
    assert entry["schedule"] <= 10


@pytest.mark.services
def test_a_held_task_comes_back_only_after_the_longest_countdown():
    """The broker's visibility timeout outlasts the turn clock, so no waiting task runs twice."""
    longest_clock = max(seconds for seconds, _label in Room.TURN_SECONDS)
    longest = longest_clock + django_settings.ROUND_PAUSE_SECONDS
    longest += django_settings.BOT_PACING_SECONDS
    options = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert options["visibility_timeout"] > longest


def listening(room: Room) -> str:
    """Return a channel of the room's table group, as a connection's would be."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(table_group(room.pk), channel)
    return channel


@pytest.mark.parametrize(
    "change",
    [room_services.room_start, room_services.room_close],
    ids=["a start", "a close, the room leaving play"],
)
def test_a_change_whose_process_died_before_announcing_it_is_announced(players, queued, change):
    room = seated_room(players)
    channel = listening(room)
    # Committed, but its after-commit announcement never runs: as if the process died there.
    change(room_id=room.pk, user=players[0])
    room.refresh_from_db()

    assert rooms_announce_lost_changes() == 1

    message = async_to_sync(get_channel_layer().receive)(channel)
    assert message["type"] == "table.changed"
    assert message["version"] == room.version
    assert rooms_announce_lost_changes() == 0


def test_changes_announced_after_their_commit_are_not_announced_again(
    players, queued, django_capture_on_commit_callbacks
):
    room = seated_room(players)
    with django_capture_on_commit_callbacks(execute=True):
        room_services.room_start(room_id=room.pk, user=players[0])
    assert rooms_announce_lost_changes() == 0

    # A move's snapshot is derived from the one before: it is marked as announced too.
    state = round_state_cached(Round.objects.get(match__room=room))
    with django_capture_on_commit_callbacks(execute=True):
        seat_apply_action(room_id=room.pk, user=players[state.to_act], action=PASS)
    assert rooms_announce_lost_changes() == 0


def test_a_finished_match_whose_last_card_was_never_announced_is_announced(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    table_sweep()
    # The match's last card: the room finishes in the same change, announced by nobody.
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    table_services.table_changed_after_commit(room.pk)

    assert rooms_announce_lost_changes() == 1
    assert rooms_announce_lost_changes() == 0


def test_rooms_that_left_play_long_ago_are_not_swept(players, queued):
    room = seated_room(players)
    room_services.room_close(room_id=room.pk, user=players[0])
    # Never changed since the field was added: the sweep does not read it.
    Room.objects.create(owner=players[1], status=Room.Status.FINISHED, version=99)

    with later(table_services.LEFT_PLAY_SWEPT_FOR.total_seconds() + 1):
        assert rooms_announce_lost_changes() == 0


def test_the_table_sweep_announces_lost_changes(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])

    table_sweep()

    assert rooms_announce_lost_changes() == 0


def test_a_sweep_announces_a_bounded_share_newest_rooms_first(owner, monkeypatch):
    # After the cache is emptied every room in use looks unannounced at once.
    monkeypatch.setattr(table_services, "ANNOUNCED_PER_SWEEP", 2)
    rooms = [bot_room(owner) for _ in range(3)]
    announced: list[int] = []
    publish = table_services._publish
    monkeypatch.setattr(
        table_services,
        "_publish",
        lambda room_id, *args: announced.append(room_id) or publish(room_id, *args),
    )

    assert rooms_announce_lost_changes() == 2
    assert announced == [rooms[2].pk, rooms[1].pk]
    assert rooms_announce_lost_changes() == 1
    assert announced[2:] == [rooms[0].pk]
