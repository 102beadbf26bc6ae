"""A forked worker process keeps its place in the pool while it prepares the computer players."""

import os
import signal
import time
from pathlib import Path

import pytest

from games.live.processes import CeleryWorkerProcess, ProcessStartError
from tests.conftest import site_env

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

COMPILED_SECONDS = 150


def wait_for_child(worker: CeleryWorkerProcess, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if children := worker.pool_pids():
            return children[0]
        time.sleep(0.05)
    pytest.fail("the worker forked no pool process")


def compiled(cache: Path) -> bool:
    return any(cache.rglob("solver_jit._search-*.nbi"))


def timed_out(log: Path) -> bool:
    """Say whether the pool killed a process for reporting too late."""
    return "Timed out waiting for UP message" in log.read_text(errors="replace")


def test_a_pool_process_replaced_during_a_cold_warm_up_is_let_finish(tmp_path: Path) -> None:
    # An empty compile cache makes every pool process compile the search, as on a fresh
    # install; the first process is killed in the middle of it.
    cache = tmp_path / "numba"
    log = tmp_path / "worker.log"
    worker = CeleryWorkerProcess(
        env=site_env({"NUMBA_CACHE_DIR": str(cache)}),
        pool="prefork",
        concurrency=1,
        loglevel="INFO",
        purge=True,
        output=log,
    )
    try:
        worker.start()
    except ProcessStartError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        os.kill(wait_for_child(worker), signal.SIGKILL)
        deadline = time.monotonic() + COMPILED_SECONDS
        while time.monotonic() < deadline and not compiled(cache) and not timed_out(log):
            time.sleep(0.5)
        replacement_alive = bool(worker.pool_pids())
    finally:
        worker.stop()
    assert not timed_out(log)
    assert compiled(cache), "the replacement never compiled the search"
    assert replacement_alive
