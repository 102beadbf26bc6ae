"""Start, stop and kill the site's real processes: daphne web servers and Celery workers.

Each process runs in its own process group, so that a kill reaches the helpers it forks (the
embedded beat of a worker) and nothing else. Every process serves or consumes only on 127.0.0.1
and reads the same environment as the site: ``DATABASE_URL`` and ``REDIS_URL`` decide which
PostgreSQL database and Redis it uses.
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from django.conf import settings

HOST = "127.0.0.1"
DAPHNE_START_SECONDS = 60.0
# The worker prepares the computer players before it answers, which can take a while.
WORKER_START_SECONDS = 120.0
STOP_SECONDS = 20.0
LOG_TAIL_CHARS = 4000


class ProcessStartError(RuntimeError):
    """A process exited, or did not become ready in time."""


def free_port() -> int:
    """Ask the system for a TCP port nobody listens on at the moment."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def child_env(
    *, database_url: str, redis_url: str, extra: dict[str, str] | None = None
) -> dict[str, str]:
    """Build the environment of a site process on ``database_url`` and ``redis_url``.

    The secret key is this process's own, so that sessions made here are valid there.
    """
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONUNBUFFERED": "1",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": settings.SECRET_KEY,
        "ALLOWED_HOSTS": f"{HOST},localhost",
        **(extra or {}),
    }


class SiteProcess:
    """One process of the site, which may be started again after it stopped or was killed.

    ``incarnation`` counts the starts, so that a client can tell which run it talked to.
    ``output`` collects the process's output (appended across restarts); None inherits ours.
    """

    name = "process"

    def __init__(self, *, env: dict[str, str], output: Path | None = None) -> None:
        self.env = env
        self.output = output
        self.popen: subprocess.Popen[bytes] | None = None
        self.incarnation = 0

    def argv(self) -> list[str]:
        raise NotImplementedError

    def wait_ready(self, deadline: float) -> None:
        raise NotImplementedError

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen is not None else None

    @property
    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def start(self) -> Self:
        """Start the process and return once it answers; raise ProcessStartError otherwise."""
        if self.alive:
            raise ProcessStartError(f"{self.name} is already running")
        self.incarnation += 1
        log: IO[bytes] | None = None
        if self.output is not None:
            log = self.output.open("ab")
            log.write(f"--- {self.name} start {self.incarnation}\n".encode())
            log.flush()
        try:
            self.popen = subprocess.Popen(
                self.argv(),
                cwd=settings.BASE_DIR,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT if log is not None else None,
                start_new_session=True,
            )
        finally:
            if log is not None:
                log.close()
        try:
            self.wait_ready(time.monotonic() + self.start_seconds())
        except BaseException:
            self.kill()
            raise
        return self

    def start_seconds(self) -> float:
        return DAPHNE_START_SECONDS

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """Ask the process to finish its work and exit; kill it if it does not in time."""
        if self.popen is None:
            return
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=timeout)
        self._kill_group()

    def kill(self) -> None:
        """Kill the process and its helpers at once (SIGKILL), as a crash or an OOM kill would."""
        if self.popen is None:
            return
        self._kill_group()

    def _kill_group(self) -> None:
        assert self.popen is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def failure(self, reason: str) -> ProcessStartError:
        """Describe why the process is not ready, with the end of its output."""
        tail = ""
        if self.output is not None and self.output.exists():
            tail = self.output.read_text(errors="replace")[-LOG_TAIL_CHARS:]
        return ProcessStartError(f"{self.name} {reason}" + (f"\n{tail}" if tail else ""))

    def __enter__(self) -> Self:
        return self if self.alive else self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class DaphneProcess(SiteProcess):
    """A daphne server of the site on 127.0.0.1, ready once /healthz answers 200."""

    def __init__(
        self, *, env: dict[str, str], port: int | None = None, output: Path | None = None
    ) -> None:
        super().__init__(env=env, output=output)
        self.port = port or free_port()
        self.name = f"daphne :{self.port}"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def argv(self) -> list[str]:
        return [
            *(sys.executable, "-m", "daphne", "-b", HOST, "-p", str(self.port)),
            "config.asgi:application",
        ]

    def wait_ready(self, deadline: float) -> None:
        """Wait until /healthz reports the database, the channel layer and the broker working."""
        last = "no answer"
        while time.monotonic() < deadline:
            if not self.alive:
                raise self.failure("exited before it answered")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:
                    if response.status == 200:
                        return
                    last = f"status {response.status}"
            except urllib.error.HTTPError as error:
                last = f"status {error.code}"
            except OSError as error:
                last = str(error)
            time.sleep(0.1)
        raise self.failure(f"did not answer /healthz in time ({last})")


class CeleryWorkerProcess(SiteProcess):
    """A ``celery -A config worker`` on Redis, ready once it answers a ping.

    ``purge`` empties the queues on the first start only (tasks left by an earlier run point
    at rows that are gone); a restart keeps what was queued meanwhile. ``beat`` runs the
    periodic tasks in the worker (``-B``), with its schedule file in a private folder.
    """

    def __init__(
        self,
        *,
        env: dict[str, str],
        hostname: str | None = None,
        queues: Sequence[str] = (),
        beat: bool = False,
        purge: bool = False,
        pool: str = "solo",
        concurrency: int | None = None,
        loglevel: str = "WARNING",
        output: Path | None = None,
    ) -> None:
        super().__init__(env=env, output=output)
        self.hostname = hostname or f"live-{uuid.uuid4().hex[:8]}@pilotta"
        self.name = f"celery worker {self.hostname}"
        self.queues = tuple(queues)
        self.beat = beat
        self.purge = purge
        self.pool = pool
        self.concurrency = concurrency
        self.loglevel = loglevel
        self._schedule_dir: str | None = None

    def argv(self) -> list[str]:
        argv = [
            *(sys.executable, "-m", "celery", "-A", "config", "worker"),
            *("--pool", self.pool, "--hostname", self.hostname, "--loglevel", self.loglevel),
        ]
        if self.concurrency is not None:
            argv += ["--concurrency", str(self.concurrency)]
        if self.queues:
            argv += ["--queues", ",".join(self.queues)]
        if self.beat:
            if self._schedule_dir is None:
                self._schedule_dir = tempfile.mkdtemp(prefix="pilotta-beat-")
            argv += ["--beat", "--schedule", str(Path(self._schedule_dir) / "schedule")]
        if self.purge and self.incarnation == 1:
            argv.append("--purge")
        return argv

    def start_seconds(self) -> float:
        return WORKER_START_SECONDS

    def pool_pids(self) -> list[int]:
        """Return the pids of the processes the worker forked for its pool (Linux), if any."""
        if self.popen is None or not self.alive:
            return []
        pid = self.popen.pid
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]

    def ping(self, timeout: float = 0.5) -> bool:
        """Say whether this worker answers a ping on the broker."""
        from config.celery import app

        with app.connection_for_write(self.env["REDIS_URL"]) as connection:
            replies = app.control.ping(
                destination=[self.hostname], timeout=timeout, connection=connection
            )
        return bool(replies)

    def wait_ready(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if not self.alive:
                raise self.failure("exited before it answered")
            if self.ping():
                return
        raise self.failure("did not answer a ping in time")
