"""A real daphne process on this test run's database and Redis."""

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import database_url

START_SECONDS = 60
LISTENING = re.compile(r"Listening on TCP address [\d.]+:(\d+)")


@contextmanager
def daphne_server(log: Path) -> Iterator[int]:
    """Run daphne on a free port until the block ends; yield the port. Its output goes to log.

    The test must commit its data (``transactional_db``) for the server to see it.
    """
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL}
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0"]
    with log.open("w") as output:
        process = subprocess.Popen(
            [*command, "config.asgi:application"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not (found := LISTENING.search(log.read_text())):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"daphne did not start:\n{log.read_text()}", pytrace=False)
            time.sleep(0.1)
        yield int(found.group(1))
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
