"""Shared fixtures, and the rule that a missing service skips locally but fails under CI=true."""

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings

from games.live.processes import (
    CeleryWorkerProcess,
    DaphneProcess,
    ProcessStartError,
    child_env,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

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


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium_browser() -> Iterator["Browser"]:
    """Launch Chromium; on the way out close it and the database connections opened meanwhile.

    Playwright's sync API runs an event loop in this thread, and while it runs Django keeps the
    thread's connections apart from its usual ones: only in here can they be closed, and one
    left open stops PostgreSQL from dropping the test database.
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            connections.close_all()
            browser.close()


def missing_browser() -> str | None:
    """Say why browser tests cannot run here, or None."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if chromium_path() is None:
        return "no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)"
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Hash test passwords cheaply, and keep the embedded Celery worker out of the test process.

    A real hasher spends a tenth of a second on purpose. Without Redis, importing the ASGI
    application starts the embedded worker and its beat, whose sweeper would then query the
    test database from its own thread, outside the tests. The embedded default has its own
    tests, in processes of their own; the others run tasks eagerly or on a real worker. Both
    are set for the whole run, so that the live servers the browser tests fork inherit them.
    """
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CELERY_EMBEDDED_WORKER = False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Close the PostgreSQL connection pools before the test database is dropped.

    The pool keeps idle connections open for the next test; left open at the end, they make
    the test database's teardown fail ("being accessed by other users") and leave it behind.
    """
    yield
    with django_db_blocker.unblock():
        close_connections_and_pools()


def close_connections_and_pools() -> None:
    """Close this thread's database connections and the PostgreSQL pools' idle ones."""
    from django.db import connections

    for connection in connections.all():
        connection.close()
        if connection.vendor == "postgresql":
            connection.close_pool()  # type: ignore[attr-defined]


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


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run Celery tasks in the calling thread (emails land in mail.outbox), then restore."""
    from config.celery import app

    conf = app.conf
    previous = (conf.task_always_eager, conf.task_eager_propagates)
    conf.task_always_eager = conf.task_eager_propagates = True
    yield
    conf.task_always_eager, conf.task_eager_propagates = previous


@pytest.fixture
def celery_worker_env() -> dict[str, str]:
    """Give extra environment to the `celery worker` process; override it to change settings."""
    return {}


def require_services() -> None:
    """Skip (fail under CI=true) a test whose fixture needs PostgreSQL and Redis."""
    if reason := missing_services():
        if IN_CI:
            pytest.fail(f"required by CI but missing: {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture
def celery_worker_process(
    transactional_db: None, celery_worker_env: dict[str, str]
) -> Iterator[CeleryWorkerProcess]:
    """Run a real `celery worker` process on Redis against this test's PostgreSQL database.

    The test database is the one pytest-django created, so the test must commit its data
    (`transactional_db`) for the worker to see it.
    """
    require_services()
    with start_celery_worker(database_url(), celery_worker_env) as worker:
        yield worker


@pytest.fixture
def daphne_servers(transactional_db: None) -> Iterator[Callable[..., DaphneProcess]]:
    """Start real daphne servers on Redis against this test's database; stop them after it.

    Call the fixture's value to start one (keyword arguments go to its environment). The
    servers stop before the database is flushed, since closing sockets still write to it.
    """
    require_services()
    started: list[DaphneProcess] = []

    def start(**extra_env: str) -> DaphneProcess:
        server = DaphneProcess(env=site_env(extra_env))
        started.append(server)
        try:
            return server.start()
        except ProcessStartError as error:
            pytest.fail(str(error), pytrace=False)

    yield start
    for server in reversed(started):
        server.stop()


def database_url() -> str:
    """Return the address of the database the tests are using, for another process."""
    database = settings.DATABASES["default"]
    return (
        f"postgres://{database['USER']}:{database['PASSWORD']}"
        f"@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}/{database['NAME']}"
    )


def site_env(extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """Return the environment of a site process on this test's database and Redis."""
    return child_env(database_url=database_url(), redis_url=settings.REDIS_URL, extra=extra_env)


@contextmanager
def start_celery_worker(
    database: str, extra_env: dict[str, str] | None = None
) -> Iterator[CeleryWorkerProcess]:
    """Run a `celery worker` process on Redis against ``database`` until the block ends."""
    worker = CeleryWorkerProcess(
        env=child_env(database_url=database, redis_url=settings.REDIS_URL, extra=extra_env),
        hostname=f"test-{uuid.uuid4().hex[:8]}@pilotta",
        # Tasks left queued by an earlier test point at rows that are gone.
        purge=True,
    )
    try:
        worker.start()
    except ProcessStartError as error:
        pytest.fail(f"the Celery worker did not start: {error}", pytrace=False)
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture(autouse=True)
def _forget_tables() -> None:
    """Start every test with no live socket and no table snapshot on record.

    Redis outlives a test, and the test database numbers its rows anew on every run.
    """
    forget_tables()


def forget_tables() -> None:
    """Delete every socket lease, table snapshot and cached round from the cache."""
    from django.core.cache import cache

    from games.snapshots import recent

    recent.clear()
    if not settings.REDIS_URL:
        cache.clear()
        return
    client = cache._cache.get_client(None, write=True)  # type: ignore[attr-defined]
    for pattern in ("*:live:*", "*:table:*"):
        for key in client.scan_iter(match=pattern):
            client.delete(key)
