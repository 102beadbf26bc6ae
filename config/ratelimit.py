"""Counting events per hour in the cache, for the limits that are not allauth's own.

The waitlist's sign-ups and emails and the guests' tables count here, each under its own key.
"""

from django.core.cache import cache

HOUR = 60 * 60


def count_and_allow(key: str, limit: int) -> bool:
    """Count one more event in the hour that started with the first; say if within ``limit``."""
    cache.add(key, 0, timeout=HOUR)
    try:
        count = cache.incr(key)
    except ValueError:
        # The key expired between add and incr: this event opens a new hour.
        cache.set(key, 1, timeout=HOUR)
        count = 1
    return count <= limit
