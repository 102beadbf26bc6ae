"""Django's Redis cache, with one Redis client per connection pool instead of one per call.

Django's client builds a new ``redis.Redis`` for every get and set, and each one fills a table
of some 170 response callbacks before it sends a byte: on the table's hot path (a few cache
reads and writes per move) that was a measurable share of each move's CPU. A client over a
connection pool is safe to share between threads, and the pool itself starts afresh in a forked
process, so one client per pool serves the whole process.
"""

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own client, untyped in the stubs: its pools and the redis.Redis class.
        django_client: Any = self
        pool = django_client._get_connection_pool(write)
        # The pools live as long as this client, so a pool's id names it for good.
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = django_client._client(connection_pool=pool)
        return client


class SharedClientRedisCache(RedisCache):
    """The Redis cache backend, reusing its clients (see the module's docstring)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
