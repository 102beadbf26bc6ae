"""Which sockets are alive, kept in the shared cache as leases that expire.

A socket holds a lease on each of its scopes (a seat at a table, a user being online) and renews it
while it lives. A process killed without closing its sockets renews nothing, so its leases lapse
within ``PRESENCE_TTL_SECONDS`` and nobody counts a connection that is gone. Counters could not
heal that way: a decrement that never runs leaves a phantom forever.

Each scope's leases are one cache entry (connection name -> expiry time). Two processes renewing
the same scope at the same instant may drop each other's lease; the next renewal restores it,
well within the expiry, so the error only ever lasts one heartbeat.
"""

import asyncio
import logging
import math
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)


def ttl_seconds() -> float:
    """Return how long a lease lasts without renewal."""
    return float(getattr(settings, "PRESENCE_TTL_SECONDS", 20.0))


def heartbeat_seconds() -> float:
    """Return how often a live socket renews its leases: three times per lease."""
    return ttl_seconds() / 3


def table_scope(room_id: int, user_id: int) -> str:
    """Name the scope of one user's sockets on one table."""
    return f"table:{room_id}:{user_id}"


def user_scope(user_id: int) -> str:
    """Name the scope of all of one user's sockets: the lobby and every table."""
    return f"user:{user_id}"


def _key(scope: str) -> str:
    return f"live:{scope}"


def _current(leases: dict[str, float] | None, now: float) -> dict[str, float]:
    return {name: expiry for name, expiry in (leases or {}).items() if expiry > now}


def _whole_seconds(seconds: float) -> int:
    # Cache backends keep whole seconds, and a zero timeout deletes at once.
    return math.ceil(seconds) + 1


def lease_renew(*, scopes: list[str], connection: str) -> None:
    """Take or renew the lease of ``connection`` on each scope."""
    now = time.time()
    ttl = ttl_seconds()
    stored = cache.get_many([_key(scope) for scope in scopes])
    updated = {}
    for scope in scopes:
        leases = _current(stored.get(_key(scope)), now)
        leases[connection] = now + ttl
        updated[_key(scope)] = leases
    # The entry outlives its newest lease by a second at most: an abandoned scope disappears.
    cache.set_many(updated, timeout=_whole_seconds(ttl))


def lease_release(*, scopes: list[str], connection: str) -> set[str]:
    """Give up the lease of ``connection`` on each scope; return the scopes still alive."""
    now = time.time()
    stored = cache.get_many([_key(scope) for scope in scopes])
    alive = set()
    for scope in scopes:
        leases = _current(stored.get(_key(scope)), now)
        leases.pop(connection, None)
        if leases:
            alive.add(scope)
            cache.set(_key(scope), leases, timeout=_whole_seconds(max(leases.values()) - now))
        else:
            cache.delete(_key(scope))
    return alive


def alive_scopes(scopes: list[str]) -> set[str]:
    """Return which of these scopes hold at least one unexpired lease."""
    now = time.time()
    stored = cache.get_many([_key(scope) for scope in scopes])
    return {scope for scope in scopes if _current(stored.get(_key(scope)), now)}


class LeaseHeartbeat:
    """Mixin for a consumer: hold leases on scopes while the socket lives, renewing them.

    The cache calls run outside the consumers' shared database thread, so that heartbeats never
    queue behind a table's writes.
    """

    channel_name: str
    channel_layer: Any
    lease_scopes: list[str]
    lease_groups: list[str]
    _heartbeat: "asyncio.Task[None] | None" = None
    _renewing: asyncio.Lock

    async def leases_take(self, scopes: list[str], *, groups: tuple[str, ...] = ()) -> None:
        """Take the leases now and keep renewing them until ``leases_give_up``.

        The socket also re-joins ``groups`` now and then: a group forgets a member that has
        not joined for a while, which is how the channels of a killed process drop out.
        """
        self.lease_scopes = scopes
        self.lease_groups = list(groups)
        self._renewing = asyncio.Lock()
        await sync_to_async(lease_renew, thread_sensitive=False)(
            scopes=scopes, connection=self.channel_name
        )
        self._heartbeat = asyncio.create_task(self._renew_forever())

    async def leases_give_up(self) -> set[str]:
        """Stop renewing and release the leases; return the scopes other sockets keep alive."""
        if self._heartbeat is None:
            return set()
        # A renewal already running in its thread would finish after the release and take the
        # lease back: wait for it, and cancel the heartbeat only between renewals.
        async with self._renewing:
            self._heartbeat.cancel()
            self._heartbeat = None
        return await sync_to_async(lease_release, thread_sensitive=False)(
            scopes=self.lease_scopes, connection=self.channel_name
        )

    async def _renew_forever(self) -> None:
        rejoined = time.monotonic()
        while True:
            await asyncio.sleep(heartbeat_seconds())
            async with self._renewing:
                try:
                    await sync_to_async(lease_renew, thread_sensitive=False)(
                        scopes=self.lease_scopes, connection=self.channel_name
                    )
                    if time.monotonic() - rejoined >= settings.GROUP_REJOIN_SECONDS:
                        for group in self.lease_groups:
                            await self.channel_layer.group_add(group, self.channel_name)
                        rejoined = time.monotonic()
                except Exception:
                    # A hiccup costs one renewal; the lease outlives two more attempts.
                    logger.exception("could not renew the leases of %s", self.channel_name)
