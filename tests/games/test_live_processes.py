"""The live table on real daphne processes and the Redis channel layer, through real sockets."""

import asyncio
import json
import subprocess
import sys
import time

import pytest
from django.conf import settings
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from games.engine import Pass
from games.live.client import (
    TableView,
    action_message,
    is_error,
    login_session,
    open_table,
)
from games.models import Round
from games.selectors import round_view
from games.services import rooms as room_services
from tests.conftest import site_env
from tests.factories import seated_room

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

IDLE_SECONDS = 60
UPDATE_SECONDS = 10
# Starting the processes, 20 s of play, measuring and stopping.
SOAK_TIMEOUT_SECONDS = 240


async def next_view(socket: ClientConnection, view: TableView, timeout: float) -> TableView:
    """Apply the next table fragment to ``view``, skipping messages meant for one connection."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        fragment = await asyncio.wait_for(socket.recv(decode=True), remaining)
        if not is_error(fragment):
            view.apply(fragment)
            return view


async def stay_idle(socket: ClientConnection, seconds: float) -> None:
    """Receive nothing for ``seconds``; fail if the server closes the socket meanwhile."""
    started = time.monotonic()
    try:
        fragment = await asyncio.wait_for(socket.recv(decode=True), seconds)
    except TimeoutError:
        return
    except ConnectionClosed as closed:
        pytest.fail(
            f"the idle socket was closed after {time.monotonic() - started:.1f} s "
            f"with code {closed.rcvd.code if closed.rcvd else None}"
        )
    pytest.fail(f"the idle table sent something nobody caused: {fragment[:200]}")


def test_an_idle_table_socket_stays_open_and_gets_the_next_move(daphne_servers, players):
    """A watcher on one server, idle for a minute, sees a move sent through the other server."""
    first, second = daphne_servers(), daphne_servers()
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    view = round_view(Round.objects.select_related("match__room").get(match__room=room))
    mover = view.state.to_act
    assert mover is not None
    assert Pass() in view.state.legal_actions()
    watcher = (mover + 2) % 4
    watcher_key = login_session(players[watcher])
    mover_key = login_session(players[mover])

    async def scenario() -> TableView:
        async with await open_table(
            port=first.port, room_id=room.pk, session_key=watcher_key
        ) as watching:
            seen = await next_view(watching, TableView(), UPDATE_SECONDS)
            assert seen.to_act == mover
            assert not seen.my_turn
            await stay_idle(watching, IDLE_SECONDS)
            async with await open_table(
                port=second.port, room_id=room.pk, session_key=mover_key
            ) as moving:
                assert (await next_view(moving, TableView(), UPDATE_SECONDS)).my_turn
                await moving.send(json.dumps(action_message(Pass())))
                return await next_view(watching, seen, UPDATE_SECONDS)

    seen = asyncio.run(scenario())

    assert seen.to_act == (mover + 1) % 4
    assert round_view(view.round).seq == 1


def test_the_soak_reports_a_quiet_run_on_real_processes_as_clean(tmp_path):
    """Without kills the instrument itself must see rounds played and nothing wrong."""
    figures = tmp_path / "soak.json"
    command = [sys.executable, "-m", "games.soak", "--minutes", "0.34", "--no-kills"]
    command += ["--json", str(figures), "--logs", str(tmp_path / "logs")]

    result = subprocess.run(
        command,
        cwd=settings.BASE_DIR,
        env=site_env(),
        capture_output=True,
        text=True,
        timeout=SOAK_TIMEOUT_SECONDS,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(figures.read_text())
    assert report["rounds_finished"] > 0
    assert report["actions_logged"] > 0
    assert report["actions_lost"] == 0
    assert report["late_turns"] == 0
    assert report["idle_drops"] == 0
    assert report["missed_updates"] == report["unapplied_actions"] == 0
    assert report["refused_connects"] == report["refused_actions"] == 0
    assert "rounds finished:" in result.stdout
