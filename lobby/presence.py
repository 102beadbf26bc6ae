"""Who is online: open lobby sockets, counted in the shared cache so every process sees them."""

from django.core.cache import cache
from django.utils import timezone

# A process that dies without closing its sockets leaves a count behind; it expires after this.
PRESENCE_TTL_SECONDS = 6 * 60 * 60


def _count_key(user_id: int) -> str:
    return f"presence:lobby:{user_id}"


def _seen_key(user_id: int) -> str:
    return f"presence:lobby-seen:{user_id}"


def lobby_connected(*, user_id: int) -> None:
    """Count an open lobby socket of the user and note the time."""
    key = _count_key(user_id)
    cache.add(key, 0, PRESENCE_TTL_SECONDS)
    try:
        cache.incr(key)
    except ValueError:
        # The count expired between add and incr: start it again.
        cache.set(key, 1, PRESENCE_TTL_SECONDS)
    cache.touch(key, PRESENCE_TTL_SECONDS)
    cache.set(_seen_key(user_id), timezone.now(), PRESENCE_TTL_SECONDS)


def lobby_disconnected(*, user_id: int) -> None:
    """Count a closed lobby socket of the user; the last one makes them offline."""
    key = _count_key(user_id)
    cache.set(_seen_key(user_id), timezone.now(), PRESENCE_TTL_SECONDS)
    try:
        remaining = cache.decr(key)
    except ValueError:
        return
    if remaining <= 0:
        cache.delete(key)


def online_in_lobby(user_ids: list[int]) -> set[int]:
    """Return which of these users have a lobby socket open."""
    counts = cache.get_many([_count_key(user_id) for user_id in user_ids])
    return {user_id for user_id in user_ids if counts.get(_count_key(user_id), 0) > 0}
