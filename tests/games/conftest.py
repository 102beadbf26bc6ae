"""Fixtures of the live table: players, rooms, and a record of the tasks that would be queued."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import translation

from accounts.models import User
from tests.factories import make_user


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
def english() -> Iterator[None]:
    """Speak English: URLs get the /en/ prefix, so pages and messages are in English."""
    with translation.override("en"):
        yield


@pytest.fixture
def owner(db: None) -> User:
    return make_user("Owner")


@pytest.fixture
def players(db: None) -> list[User]:
    return [make_user(f"Seat{n}") for n in range(4)]
