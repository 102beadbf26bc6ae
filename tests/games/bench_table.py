"""Benchmark: time from one player's action to all four connections updated (prints p50/p95).

Not part of the test run (its name does not start with ``test_``); run it on purpose, ideally on
PostgreSQL and Redis:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pilotta_table \\
    REDIS_URL=redis://127.0.0.1:6379/5 .venv/bin/pytest tests/games/bench_table.py -s -q
"""

import statistics
import time

import pytest
from django.conf import settings

from tests.games.test_consumers import next_action, open_socket, send, start_table, table_now

pytestmark = [pytest.mark.django_db(transaction=True)]

ACTIONS = 150


async def test_bench_action_to_four_connections(queued):
    players, room = await start_table()
    sockets = [(await open_socket(player, room.pk))[0] for player in players]
    timings = []
    try:
        for _ in range(ACTIONS):
            _round, state, _count = await table_now(room)
            action = str(next_action(state))
            started = time.perf_counter()
            await send(sockets[state.to_act], action)
            for socket in sockets:
                await socket.receive_from(timeout=10)
            timings.append((time.perf_counter() - started) * 1000)
    finally:
        for socket in sockets:
            await socket.disconnect()
    timings.sort()
    p95 = timings[int(len(timings) * 0.95) - 1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(
        f"\n{len(timings)} actions, {layer} + {database}: "
        f"p50 {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms, max {timings[-1]:.1f} ms"
    )
