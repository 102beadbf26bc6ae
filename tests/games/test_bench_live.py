"""The live benchmark: its players act from their own view, and it runs end to end."""

import asyncio
import itertools
import json
import os
import random
import re
import subprocess
import sys
import time

import pytest
from django.conf import settings

from accounts.models import User
from games.consumers import action_text
from games.engine import RoundState, deal, draw_cut, parse_action, shuffled_deck
from games.frames import Admission, RateLimiter
from games.live.bench import BenchView, LogWatch, SendPace, choose, percentile
from games.models import Room
from games.rendering import TableScreen
from games.snapshots import SeatView, TableSnapshot
from tests.conftest import site_env

# Starting the processes, (a), one short load level, and stopping.
BENCH_TIMEOUT_SECONDS = 300
NUMBER = r"\d+(\.\d+)?"


def snapshot_at(state: RoundState, version: int) -> TableSnapshot:
    seats = tuple(
        SeatView(seat=seat, user_id=seat + 1, name=f"P{seat}", is_bot=False, away=False)
        for seat in range(4)
    )
    return TableSnapshot(
        version=version,
        room_id=1,
        room_created=0.0,
        owner_id=1,
        status="playing",
        target=401,
        assist=False,
        seats=seats,
        match_id=1,
        round_id=1,
        round_number=1,
        state=state,
    )


@pytest.mark.parametrize("seed", range(5))
def test_players_acting_from_their_views_alone_finish_a_round(seed):
    """Each seat sees only its own view, as a socket does, and every choice is legal."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    state = RoundState.new(dealer=dealer, hands=hands)
    screens = [TableScreen(user_id=seat + 1, language="en") for seat in range(4)]
    views = [BenchView() for _ in range(4)]
    for seat in range(4):
        views[seat].apply(screens[seat].full(snapshot_at(state, 0)))
    cards = 0
    while state.to_act is not None:
        seat = state.to_act
        assert [view.my_turn for view in views] == [s == seat for s in range(4)]
        message = choose(views[seat], rng)
        assert message is not None
        text = action_text(message)
        assert text is not None
        action = parse_action(text)
        assert action in state.legal_actions()
        cards += text.startswith("play ")
        state = state.apply(seat, action)
        for viewer in range(4):
            views[viewer].apply(screens[viewer].changes(snapshot_at(state, len(state.history))))
    # Someone bids 80 when nobody has: the round is played, not passed out.
    assert cards == 32


def test_percentiles_are_nearest_rank():
    samples = list(range(1, 101))
    assert percentile(samples, 0.5) == 50
    assert percentile(samples, 0.95) == 95
    assert percentile([7.0], 0.95) == 7.0


CHAINED_LOG = """[12:00:00: ERROR] Task raised unexpected
Traceback (most recent call last):
  File "x.py", line 1, in f
psycopg.errors.DeadlockDetected: deadlock detected

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "y.py", line 2, in g
django.db.utils.OperationalError: deadlock detected
[12:00:01: ERROR] Exception inside application
Traceback (most recent call last):
  File "z.py", line 3, in h
ValueError: bad
"""


def test_tracebacks_are_counted_once_per_error_since_the_mark(tmp_path):
    log = tmp_path / "worker.log"
    log.write_text("Traceback (most recent call last):\nOldError: before the mark\n")
    watch = LogWatch([log, tmp_path / "never-written.log"])
    watch.mark()
    with log.open("a") as out:
        out.write(CHAINED_LOG)

    count, lines = watch.tracebacks()

    assert count == 2
    assert lines == [
        "worker.log: django.db.utils.OperationalError: deadlock detected",
        "worker.log: ValueError: bad",
    ]


async def test_a_paced_player_stays_within_what_the_socket_admits():
    """A scripted player acting as fast as the site answers never meets the rate limit."""
    pace = SendPace()
    limiter = RateLimiter()
    sent = []
    for _ in range(limiter.burst + 3):
        await pace.wait()
        sent.append(pace.mark())
        assert limiter.admit() is Admission.ACCEPT

    gaps = [later - earlier for earlier, later in itertools.pairwise(sent)]
    assert min(gaps) >= 0.12


async def test_a_pace_that_waited_long_enough_lets_the_player_send_at_once():
    pace = SendPace()
    pace.mark()
    await asyncio.sleep(0.13)

    before = time.perf_counter()
    await pace.wait()

    assert time.perf_counter() - before < 0.01


def test_the_bench_refuses_to_run_without_postgresql_and_redis():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    result = subprocess.run(
        [sys.executable, "-m", "games.bench_live", "--tables", "2"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "DATABASE_URL does not point at PostgreSQL" in result.stderr
    assert result.stdout == ""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_tiny_bench_prints_every_figure_and_no_error(tmp_path):
    """On real processes, the three sections come with numbers, and nothing went wrong."""
    figures = tmp_path / "bench.json"
    command = [sys.executable, "-m", "games.bench_live", "--tables", "2", "--seconds", "5"]
    command += ["--warmup", "2", "--actions", "20", "--json", str(figures)]
    command += ["--logs", str(tmp_path / "logs")]

    result = subprocess.run(
        command,
        cwd=settings.BASE_DIR,
        env=site_env(),
        capture_output=True,
        text=True,
        timeout=BENCH_TIMEOUT_SECONDS,
        check=False,
    )

    output = result.stdout
    assert result.returncode == 0, output + result.stderr
    assert re.search(rf"action -> 4 sockets updated +{NUMBER} +{NUMBER} +{NUMBER}", output)
    assert re.search(rf"floor: bare group_send +{NUMBER} +{NUMBER} +{NUMBER}", output)
    assert re.search(rf"^ +2 +{NUMBER} +{NUMBER} +{NUMBER} +{NUMBER}", output, re.MULTILINE)
    assert re.search(rf"a card, to the others +{NUMBER} +{NUMBER}", output)
    assert "errors: 0;" in output
    report = json.loads(figures.read_text())
    four = report["four"]
    assert four["actions"] == 20
    assert 0 < four["floor_ms"]["p50"] <= four["all_updated_ms"]["p50"]
    assert four["card_to_others_bytes"]["p50"] > 0
    assert four["acted_bytes"]["count"] == 20
    assert four["others_bytes"]["count"] == 60
    (level,) = report["levels"]
    assert level["tables"] == 2
    assert level["actions_logged"] > 0
    assert level["human_ms"]["count"] > 0
    assert level["computer_turn_ms"]["count"] > 0
    assert report["errors"] == 0
    # It removed what it made.
    assert not User.objects.filter(email__endswith="@bench.invalid").exists()
    assert not Room.objects.exists()


def test_the_probe_finds_every_step_it_times(monkeypatch):
    """The probe wraps the site's functions by name: a renamed one must fail here, not in a run."""
    from games.live import probe

    wrapped: list[tuple[object, str]] = []
    monkeypatch.setattr(
        probe, "wrap", lambda owner, attribute, name: wrapped.append((owner, attribute))
    )
    monkeypatch.setattr(probe, "timed_sql", lambda function: function)
    monkeypatch.setattr(probe, "_time_tasks", lambda: None)
    probe.install("daphne")

    assert wrapped
    for owner, attribute in wrapped:
        assert hasattr(owner, attribute), f"{owner!r} has no {attribute}"
