"""A health endpoint for load balancers: the database, the channel layer and the broker."""

import asyncio
import uuid
from collections.abc import Callable

from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import BaseChannelLayer, channel_layers
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
    """Send a message through the configured channel layer and read it back.

    The check builds its own instance of the layer, with its own connections, and runs it on
    its own event loop in this request's thread. The process's shared layer serves the
    sockets: one of them is always in a blocking read of this process's messages, so a check
    queued behind it waited seconds on a busy process and reported a healthy layer as down.
    """
    if DEFAULT_CHANNEL_LAYER not in channel_layers:
        raise RuntimeError("no channel layer configured")
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    asyncio.run(_round_trip(layer))


async def _round_trip(layer: BaseChannelLayer) -> None:
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
            channel = await layer.new_channel("healthz.")
            token = uuid.uuid4().hex
            await layer.send(channel, {"type": "healthz.ping", "token": token})
            message = await layer.receive(channel)
        if message.get("token") != token:
            raise RuntimeError("channel layer returned another message")
    finally:
        # The check's connections end with it.
        close_pools = getattr(layer, "close_pools", None)
        if close_pools is not None:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                await close_pools()


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
