"""Shared fixtures, and the rule that a missing service skips locally but fails under CI=true."""

import os
import shutil
from functools import cache

import pytest
from django.conf import settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


@cache
def missing_services() -> str | None:
    """Say which of PostgreSQL and Redis this run lacks, or None when both answer."""
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        return "DATABASE_URL does not point at PostgreSQL"
    if not settings.REDIS_URL:
        return "REDIS_URL is not set"
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis does not answer at REDIS_URL: {exc}"
    return None


@cache
def chromium_path() -> str | None:
    """Find Debian's Chromium (Playwright's own browser download is not used)."""
    configured = os.environ.get("CHROMIUM_PATH")
    for candidate in (configured, *CHROMIUM_CANDIDATES, shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def missing_browser() -> str | None:
    """Say why browser tests cannot run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if chromium_path() is None:
        return "no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    reasons = []
    if item.get_closest_marker("services") and (reason := missing_services()):
        reasons.append(reason)
    if item.get_closest_marker("e2e") and (reason := missing_browser()):
        reasons.append(reason)
    if not reasons:
        return
    message = "; ".join(reasons)
    if IN_CI:
        pytest.fail(f"required by CI but missing: {message}", pytrace=False)
    pytest.skip(message)
