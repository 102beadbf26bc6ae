"""``python -m games.soak --minutes N [--tables T] [--seed S]``: soak the live table.

It needs PostgreSQL and Redis, from ``DATABASE_URL`` and ``REDIS_URL``, and runs the site's
real processes on them; see ``games.live.soak`` for what it measures.
"""

import os
import signal
import sys
from types import FrameType

REFUSAL = (
    "The soak runs the site on PostgreSQL and Redis, as in production. Set both, e.g.\n"
    "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/pilotta_soak "
    "REDIS_URL=redis://127.0.0.1:6379/5 python -m games.soak --minutes 2\n"
    "It creates its own users and rooms in that database and removes them at the end."
)


def missing_services() -> str | None:
    """Say what is missing from the environment, or None."""
    database = os.environ.get("DATABASE_URL", "").strip()
    redis = os.environ.get("REDIS_URL", "").strip()
    if not database.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not point at PostgreSQL."
    if not redis.startswith(("redis://", "rediss://")):
        return "REDIS_URL does not point at Redis."
    return None


def stop_on_terminate(signum: int, frame: FrameType | None) -> None:
    # Unwind normally, so that every process the soak started is stopped.
    raise SystemExit(128 + signum)


def main() -> int:
    if problem := missing_services():
        print(f"{problem}\n{REFUSAL}", file=sys.stderr)
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games.live.soak import main as soak

    signal.signal(signal.SIGTERM, stop_on_terminate)
    call_command("migrate", interactive=False, verbosity=0)
    return soak(
        sys.argv[1:],
        database_url=os.environ["DATABASE_URL"].strip(),
        redis_url=os.environ["REDIS_URL"].strip(),
    )


if __name__ == "__main__":
    sys.exit(main())
