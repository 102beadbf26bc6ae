"""A real daphne process on this test run's database and Redis."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from games.live.processes import DaphneProcess, ProcessStartError
from tests.conftest import site_env


@contextmanager
def daphne_server(log: Path) -> Iterator[int]:
    """Run daphne on a free port until the block ends; yield the port. Its output goes to log.

    The test must commit its data (``transactional_db``) for the server to see it.
    """
    server = DaphneProcess(env=site_env(), output=log)
    try:
        server.start()
    except ProcessStartError as error:
        pytest.fail(f"daphne did not start: {error}", pytrace=False)
    try:
        yield server.port
    finally:
        server.stop()
