"""Time the phases of the site's own processes, for the live benchmark's ``--probe``.

``python -m games.live.probe daphne ARGS...`` or ``... celery ARGS...`` runs the server exactly as
``python -m daphne`` or ``python -m celery`` would, with timers wrapped around the steps of a
table update in this process only: the action service, the snapshot, the signal to the
table's group, each region's rendering, the SQL, the cache and the Channels layer. The site's
code is not changed. Each process (a Celery pool process too) appends its samples (phase, end on
the system's monotonic clock, duration) to a file of its own in ``BENCH_PROBE_DIR`` every second;
the benchmark sums them over a window.
"""

import functools
import inspect
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.live.bench import BenchReport

FLUSH_SECONDS = 1.0

_role = "site"
_samples: list[tuple[str, float, float, float]] = []
_started_in = 0
_start_lock = threading.Lock()


def record(name: str, start: float, end: float, cpu: float = -1.0) -> None:
    """Keep one sample: its wall time, and the thread's CPU time in it (-1: not known)."""
    if _started_in != os.getpid():
        _start_flusher()
    _samples.append((f"{_role}:{name}", end, end - start, cpu))


def _start_flusher() -> None:
    """Start this process's writer once; a forked pool process starts its own."""
    global _started_in
    with _start_lock:
        if _started_in == os.getpid():
            return
        # Samples copied from the parent at the fork are the parent's to write.
        del _samples[:]
        _started_in = os.getpid()
        threading.Thread(target=_flush_forever, name="bench-probe", daemon=True).start()


def _flush_forever() -> None:
    path = Path(os.environ["BENCH_PROBE_DIR"]) / f"{_role}-{os.getpid()}.tsv"
    while True:
        time.sleep(FLUSH_SECONDS)
        batch = _samples[:]
        del _samples[: len(batch)]
        if batch:
            with path.open("a") as out:
                out.writelines(
                    f"{name}\t{end:.6f}\t{took:.6f}\t{cpu:.6f}\n" for name, end, took, cpu in batch
                )


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a function (or a coroutine function) so that each call's duration is recorded."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def timed_coroutine(*args: Any, **kwargs: Any) -> Any:
            start = time.monotonic()
            try:
                return await function(*args, **kwargs)
            finally:
                record(name, start, time.monotonic())

        return timed_coroutine

    @functools.wraps(function)
    def timed_function(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.monotonic(), time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            record(name, start, time.monotonic(), time.thread_time() - cpu)

    return timed_function


_TABLE = re.compile(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


def sql_name(sql: str) -> str:
    """Name a statement by its verb and its first table: ``sql SELECT games_round``."""
    verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    table = _TABLE.search(sql)
    return f"sql {verb} {table.group(1) if table else ''}".rstrip()


def timed_sql(function: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a cursor's execute: every statement counts as sql.query, and under its own name."""

    @functools.wraps(function)
    def timed_statement(cursor: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        start, cpu = time.monotonic(), time.thread_time()
        try:
            return function(cursor, sql, *args, **kwargs)
        finally:
            end, used = time.monotonic(), time.thread_time() - cpu
            record("sql.query", start, end, used)
            record(sql_name(str(sql)), start, end, used)

    return timed_statement


def wrap(owner: Any, attribute: str, name: str) -> None:
    setattr(owner, attribute, timed(name, getattr(owner, attribute)))


def install(role: str) -> None:
    """Wrap the steps of a table update; the names say what each sample covers."""
    global _role
    _role = role
    from channels_redis.core import RedisChannelLayer
    from django.core.cache.backends.redis import RedisCache
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper

    import games.consumers
    import games.rendering
    import games.services.table
    import games.snapshots
    import games.tasks

    CursorWrapper.execute = timed_sql(CursorWrapper.execute)  # type: ignore[method-assign]
    CursorWrapper.executemany = timed_sql(CursorWrapper.executemany)  # type: ignore[method-assign]
    wrap(BaseDatabaseWrapper, "_commit", "sql.commit")
    wrap(RedisCache, "get", "cache.get")
    wrap(RedisCache, "set", "cache.set")
    wrap(RedisChannelLayer, "group_send", "layer.group_send")
    table = games.services.table
    # The whole action service, commit and after-commit work (the publish) included.
    wrap(games.consumers, "seat_apply_action", "apply.total")
    wrap(games.tasks, "round_apply_computer_moves", "apply.total")
    wrap(games.tasks, "round_play_computers", "apply.total")
    wrap(table, "round_state_cached", "apply.state_cached")
    wrap(table, "_publish", "publish.total")
    wrap(table, "derived_snapshot", "publish.snapshot_derived")
    wrap(table, "table_snapshot", "publish.snapshot_built")
    wrap(table, "send_table_changed", "publish.group_send_from_sync")
    wrap(games.snapshots, "_build_snapshot", "snapshot.from_db")
    consumer = games.consumers.TableConsumer
    # Wall time from the event to the send, waits for the database thread included.
    wrap(consumer, "table_changed", "consumer.table_changed")
    wrap(consumer, "receive_json", "consumer.receive_json")
    wrap(games.consumers, "table_snapshot", "draw.snapshot_read")
    wrap(games.consumers, "snapshot_at_hand", "draw.snapshot_at_hand")
    wrap(games.rendering.TableScreen, "changes", "draw.changes")
    wrap(games.rendering.TableScreen, "full", "draw.full")
    wrap(games.rendering, "render_to_string", "draw.template")
    wrap(games.tasks, "choose_action", "worker.choose_action")
    wrap(games.tasks, "round_state_cached", "worker.state_cached")
    _time_tasks()


def _time_tasks() -> None:
    """Time each task from its start in a pool process to its end."""
    from celery.signals import task_postrun, task_prerun

    started: dict[str, tuple[float, float]] = {}

    @task_prerun.connect(weak=False)
    def before(task_id: str = "", **kwargs: Any) -> None:
        started[task_id] = (time.monotonic(), time.thread_time())

    @task_postrun.connect(weak=False)
    def after(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
        begun = started.pop(task_id, None)
        if begun is not None:
            name = f"task.{getattr(task, 'name', '?').rsplit('.', 1)[-1]}"
            record(name, begun[0], time.monotonic(), time.thread_time() - begun[1])


def summarize(
    folder: Path, *, start: float, end: float, actions: int
) -> dict[str, dict[str, float]]:
    """Sum each phase's samples that ended within [start, end), per action logged."""
    from games.live.bench import percentile

    durations: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for path in sorted(folder.glob("*.tsv")):
        for line in path.read_text().splitlines():
            name, ended, took, used = line.split("\t")
            if start <= float(ended) < end:
                durations.setdefault(name, []).append(float(took) * 1000)
                if float(used) >= 0:
                    cpu.setdefault(name, []).append(float(used) * 1000)
    per = max(actions, 1)
    return {
        name: {
            "calls": len(values),
            "calls_per_action": len(values) / per,
            "mean_ms": sum(values) / len(values),
            "p50_ms": percentile(values, 0.5),
            "p95_ms": percentile(values, 0.95),
            "ms_per_action": sum(values) / per,
            "cpu_ms_per_action": sum(cpu[name]) / per if name in cpu else -1.0,
        }
        for name, values in sorted(durations.items())
    }


def probe_lines(report: "BenchReport") -> list[str]:
    """Print each window's phases: calls and milliseconds per action logged."""
    windows = [("(a) four players", report.four.actions, report.four_probe)]
    windows += [(f"(b) {lv.tables} tables", lv.actions_logged, lv.probe) for lv in report.levels]
    lines = []
    for title, actions, phases in windows:
        lines += [
            "",
            f"phases in the servers, {title} ({actions} actions)",
            "  phase                                      calls/action  mean ms  p50 ms  p95 ms"
            "  ms/action  cpu ms/action",
        ]
        for name, figures in phases.items():
            lines.append(
                f"  {name:<44} {figures['calls_per_action']:>10.2f} {figures['mean_ms']:>8.2f}"
                f" {figures['p50_ms']:>7.2f} {figures['p95_ms']:>7.2f} "
                f"{figures['ms_per_action']:>9.2f} "
                + (
                    f"{figures['cpu_ms_per_action']:>13.2f}"
                    if figures["cpu_ms_per_action"] >= 0
                    else f"{'-':>13}"
                )
            )
    return lines


def main() -> None:
    role, args = sys.argv[1], sys.argv[2:]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    install(role)
    if role == "daphne":
        from daphne.cli import CommandLineInterface

        sys.argv = ["daphne", *args]
        CommandLineInterface.entrypoint()
    else:
        from celery.__main__ import main as celery_main

        sys.argv = ["celery", *args]
        celery_main()


if __name__ == "__main__":
    main()
