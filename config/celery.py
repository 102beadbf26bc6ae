"""The Celery application, shared by separate workers and the embedded default."""

import os
import threading
from typing import Any

from celery import Celery
from celery.signals import worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pilotta")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

EMBEDDED_HOSTNAME = "embedded@pilotta"
# One thread can be deep in a strong computer's search while the other plays everything else.
EMBEDDED_THREADS = 2

_embedded_lock = threading.Lock()
_embedded_worker: object | None = None


def _warm_up_bots() -> None:
    from games.bots import warm_up

    warm_up()


def serves_strong_searches() -> bool:
    """Say whether this worker takes the strong computers' tasks, the only ones that search.

    Elsewhere the warm-up would cost a compile (about 15 s on a cold cache) and a 64 MB table
    in every pool process for nothing.
    """
    from django.conf import settings

    return settings.STRONG_BOT_QUEUE in app.amqp.queues.consume_from


@worker_process_init.connect
def warm_up_pool_process(**kwargs: Any) -> None:
    """Prepare the computer players in each forked pool process before it takes a task."""
    if serves_strong_searches():
        _warm_up_bots()


@worker_init.connect
def warm_up_worker(sender: Any = None, **kwargs: Any) -> None:
    """Prepare the computer players in a worker whose pool runs tasks in its own process."""
    # The embedded worker warms up in its own thread, so that the web process starts at once.
    if sender is None or sender.hostname == EMBEDDED_HOSTNAME:
        return
    if runs_tasks_in_process(sender.pool_cls) and serves_strong_searches():
        _warm_up_bots()


def runs_tasks_in_process(pool_cls: Any) -> bool:
    """Say whether a pool (an alias or a class) runs tasks in the worker's process, not forks."""
    from celery.concurrency import get_implementation
    from celery.concurrency.prefork import TaskPool as PreforkPool

    return not issubclass(get_implementation(pool_cls), PreforkPool)


def run_embedded_worker(worker: Any) -> None:
    """Consume tasks while the computer players warm up beside: the embedded worker thread's body.

    On a cold compile cache the warm-up takes about 15 s, which the easy and medium computers
    and the turn clock do not need; a strong search that comes meanwhile waits for the compile
    in progress (the compiler's lock), not for a second one.
    """
    threading.Thread(target=_warm_up_bots, name="bots-warm-up", daemon=True).start()
    worker.start()


def start_embedded_worker() -> None:
    """Run a real Celery worker and beat in threads of this process, once, on the in-memory broker.

    Without Redis the broker lives in process memory, so the only process that can consume it is the
    one that publishes. A full worker (not eager mode) keeps countdowns, retries and acks working
    exactly as with separate workers. It serves the default queue and the strong computers' one
    with two threads, so that a cheap move runs beside a strong computer's search, not after it.
    """
    global _embedded_worker
    from django.conf import settings

    if not settings.CELERY_EMBEDDED_WORKER:
        return
    with _embedded_lock:
        if _embedded_worker is not None:
            return
        from celery.worker import WorkController

        worker = WorkController(
            app=app,
            pool_cls="threads",
            concurrency=EMBEDDED_THREADS,
            queues=[settings.CELERY_TASK_DEFAULT_QUEUE, settings.STRONG_BOT_QUEUE],
            hostname=EMBEDDED_HOSTNAME,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
        )
        thread = threading.Thread(
            target=run_embedded_worker, args=(worker,), name="celery-embedded", daemon=True
        )
        thread.start()
        _embedded_worker = worker
        # Beat in a thread too: a beat process would publish to a memory broker of its own.
        from celery.beat import EmbeddedService

        EmbeddedService(app, thread=True, scheduler_cls=app.conf.beat_scheduler).start()
