"""The strong computers' turns go to a queue of their own; every other turn to the default."""

from contextlib import nullcontext
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from games.models import Round
from games.services import rooms as room_services
from games.services.table import round_schedule_turn, turns_sweep_overdue
from tests.factories import bot_room, seated_room


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the callbacks a block leaves for its commit, at the block's end (a test runs inside
    one transaction that never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def computers_only_round(owner, level: str, committed=nullcontext) -> Round:
    """Start a room where a computer plays every seat (the owner is away), so it acts first."""
    room = bot_room(owner, bot_level=level)
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)
    round_ = Round.objects.get(match__room=room)
    with committed():
        round_schedule_turn(round_id=round_.pk)
    return round_


def queues_of(queued) -> list[str | None]:
    return [c["options"].get("queue") for c in queued.calls if c["name"] == "bot_play_turn"]


@pytest.mark.django_db
def test_a_strong_computer_turn_is_queued_on_the_strong_queue(owner, queued, committed):
    computers_only_round(owner, "strong", committed)

    assert queues_of(queued)
    assert set(queues_of(queued)) == {settings.STRONG_BOT_QUEUE}


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_other_computer_turns_are_queued_on_the_default_queue(owner, queued, level, committed):
    computers_only_round(owner, level, committed)

    assert queues_of(queued)
    assert set(queues_of(queued)) == {None}


@pytest.mark.django_db
def test_a_clock_in_a_strong_room_is_queued_on_the_strong_queue(players, queued, committed):
    """When time runs out the strong computer plays for the player: its search is as costly."""
    room = seated_room(players, turn_seconds=30, bot_level="strong")
    with committed():
        room_services.room_start(room_id=room.pk, user=players[0])

    assert [c["kwargs"]["timeout"] for c in queued.calls] == [True]
    assert queues_of(queued) == [settings.STRONG_BOT_QUEUE]


@pytest.mark.django_db
def test_the_sweeper_requeues_a_strong_turn_on_the_strong_queue(owner, queued):
    computers_only_round(owner, "strong")
    queued.calls.clear()

    with time_machine.travel(timezone.now() + timedelta(seconds=10)):
        assert turns_sweep_overdue() == 1

    assert queues_of(queued) == [settings.STRONG_BOT_QUEUE]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("level", "queue"), [("strong", "strong"), ("medium", "celery"), ("easy", "celery")]
)
def test_the_broker_holds_each_turn_on_its_level_queue(owner, level, queue):
    """Through Redis, with no worker: the message waits on the queue its level names."""
    import redis

    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("celery", "strong")

    computers_only_round(owner, level)

    other = "celery" if queue == "strong" else "strong"
    assert broker.llen(queue) >= 1
    assert broker.llen(other) == 0
    broker.delete("celery", "strong")
