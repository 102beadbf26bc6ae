"""The soak's judgement of the action log: late turns, turns never played, vanished actions."""

import subprocess
import sys
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games.engine import Pass
from games.live.audit import (
    Absence,
    Timing,
    audit_rooms,
    logged_actions,
    turn_due,
    vanished,
)
from games.models import Round, RoundAction
from games.services import rooms, table
from tests.factories import bot_room

pytestmark = pytest.mark.django_db

TIMING = Timing(pacing=0.3, round_pause=1.0, grace=5.0, late_seconds=30.0)


def at(seconds: float) -> datetime:
    return timezone.now().replace(microsecond=0) + timedelta(seconds=seconds)


def started_round(owner: User, *, first: int, turn_seconds: int = 0) -> Round:
    """Start a room of the owner (seat 0) and three computers, with ``first`` to open."""
    room = bot_room(owner, turn_seconds=turn_seconds)
    rooms.room_start(room_id=room.pk, user=owner)
    round_ = Round.objects.get(match__room=room)
    Round.objects.filter(pk=round_.pk).update(dealer=(first - 1) % 4)
    return Round.objects.get(pk=round_.pk)


def opened_at(round_: Round, when: datetime) -> None:
    Round.objects.filter(pk=round_.pk).update(created=when)


def audit(round_: Round, *, end: datetime, absences=None):  # type: ignore[no-untyped-def]
    return audit_rooms([round_.match.room_id], timing=TIMING, absences=absences or {}, end=end)


def test_a_computer_turn_played_long_after_its_pacing_is_late(owner, queued):
    round_ = started_round(owner, first=3)
    opened_at(round_, at(-100))
    table.round_apply_action(round_id=round_.pk, seat=3, action=Pass(), actor=None)
    RoundAction.objects.filter(round=round_).update(created=at(-60))

    result = audit(round_, end=at(0))

    assert result.late_turns == 1
    assert result.worst_lateness == pytest.approx(39.7)
    assert result.worst_turn == f"room {round_.match.room_id} seat 3 (computer)"
    # The owner's turn comes next, and people may take their time.
    assert result.never_played == 0
    assert result.rounds_finished == 0


def test_a_computer_turn_played_on_time_is_not_late(owner, queued):
    round_ = started_round(owner, first=3)
    opened_at(round_, at(-100))
    table.round_apply_action(round_id=round_.pk, seat=3, action=Pass(), actor=None)
    RoundAction.objects.filter(round=round_).update(created=at(-99))

    assert audit(round_, end=at(0)).late_turns == 0


@pytest.mark.parametrize(("opened", "never_played"), [(-60, 1), (-10, 0)])
def test_a_computer_turn_still_open_long_after_it_was_due_was_never_played(
    owner, queued, opened, never_played
):
    round_ = started_round(owner, first=3)
    opened_at(round_, at(opened))

    result = audit(round_, end=at(0))

    assert result.never_played == never_played


@pytest.mark.parametrize(("opened", "never_played"), [(-70, 1), (-50, 0)])
def test_a_player_turn_is_due_when_the_clock_runs_out(owner, queued, opened, never_played):
    round_ = started_round(owner, first=0, turn_seconds=30)
    opened_at(round_, at(opened))

    assert audit(round_, end=at(0)).never_played == never_played


def test_a_player_gone_past_the_grace_owes_the_computer_their_turn(owner, queued):
    round_ = started_round(owner, first=0)
    opened_at(round_, at(-100))
    gone = {(round_.match.room_id, 0): [Absence(left=at(-50))]}

    assert audit(round_, end=at(0)).never_played == 0
    assert audit(round_, end=at(0), absences=gone).never_played == 1


def test_a_finished_round_is_counted(owner, queued):
    round_ = started_round(owner, first=3)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.FINISHED)

    assert audit(round_, end=at(0)).rounds_finished == 1


def test_turn_due_takes_the_earliest_of_the_clock_and_an_absence():
    opened = at(0)
    gone = [Absence(left=at(-2))]

    assert turn_due(opened=opened, computer=True, turn_seconds=0, absences=(), timing=TIMING) == (
        opened + timedelta(seconds=0.3),
        "computer",
    )
    assert (
        turn_due(opened=opened, computer=False, turn_seconds=0, absences=(), timing=TIMING) is None
    )
    assert turn_due(
        opened=opened, computer=False, turn_seconds=30, absences=gone, timing=TIMING
    ) == (at(3.3), "player gone")


def test_a_player_back_within_the_grace_owes_nothing():
    back = [Absence(left=at(-2), back=at(1))]
    assert (
        turn_due(opened=at(0), computer=False, turn_seconds=0, absences=back, timing=TIMING) is None
    )


def test_an_action_seen_committed_and_gone_later_has_vanished(owner, queued):
    round_ = started_round(owner, first=3)
    table.round_apply_action(round_id=round_.pk, seat=3, action=Pass(), actor=None)
    seen = logged_actions([round_.match.room_id])
    assert len(seen) == 1
    assert vanished(seen) == 0

    RoundAction.objects.filter(round=round_).delete()

    assert vanished(seen) == 1


def test_the_soak_refuses_to_run_without_postgresql_and_redis():
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:///nowhere.sqlite3"}
    result = subprocess.run(
        [sys.executable, "-m", "games.soak", "--minutes", "1"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "DATABASE_URL does not point at PostgreSQL" in result.stderr
