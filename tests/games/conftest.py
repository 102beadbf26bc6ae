"""Fixtures of the live table: players, rooms, and a record of the tasks that would be queued."""

import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest

from accounts.models import User
from games.models import Room
from games.services import rooms as room_services

_emails = itertools.count(1)


def make_user(name: str | None = None, language: str = "en") -> User:
    number = next(_emails)
    return User.objects.create_user(
        email=f"player{number}@example.com",
        password="pw-12345-long",
        display_name=name or f"Player{number}",
        preferred_language=language,
    )


@dataclass
class QueuedTasks:
    calls: list[dict[str, Any]] = field(default_factory=list)

    def bot_turns(self) -> list[tuple[int, int, bool]]:
        return [
            (c["args"][0], c["args"][1], c["kwargs"].get("timeout", False))
            for c in self.calls
            if c["name"] == "bot_play_turn"
        ]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> QueuedTasks:
    """Record the Celery tasks the table would queue, instead of sending them to a broker."""
    return record_tasks(monkeypatch)


def record_tasks(monkeypatch: pytest.MonkeyPatch) -> QueuedTasks:
    """Replace the table's task queueing with a record of the calls."""
    from games import tasks

    record = QueuedTasks()

    def recorder(name: str) -> Any:
        def apply_async(args: Any = (), kwargs: Any = None, **options: Any) -> None:
            record.calls.append(
                {"name": name, "args": args, "kwargs": kwargs or {}, "options": options}
            )

        return apply_async

    monkeypatch.setattr(tasks.bot_play_turn, "apply_async", recorder("bot_play_turn"))
    monkeypatch.setattr(tasks.seat_check_presence, "apply_async", recorder("seat_check_presence"))
    return record


@pytest.fixture
def owner(db: None) -> User:
    return make_user("Owner")


@pytest.fixture
def players(db: None) -> list[User]:
    return [make_user(f"Seat{n}") for n in range(4)]


def seated_room(players: list[User], **settings: Any) -> Room:
    """Open a room owned by players[0] with the four players in seats 0 to 3."""
    room = room_services.room_create(owner=players[0], **settings)
    for seat, player in enumerate(players[1:], start=1):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    return room


def bot_room(owner: User, **settings: Any) -> Room:
    """Open a room with its owner in seat 0 and computers in seats 1 to 3."""
    room = room_services.room_create(owner=owner, **settings)
    for seat in (1, 2, 3):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
    return room
