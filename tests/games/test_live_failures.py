"""No turn is lost and no seat is left empty when a real process dies with ``kill -9``."""

import asyncio
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from games.engine.actions import PASS
from games.live.client import TableView, login_session, open_table
from games.live.processes import CeleryWorkerProcess, ProcessStartError
from games.models import RoomSeat, Round, RoundAction
from games.services import rooms as room_services
from games.services.table import round_schedule_turn, seat_apply_action
from games.snapshots import round_state_cached
from tests.conftest import site_env
from tests.factories import bot_room, make_user, seated_room

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Short enough for a test, in the same proportions as production's.
FAST = {
    "BOT_PACING_SECONDS": "0.2",
    "ROUND_PAUSE_SECONDS": "0",
    "DISCONNECT_GRACE_SECONDS": "3",
    "PRESENCE_TTL_SECONDS": "3",
    "TABLE_SWEEP_SECONDS": "1",
    "TURN_OVERDUE_SECONDS": "2",
}
DUE_BOUND_SECONDS = 30


def worker(**extra: str) -> CeleryWorkerProcess:
    """A real worker with beat (the sweeper), on this test's database."""
    process = CeleryWorkerProcess(env=site_env({**FAST, **extra}), beat=True, purge=True)
    try:
        return process.start()
    except ProcessStartError as error:
        pytest.fail(str(error), pytrace=False)


def wait_until(condition, seconds: float, what: str) -> float:
    """Poll ``condition`` until it holds; return how long it took."""
    started = time.monotonic()
    while time.monotonic() < started + seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    pytest.fail(f"{what} did not happen within {seconds} s")


def test_a_bot_turn_held_by_a_killed_worker_is_played_once_soon_after_it_was_due(settings):
    """The worker holds the turn's task (counting down its pacing) when it is killed."""
    settings.BOT_PACING_SECONDS = 3  # the countdown this process gives the turn's task
    owner = make_user("Owner")
    room = bot_room(owner, bot_level="easy")
    first = worker()
    try:
        room_services.room_start(room_id=room.pk, user=owner)
        round_ = Round.objects.get(match__room=room)
        # The owner is away too, so that every turn is a computer's.
        RoomSeat.objects.filter(room=room, seat=0).update(away=True)
        round_schedule_turn(round_id=round_.pk)
        time.sleep(1.0)  # the worker has taken the task and waits for its countdown
        first.kill()
    finally:
        first.kill()
    round_.refresh_from_db()
    due = round_.turn_due_at
    assert not RoundAction.objects.filter(round=round_).exists()

    second = worker()
    try:
        wait_until(lambda: RoundAction.objects.filter(round=round_).exists(), 60, "the lost turn")
        time.sleep(2)  # a doubled task would land meanwhile
    finally:
        second.stop()

    first_action = RoundAction.objects.filter(round=round_).order_by("seq").first()
    assert first_action.seq == 0
    assert first_action.is_bot
    assert (first_action.created - due).total_seconds() < DUE_BOUND_SECONDS
    seqs = list(RoundAction.objects.filter(round=round_).values_list("seq", flat=True))
    assert seqs == list(range(len(seqs)))


def test_a_player_whose_server_is_killed_is_covered_then_gets_the_seat_back(daphne_servers):
    victim = make_user("Victim")
    room = bot_room(victim, bot_level="easy")
    doomed = daphne_servers(**FAST)
    spare = daphne_servers(**FAST)
    background = worker()
    try:
        room_services.room_start(room_id=room.pk, user=victim)
        key = login_session(victim)

        async def hold_socket_until_killed() -> None:
            socket = await open_table(port=doomed.port, room_id=room.pk, session_key=key)
            view = TableView()
            view.apply(await asyncio.wait_for(socket.recv(decode=True), 10))
            # The server dies with the socket open: no goodbye reaches anyone.
            doomed.kill()

        asyncio.run(hold_socket_until_killed())
        killed = time.monotonic()
        grace = float(FAST["DISCONNECT_GRACE_SECONDS"])
        wait_until(
            lambda: RoomSeat.objects.get(room=room, seat=0).away,
            grace + 15,
            "the computer covering the seat",
        )
        covered_after = time.monotonic() - killed
        assert covered_after < grace + 10
        # The computer plays the absent player's turns: the round goes on past their turn.
        wait_until(
            lambda: RoundAction.objects.filter(
                round__match__room=room, seat=0, is_bot=True
            ).exists(),
            30,
            "a computer move for the absent player",
        )

        async def come_back() -> None:
            socket = await open_table(port=spare.port, room_id=room.pk, session_key=key)
            await asyncio.wait_for(socket.recv(decode=True), 10)
            await asyncio.to_thread(
                wait_until,
                lambda: not RoomSeat.objects.get(room=room, seat=0).away,
                10,
                "the seat given back",
            )
            await socket.close()

        asyncio.run(come_back())
    finally:
        background.stop()


def test_a_change_whose_process_died_before_announcing_it_reaches_the_table(
    daphne_servers, monkeypatch
):
    """The process that took a move dies between its commit and its announcement."""
    players = [make_user(f"Seat{n}") for n in range(4)]
    room = seated_room(players)
    # No other change may come meanwhile to carry the turn: nobody is counted gone.
    patient = {**FAST, "DISCONNECT_GRACE_SECONDS": "600"}
    server = daphne_servers(**patient)
    background = worker(**patient)
    try:
        room_services.room_start(room_id=room.pk, user=players[0])
        state = round_state_cached(Round.objects.get(match__room=room))
        mover = state.to_act
        waiting = state.apply(mover, PASS).to_act
        key = login_session(players[waiting])
        connected = threading.Event()
        turn_shown: list[float] = []

        async def watch_for_the_turn() -> None:
            socket = await open_table(port=server.port, room_id=room.pk, session_key=key)
            view = TableView()
            view.apply(await asyncio.wait_for(socket.recv(decode=True), 10))
            connected.set()
            while not view.my_turn:
                view.apply(await asyncio.wait_for(socket.recv(decode=True), 20))
            turn_shown.append(time.monotonic())
            await socket.close()

        watcher = threading.Thread(target=asyncio.run, args=(watch_for_the_turn(),))
        watcher.start()
        assert connected.wait(10)
        # Committed, then nothing: the announcement died with the process that took the move.
        monkeypatch.setattr("games.services.table._publish", lambda *args, **kwargs: None)
        seat_apply_action(room_id=room.pk, user=players[mover], action=PASS)
        committed = time.monotonic()
        watcher.join(30)
    finally:
        background.stop()

    assert turn_shown, "the player was never shown their turn"
    sweep = float(FAST["TABLE_SWEEP_SECONDS"])
    assert turn_shown[0] - committed < sweep + 3


def test_a_strong_turn_whose_pool_process_is_killed_mid_search_is_played_once(tmp_path):
    """Production's workers fork their pool: the process searching a strong card dies alone,
    and its parent lives on (Celery acknowledges the lost task, so the sweeper replays it)."""
    owner = make_user("Owner")
    room = bot_room(owner, bot_level="strong")
    log = tmp_path / "searcher.log"
    env = site_env(FAST)
    # As in production: a worker for the cheap queue with beat, and one for the searches.
    cheap = CeleryWorkerProcess(env=env, queues=("celery",), beat=True, purge=True)
    searcher = CeleryWorkerProcess(
        env=env, queues=("strong",), pool="prefork", concurrency=1, loglevel="INFO", output=log
    )
    try:
        cheap.start()
        searcher.start()
    except ProcessStartError as error:
        cheap.stop()
        pytest.fail(str(error), pytrace=False)
    try:
        room_services.room_start(room_id=room.pk, user=owner)
        round_ = Round.objects.get(match__room=room)
        RoomSeat.objects.filter(room=room, seat=0).update(away=True)
        round_schedule_turn(round_id=round_.pk)
        kills = kill_pool_process_mid_task(searcher, log, round_)
        played = actions_of(round_)
        wait_until(
            lambda: actions_of(round_) > played + 2,
            DUE_BOUND_SECONDS,
            "the round going on after the lost turn",
        )
    finally:
        searcher.stop()
        cheap.stop()

    assert kills >= 1
    seqs = list(RoundAction.objects.filter(round=round_).values_list("seq", flat=True))
    assert seqs == list(range(len(seqs)))


def actions_of(round_: Round) -> int:
    return RoundAction.objects.filter(round=round_).count()


def kill_pool_process_mid_task(process: CeleryWorkerProcess, log: Path, round_: Round) -> int:
    """Kill the worker's pool process until one dies holding a task; return the kills."""
    for kills in range(1, 11):
        played = actions_of(round_)
        wait_until(lambda: actions_of(round_) > played, 60, "a computer's move")  # noqa: B023
        time.sleep(0.3)  # into the next search: each card thinks for up to half a second
        for pid in process.pool_pids():
            os.kill(pid, signal.SIGKILL)
        time.sleep(1.0)
        if "WorkerLostError" in log.read_text(errors="replace"):
            return kills
    pytest.fail("no kill hit the pool process while it held a task")
