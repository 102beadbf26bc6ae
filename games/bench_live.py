"""``python -m games.bench_live [--tables 10,50,200] [--seconds 30] [--seed N] [--json FILE]``.

It needs PostgreSQL and Redis, from ``DATABASE_URL`` and ``REDIS_URL``, and runs one daphne server
and one Celery worker on them; see ``games.live.bench`` for what it measures and how.
"""

import os
import signal
import sys
from types import FrameType

REFUSAL = (
    "The live benchmark runs the site on PostgreSQL and Redis, as in production. Set both, e.g.\n"
    "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/pilotta_bench "
    "REDIS_URL=redis://127.0.0.1:6379/7 python -m games.bench_live\n"
    "It creates its own users and rooms in that database and removes them at the end."
)


def missing_services() -> str | None:
    """Say what is missing or not answering, or None when both services answer."""
    database = os.environ.get("DATABASE_URL", "").strip()
    redis_url = os.environ.get("REDIS_URL", "").strip()
    if not database.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not point at PostgreSQL."
    if not redis_url.startswith(("redis://", "rediss://")):
        return "REDIS_URL does not point at Redis."
    import psycopg
    import redis

    try:
        psycopg.connect(
            database.replace("postgres://", "postgresql://", 1), connect_timeout=5
        ).close()
    except psycopg.Error as error:
        return f"PostgreSQL does not answer at DATABASE_URL: {error}"
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
    except redis.RedisError as error:
        return f"Redis does not answer at REDIS_URL: {error}"
    return None


def stop_on_terminate(signum: int, frame: FrameType | None) -> None:
    # Unwind normally, so that every process the benchmark started is stopped.
    raise SystemExit(128 + signum)


def main() -> int:
    if problem := missing_services():
        print(f"{problem}\n{REFUSAL}", file=sys.stderr)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The matches this process starts schedule the computers' first turns: no pause here either.
    os.environ["BOT_PACING_SECONDS"] = os.environ["ROUND_PAUSE_SECONDS"] = "0"
    import django

    django.setup()
    from django.core.management import call_command

    from games.live.bench import main as bench

    signal.signal(signal.SIGTERM, stop_on_terminate)
    call_command("migrate", interactive=False, verbosity=0)
    return bench(
        sys.argv[1:],
        database_url=os.environ["DATABASE_URL"].strip(),
        redis_url=os.environ["REDIS_URL"].strip(),
    )


if __name__ == "__main__":
    sys.exit(main())
