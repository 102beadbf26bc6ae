"""The embedded default runs a real Celery worker in the web process, countdowns included."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = textwrap.dedent(
    """
    import time, django
    django.setup()
    from django.conf import settings
    from config.celery import app, start_embedded_worker

    assert settings.CELERY_EMBEDDED_WORKER, settings.CELERY_BROKER_URL
    done = []

    @app.task(name="probe.record")
    def record(value):
        done.append((value, time.monotonic()))

    start_embedded_worker()
    # The worker prepares the computer players before it takes tasks; a countdown is measured
    # from a worker that is up (with two threads, a task already due runs beside a fresh one).
    record.delay("ready")
    while not done:
        time.sleep(0.02)
    done.clear()
    sent = time.monotonic()
    record.apply_async(args=["late"], countdown=0.6)
    record.delay("now")
    deadline = sent + 10
    while len(done) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    order = [value for value, _ in done]
    late = dict(done)["late"] - sent
    print(order, round(late, 2))
    assert order == ["now", "late"], order
    assert 0.55 <= late < 3, late
    """
)


def test_embedded_worker_runs_tasks_and_honours_countdowns(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    env["SQLITE_PATH"] = str(tmp_path / "embedded.sqlite3")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"

    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("['now', 'late']")


BEAT_PROBE = textwrap.dedent(
    """
    import time, django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from config.celery import app, start_embedded_worker
    from games import tasks

    swept = []
    sweep = tasks.table_sweep.run
    tasks.table_sweep.run = lambda: swept.append(time.monotonic()) or sweep()

    start_embedded_worker()
    started = time.monotonic()
    while len(swept) < 2 and time.monotonic() < started + 20:
        time.sleep(0.05)
    print(len(swept))
    assert len(swept) >= 2, swept
    """
)


def test_embedded_beat_runs_the_table_sweeper(tmp_path):
    """Lost turns are found in the embedded default too: its beat thread runs the sweeper."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    env["SQLITE_PATH"] = str(tmp_path / "embedded.sqlite3")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env["TABLE_SWEEP_SECONDS"] = "1"

    result = subprocess.run(
        [sys.executable, "-c", BEAT_PROBE],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=90,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert not list(tmp_path.glob("celerybeat-schedule*"))


QUEUES_PROBE = textwrap.dedent(
    """
    import time, django
    django.setup()
    from django.conf import settings
    from config.celery import app, start_embedded_worker

    done = {}

    @app.task(name="probe.search")
    def search():
        time.sleep(2)
        done["search"] = time.monotonic()

    @app.task(name="probe.cheap")
    def cheap():
        done["cheap"] = time.monotonic()

    start_embedded_worker()
    cheap.delay()  # once it has run, the worker is up
    while not done:
        time.sleep(0.02)
    done.clear()
    sent = time.monotonic()
    search.apply_async(queue=settings.STRONG_BOT_QUEUE)
    time.sleep(0.3)
    cheap.delay()
    while len(done) < 2 and time.monotonic() < sent + 15:
        time.sleep(0.02)
    print(sorted(done, key=done.get), round(done["cheap"] - sent, 2))
    assert done["cheap"] < done["search"], done
    assert done["cheap"] - sent < 1.5, done["cheap"] - sent
    """
)


def test_embedded_worker_serves_both_queues_side_by_side(tmp_path):
    """A cheap move is played while a strong computer's search still runs."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    env["SQLITE_PATH"] = str(tmp_path / "embedded.sqlite3")
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"

    result = subprocess.run(
        [sys.executable, "-c", QUEUES_PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("['cheap', 'search']")
