"""Channel group names of the table, and the "table changed" signal (sent only after commit)."""

import asyncio
import os
import threading
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

# As long as the channel layer's own Redis connections wait for an answer.
SEND_TIMEOUT_SECONDS = 30.0


def table_group(room_id: int) -> str:
    """Name the channel group of every connection watching one room."""
    return f"table-{room_id}"


def send_table_changed(room_id: int, *, version: int, key: str) -> None:
    """Tell every connection of a room that it changed, and where its snapshot waits.

    The message carries a number and a cache key, never a card.
    """
    message = {"type": "table.changed", "version": version, "key": key}
    group_send_from_sync(table_group(room_id), message)


def group_send_from_sync(group: str, message: dict[str, Any]) -> None:
    """Send a message to a group from synchronous code: a view, a service, a Celery task.

    Code called from the web process's event loop sends on that loop. Code with no loop of its
    own (a Celery worker) sends on the process's sender loop, so that the Redis layer keeps
    its connections between messages instead of opening one per message, as a new loop per
    call would.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer) or _called_from_event_loop():
        async_to_sync(layer.group_send)(group, message)
    else:
        sender.run(layer.group_send(group, message))


def _called_from_event_loop() -> bool:
    """Say whether this thread runs for an event loop that is still running (sync_to_async)."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop is not None and loop.is_running()


class SenderLoop:
    """An event loop of this process's own, in a thread, for code that has no loop to send on.

    Started on first use, and again in a forked child (a prefork pool's process), which does
    not inherit the parent's thread.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._running_loop())
        return future.result(SEND_TIMEOUT_SECONDS)

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="channel-layer-sender", daemon=True
                )
                thread.start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop


sender = SenderLoop()
