"""The Celery application, shared by separate workers and the embedded default."""

import os
import threading

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pilotta")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

_embedded_lock = threading.Lock()
_embedded_worker: object | None = None


def start_embedded_worker() -> None:
    """Run a real Celery worker in a thread of this process, once, on the in-memory broker.

    Without Redis the broker lives in process memory, so the only process that can consume it is the
    one that publishes. A full worker (not eager mode) keeps countdowns, retries and acks working
    exactly as with separate workers.
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
            pool_cls="solo",
            concurrency=1,
            hostname="embedded@pilotta",
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="WARNING",
        )
        thread = threading.Thread(target=worker.start, name="celery-embedded", daemon=True)
        thread.start()
        _embedded_worker = worker
