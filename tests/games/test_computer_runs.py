"""Without pacing, the computers who act one after another play in one task, as one change."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import Pass
from games.errors import GameError
from games.models import Room, RoomSeat, Round, RoundAction
from games.selectors import round_view
from games.services import rooms as room_services
from games.services import table
from games.tasks import bot_play_turn
from tests.factories import bot_room, seated_room

pytestmark = pytest.mark.django_db


def started(room: Room, user) -> Round:
    room_services.room_start(room_id=room.pk, user=user)
    return Round.objects.get(match__room=room, status=Round.Status.PLAYING)


def version(room: Room) -> int:
    return Room.objects.get(pk=room.pk).version


@pytest.mark.parametrize("level", [None, "medium"], ids=["read-then-lock", "under-the-lock"])
def test_without_pacing_the_computers_play_up_to_the_persons_turn_in_one_change(
    owner, queued, settings, level
):
    settings.BOT_PACING_SECONDS = 0
    room = bot_room(owner)
    round_ = started(room, owner)
    first = (round_.dealer + 1) % 4
    before = version(room)

    bot_play_turn(round_.pk, 0, level=level)

    seats = list(RoundAction.objects.filter(round=round_).values_list("seat", flat=True))
    # Every computer from the first to act up to the owner's seat 0 has moved, in order.
    assert seats == [(first + n) % 4 for n in range((0 - first) % 4)]
    assert all(RoundAction.objects.filter(round=round_).values_list("is_bot", flat=True))
    assert round_view(round_).state.to_act == 0
    assert version(room) == before + (1 if seats else 0)


@pytest.mark.parametrize("level", [None, "medium"], ids=["read-then-lock", "under-the-lock"])
def test_without_pacing_a_table_of_computers_plays_the_round_in_one_task(
    owner, queued, settings, level
):
    settings.BOT_PACING_SECONDS = 0
    settings.ROUND_PAUSE_SECONDS = 0
    room = bot_room(owner)
    round_ = started(room, owner)
    room.seats.filter(seat=0).update(away=True)
    before = version(room)

    bot_play_turn(round_.pk, 0, level=level)

    round_.refresh_from_db()
    assert round_.status in (Round.Status.FINISHED, Round.Status.CANCELLED)
    actions = RoundAction.objects.filter(round=round_).count()
    assert actions >= 4
    # One change for the whole run, and one for the next deal it started.
    assert version(room) - before <= 2


@pytest.mark.parametrize("level", [None, "medium"], ids=["read-then-lock", "under-the-lock"])
def test_with_pacing_a_computer_plays_only_its_own_turn(owner, queued, settings, level):
    settings.BOT_PACING_SECONDS = 0.8
    room = bot_room(owner)
    round_ = started(room, owner)
    room.seats.filter(seat=0).update(away=True)

    bot_play_turn(round_.pk, 0, level=level)

    assert RoundAction.objects.filter(round=round_).count() == 1
    round_.refresh_from_db()
    assert round_.turn_seq == 1  # the next computer's turn waits for its own task


def test_a_move_for_a_seat_taken_back_is_dropped_with_the_moves_after_it(players, queued):
    room = seated_room(players)
    round_ = started(room, players[0])
    first = (round_.dealer + 1) % 4
    second, third = (first + 1) % 4, (first + 2) % 4
    room.seats.filter(seat__in=(first, second, third)).update(away=True)
    moves = [(first, Pass()), (second, Pass()), (third, Pass())]
    # The second seat's player came back between the computers' decision and its record.
    RoomSeat.objects.filter(room=room, seat=second).update(away=False)

    applied = table.round_apply_computer_moves(round_id=round_.pk, moves=moves, expected_seq=0)

    assert applied.seq == 1
    assert list(RoundAction.objects.filter(round=round_).values_list("seat", flat=True)) == [first]


@pytest.mark.parametrize(
    ("code", "change"),
    [
        ("not_your_turn", lambda room, first: None),  # a person's seat: no computer plays it
        ("stale", lambda room, first: room.seats.filter(seat=first).update(away=True)),
    ],
)
def test_refused_computer_moves_write_nothing(players, queued, code, change):
    room = seated_room(players)
    round_ = started(room, players[0])
    first = (round_.dealer + 1) % 4
    change(room, first)
    expected_seq = 3 if code == "stale" else 0

    with pytest.raises(GameError) as refused:
        table.round_apply_computer_moves(
            round_id=round_.pk, moves=[(first, Pass())], expected_seq=expected_seq
        )

    assert refused.value.code == code
    assert not RoundAction.objects.exists()


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_quick_computer_reads_the_round_once(owner, queued, settings, level):
    """Decided under the round's lock, a quick computer's turn skips the read it made
    before deciding, to decide once more after locking."""
    settings.BOT_PACING_SECONDS = 0.8
    counts = {}
    for path in (None, level):
        room = bot_room(owner, bot_level=level)
        round_ = started(room, owner)
        room.seats.filter(seat=0).update(away=True)
        with CaptureQueriesContext(connection) as queries:
            bot_play_turn(round_.pk, 0, level=path)
        assert RoundAction.objects.filter(round=round_).count() == 1
        counts[path] = len(queries)

    assert counts[level] <= counts[None] - 2


@pytest.mark.parametrize("seq", [0, 3])
def test_a_quick_computer_leaves_a_persons_turn_and_a_stale_one_alone(players, queued, seq):
    room = seated_room(players)
    round_ = started(room, players[0])
    before = version(room)

    bot_play_turn(round_.pk, seq, level="medium")

    assert not RoundAction.objects.filter(round=round_).exists()
    assert version(room) == before
