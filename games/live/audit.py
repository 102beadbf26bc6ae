"""Judge the live table from its action log: when each turn was due, and when it was played.

A computer's turn is due its pacing after the action before it, plus the round pause at the
start of a round after the first. A player's turn is due when their clock runs out, or once
they have been gone for the disconnect grace: either way the computer should have played it
then. Any other player's turn is never due: people may take their time.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from games.models import Room, RoomSeat, Round, RoundAction
from games.selectors import round_view


@dataclass(frozen=True)
class Timing:
    """The pauses the site was configured with, and how late counts as late."""

    pacing: float
    round_pause: float
    grace: float
    late_seconds: float = 30.0


@dataclass
class Absence:
    """A player gone from the table, from ``left`` until ``back`` (None: still gone)."""

    left: datetime
    back: datetime | None = None


@dataclass
class Audit:
    """What the log says: finished rounds, late turns, and turns due and never played."""

    rounds_finished: int = 0
    late_turns: int = 0
    worst_lateness: float = 0.0
    worst_turn: str = ""
    never_played: int = 0
    notes: list[str] = field(default_factory=list)


def turn_due(
    *,
    opened: datetime,
    computer: bool,
    turn_seconds: int,
    absences: Iterable[Absence],
    timing: Timing,
) -> tuple[datetime, str] | None:
    """When a turn open since ``opened`` had to be played at the latest, and why; or None."""
    pacing = timedelta(seconds=timing.pacing)
    if computer:
        return opened + pacing, "computer"
    candidates = []
    if turn_seconds:
        candidates.append((opened + timedelta(seconds=turn_seconds), "clock"))
    for absence in absences:
        taken_over = absence.left + timedelta(seconds=timing.grace)
        # Back before the grace ran out, or before the turn opened: nothing was due.
        if absence.back is None or absence.back > max(taken_over, opened):
            candidates.append((max(opened, taken_over) + pacing, "player gone"))
    return min(candidates, default=None)


def audit_rooms(
    room_ids: Iterable[int],
    *,
    timing: Timing,
    absences: dict[tuple[int, int], list[Absence]],
    end: datetime,
) -> Audit:
    """Go through every round of the rooms, turn by turn, up to ``end``."""
    audit = Audit()
    rooms = {room.pk: room for room in Room.objects.filter(pk__in=list(room_ids))}
    computers = set(
        RoomSeat.objects.filter(room_id__in=rooms, is_bot=True).values_list("room_id", "seat")
    )

    def due(room: Room, seat: int, opened: datetime) -> tuple[datetime, str] | None:
        return turn_due(
            opened=opened,
            computer=(room.pk, seat) in computers,
            turn_seconds=room.turn_seconds,
            absences=absences.get((room.pk, seat), ()),
            timing=timing,
        )

    rounds = Round.objects.filter(match__room_id__in=rooms).select_related("match__room")
    for round_ in rounds.order_by("pk"):
        room = round_.match.room
        opened = round_.created + timedelta(
            seconds=timing.round_pause if round_.number > 1 else 0.0
        )
        for seat, created in round_.actions.order_by("seq").values_list("seat", "created"):
            if (when := due(room, seat, opened)) is not None:
                lateness = (created - when[0]).total_seconds()
                if lateness > audit.worst_lateness:
                    audit.worst_lateness = lateness
                    audit.worst_turn = f"room {room.pk} seat {seat} ({when[1]})"
                if lateness > timing.late_seconds:
                    audit.late_turns += 1
                    audit.notes.append(
                        f"room {room.pk} seat {seat} ({when[1]}): played {lateness:.1f} s "
                        "after it was due"
                    )
            opened = created
        if round_.status != Round.Status.PLAYING:
            audit.rounds_finished += 1
            continue
        to_act = round_view(round_).state.to_act
        when = due(room, to_act, opened) if to_act is not None else None
        if when is not None and (overdue := (end - when[0]).total_seconds()) > timing.late_seconds:
            audit.never_played += 1
            audit.notes.append(
                f"room {room.pk} seat {to_act} ({when[1]}): never played, due {overdue:.1f} s "
                "before the end"
            )
    return audit


def logged_actions(room_ids: Iterable[int], *, after: int = 0) -> dict[int, tuple[Any, ...]]:
    """Return the rooms' log entries past ``after``, by id: round, position and action."""
    rows = RoundAction.objects.filter(round__match__room_id__in=list(room_ids), pk__gt=after)
    return {pk: tuple(rest) for pk, *rest in rows.values_list("pk", "round_id", "seq", "action")}


def vanished(seen: dict[int, tuple[Any, ...]]) -> int:
    """Count the log entries seen committed earlier that are gone or changed now."""
    rows = RoundAction.objects.filter(pk__in=list(seen)).values_list(
        "pk", "round_id", "seq", "action"
    )
    now = {pk: tuple(rest) for pk, *rest in rows}
    return sum(now.get(pk) != tuple(entry) for pk, entry in seen.items())
