"""Bad frames and floods against a real daphne process, on PostgreSQL and the Redis layer."""

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import pytest
from asgiref.sync import async_to_sync
from django.db import connections
from django.test import Client
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from games.models import Room, Round, RoundAction
from games.selectors import round_state
from tests.games.test_consumer_frames import is_refusal
from tests.games.test_consumers import HEADERS, next_action, start_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SLOW_DOWN = "Too many moves at once; slow down."
MALFORMED = "That is not a move the table understands."
TOO_LARGE = "That message is too long for the table."
NOT_YOUR_TURN = "It is not your turn."
T = TypeVar("T")
#: How long a socket must stay silent to count as settled.
QUIET = 1.5


@pytest.fixture
def daphne(daphne_servers) -> int:
    """Serve the site with daphne, as in production, on a free port; return the port."""
    return daphne_servers().port


def cookie_for(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@dataclass
class Seat:
    """One player's socket, with everything it received and when."""

    socket: ClientConnection
    received: list[tuple[float, str]] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        async for message in self.socket:
            self.received.append((time.monotonic(), str(message)))

    async def close(self) -> None:
        await self.socket.close()
        if self.reader is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.reader

    async def settled(self) -> list[str]:
        """Wait until nothing arrives for QUIET seconds; return and forget what arrived."""
        return [text for _at, text in await self.settled_timed()]

    async def settled_timed(self) -> list[tuple[float, str]]:
        """Like settled(), with the time each message arrived."""
        count = -1
        while count != len(self.received):
            count = len(self.received)
            await asyncio.sleep(QUIET)
        messages = list(self.received)
        self.received.clear()
        return messages


async def open_seat(port: int, room: Room, cookie: str) -> Seat:
    socket = await connect(
        f"ws://127.0.0.1:{port}/ws/table/{room.pk}/?lang=en",
        origin=Origin(f"http://127.0.0.1:{port}"),
        additional_headers={"Cookie": cookie},
        compression=None,
        proxy=None,
        max_size=None,
    )
    seat = Seat(socket)
    seat.reader = asyncio.create_task(seat.read())
    await seat.settled()  # the first snapshot of the table
    return seat


@pytest.fixture
def table(daphne: int, queued, settings) -> tuple[int, Room, list[str]]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    players, room = async_to_sync(start_table)()
    return daphne, room, [cookie_for(player) for player in players]


async def seats_of(port: int, room: Room, cookies: list[str]) -> list[Seat]:
    return [await open_seat(port, room, cookie) for cookie in cookies]


async def a_valid_move_is_applied(room: Room, seats: list[Seat]) -> float:
    """The seat to act moves; return how long until every seat saw the new table."""
    state, count = await in_thread(lambda: table_now(room))
    marks = [len(seat.received) for seat in seats]
    started = time.monotonic()
    move = {"action": str(next_action(state)), "HEADERS": HEADERS}
    await seats[state.to_act].socket.send(json.dumps(move))
    for seat, mark in zip(seats, marks, strict=True):
        while all(is_refusal(text) for _at, text in seat.received[mark:]):
            assert time.monotonic() - started < 10, "the move was not shown"
            await asyncio.sleep(0.01)
    shown = time.monotonic() - started
    assert await in_thread(action_count) == count + 1
    return shown


async def in_thread(work: Callable[[], T]) -> T:
    """Read the database from a worker thread, as the event loop may not, and let go after."""

    def run() -> T:
        try:
            return work()
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


def table_now(room: Room):
    round_ = Round.objects.filter(match__room=room).order_by("-pk")[0]
    return round_state(round_), RoundAction.objects.count()


def action_count() -> int:
    return RoundAction.objects.count()


def test_bad_frames_are_answered_and_the_table_plays_on(table) -> None:
    port, room, cookies = table

    async def scenario() -> None:
        seats = await seats_of(port, room, cookies)
        state, count = await in_thread(lambda: table_now(room))
        sender = seats[state.to_act]
        frames: list[tuple[str | bytes, str]] = [
            ("pass, please", MALFORMED),
            (b"\x00\xff", MALFORMED),
            ("[" * 100_000, TOO_LARGE),
            ("x" * 1_000_000, TOO_LARGE),
            (json.dumps({"action": "bid", "value": "²", "trump": "H"}), MALFORMED),
            (json.dumps({"action": "bid", "value": "9" * 5_000, "trump": "H"}), MALFORMED),
            (json.dumps({"action": "pass", "seat": (state.to_act + 1) % 4}), MALFORMED),
        ]
        for frame, message in frames:
            await sender.socket.send(frame)
            answers = await sender.settled()
            assert len(answers) == 1, (frame[:20], answers)
            assert message in answers[0]
        for other in seats:
            assert await other.settled() == []
        assert await in_thread(action_count) == count
        await a_valid_move_is_applied(room, seats)

        # Past daphne's own limit (1 MiB by default) autobahn fails the connection by dropping
        # it, unread and without a close frame (the browser sees 1006); the table plays on.
        index = seats.index(sender)
        await sender.socket.send("x" * (2 * 1024 * 1024))
        assert sender.reader is not None
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(sender.reader, timeout=10)
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
        seats[index] = await open_seat(port, room, cookies[index])
        await a_valid_move_is_applied(room, seats)
        for seat in seats:
            await seat.close()

    asyncio.run(scenario())


def test_a_flood_of_five_thousand_messages_queues_no_replies(table) -> None:
    port, room, cookies = table

    async def scenario() -> None:
        seats = await seats_of(port, room, cookies)
        state, count = await in_thread(lambda: table_now(room))
        # Out of turn, even after the next move: each message read costs the server a database
        # look-up and an answer.
        flooder = seats[(state.to_act + 2) % 4]
        message = json.dumps({"action": "pass", "HEADERS": HEADERS})

        started = time.monotonic()
        for _ in range(5_000):
            await flooder.socket.send(message)
        sent = time.monotonic()
        # The player to act moves while the flood is being read: everyone sees it at once.
        shown = await a_valid_move_is_applied(room, seats)
        answers = await flooder.settled_timed()
        last = max((at for at, _text in answers), default=sent)
        answered = [text for _at, text in answers if is_refusal(text)]

        # A burst of 20, then 10 a second while the server works through the queue, and one
        # request to slow down per refill at most.
        assert len(answered) <= 2 * (20 + 10 * (last - started)) + 1
        assert sum(NOT_YOUR_TURN in text for text in answered) >= 20
        assert any(SLOW_DOWN in text for text in answered)
        # Reading and dropping 5,000 frames takes the server a few seconds on a busy machine;
        # answering each one took minutes.
        assert last - sent < 20
        assert shown < 5
        assert await in_thread(action_count) == count + 1
        print(
            f"\nflood: 5000 messages sent in {sent - started:.2f} s, "
            f"{len(answered)} answers, last answer {last - sent:.2f} s after the flood, "
            f"a move made during the flood shown to all four seats in {shown * 1000:.0f} ms"
        )
        for seat in seats:
            await seat.close()

    asyncio.run(scenario())
