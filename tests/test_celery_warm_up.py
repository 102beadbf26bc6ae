"""Celery workers that take strong searches prepare the computer players when they start, not on
a player's move; the embedded worker takes tasks while it prepares them."""

import threading
import time
from types import SimpleNamespace

import pytest
from celery.signals import worker_init, worker_process_init

from config import celery as celery_config
from config.celery import EMBEDDED_HOSTNAME, run_embedded_worker
from games import bots


@pytest.fixture
def warm_ups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the calls of the table's warm-up instead of compiling the computer players."""
    calls: list[str] = []
    monkeypatch.setattr(bots, "warm_up", lambda: calls.append("warm_up"))
    return calls


class FakeWorker:
    """What the warm-up reads of a worker (signal senders must be hashable)."""

    def __init__(self, pool: str, hostname: str) -> None:
        self.pool_cls = pool
        self.hostname = hostname


def a_worker(pool: str, hostname: str = "worker@test") -> FakeWorker:
    return FakeWorker(pool, hostname)


def test_each_forked_pool_process_warms_up(warm_ups: list[str]) -> None:
    worker_process_init.send(sender="worker@test")

    assert warm_ups == ["warm_up"]


@pytest.mark.parametrize("pool", ["solo", "threads"])
def test_a_worker_that_runs_tasks_itself_warms_up_before_consuming(
    warm_ups: list[str], pool: str
) -> None:
    worker_init.send(sender=a_worker(pool))

    assert warm_ups == ["warm_up"]


@pytest.fixture
def cheap_queue_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this process a worker started with ``-Q celery``, as production's cheap workers."""
    queues = celery_config.app.amqp.queues
    monkeypatch.setattr(queues, "_consume_from", {"celery": queues["celery"]})


@pytest.mark.usefixtures("cheap_queue_only")
def test_a_pool_process_of_the_cheap_queue_does_not_warm_up(warm_ups: list[str]) -> None:
    worker_process_init.send(sender="worker@test")

    assert warm_ups == []


@pytest.mark.usefixtures("cheap_queue_only")
def test_a_solo_worker_of_the_cheap_queue_does_not_warm_up(warm_ups: list[str]) -> None:
    worker_init.send(sender=a_worker("solo"))

    assert warm_ups == []


def test_a_prefork_worker_leaves_the_warm_up_to_its_children(warm_ups: list[str]) -> None:
    worker_init.send(sender=a_worker("prefork"))

    assert warm_ups == []


def test_the_embedded_worker_does_not_warm_up_in_the_web_process_thread(
    warm_ups: list[str],
) -> None:
    worker_init.send(sender=a_worker("solo", hostname=EMBEDDED_HOSTNAME))

    assert warm_ups == []


def test_the_embedded_worker_consumes_while_the_players_warm_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[str] = []
    compiled = threading.Event()

    def slow_warm_up() -> None:
        compiled.wait(timeout=10)
        events.append("warmed up")

    monkeypatch.setattr(bots, "warm_up", slow_warm_up)
    worker = SimpleNamespace(start=lambda: events.append("consuming"))

    run_embedded_worker(worker)
    compiled.set()
    deadline = time.monotonic() + 10
    while len(events) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)

    assert events == ["consuming", "warmed up"]


def test_the_pool_check_takes_aliases_and_classes() -> None:
    from celery.concurrency.prefork import TaskPool as PreforkPool
    from celery.concurrency.solo import TaskPool as SoloPool

    assert celery_config.runs_tasks_in_process(SoloPool)
    assert not celery_config.runs_tasks_in_process(PreforkPool)


def test_warm_up_prepares_the_players_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from games import ai

    calls: list[str] = []
    monkeypatch.setattr(ai, "warm_up", lambda: calls.append("ai"))
    monkeypatch.setattr(bots, "_warmed", False)

    bots.warm_up()
    bots.warm_up()

    assert calls == ["ai"]
