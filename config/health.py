"""A health endpoint for load balancers: the database, the channel layer and the broker."""

import asyncio
import uuid
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

CHECK_TIMEOUT_SECONDS = 2.0


def check_database() -> None:
    """Run a trivial query."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_channel_layer() -> None:
    """Send a message to a fresh channel and read it back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")

    async def round_trip() -> None:
        channel = await layer.new_channel("healthz.")
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await asyncio.wait_for(layer.receive(channel), CHECK_TIMEOUT_SECONDS)
        if message.get("token") != token:
            raise RuntimeError("channel layer returned another message")

    async_to_sync(round_trip)()


def check_broker() -> None:
    """Open a connection to the Celery broker."""
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_SECONDS)


def _checks() -> dict[str, Callable[[], None]]:
    checks = {"database": check_database, "channel_layer": check_channel_layer}
    if not settings.CELERY_EMBEDDED_WORKER:
        checks["broker"] = check_broker
    return checks


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 when every dependency works, else 503 naming what failed."""
    results: dict[str, str] = {}
    for name, check in _checks().items():
        try:
            check()
        except Exception as exc:
            results[name] = f"error: {type(exc).__name__}"
        else:
            results[name] = "ok"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": results},
        status=200 if healthy else 503,
    )
