"""Bad frames on the table socket: each is answered once, the socket stays open, nothing changes."""

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.consumers import TableConsumer
from games.frames import RateLimiter
from games.models import RoundAction
from tests.games.test_consumers import HEADERS, next_action, open_socket, start_table, table_now

pytestmark = [pytest.mark.django_db(transaction=True)]

MALFORMED = "That is not a move the table understands."
TOO_LARGE = "That message is too long for the table."
SLOW_DOWN = "Too many moves at once; slow down."


def is_refusal(message: str) -> bool:
    """Tell a refusal for the sender apart from a drawing of the table (whole or in part)."""
    return "table-message-error" in message


class Clock:
    """A clock the test moves by hand, for the sockets' rate limiters."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(TableConsumer, "new_limiter", lambda self: RateLimiter(clock=clock))
    return clock


@pytest.fixture(autouse=True)
def quick_settings(settings) -> None:
    """Keep the socket's own tasks on one event loop (the Redis layer is tried under daphne),
    and skip the slow password hashing of the four players."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
async def table(queued, clock):
    players, room = await start_table()
    sockets = []
    for player in players:
        communicator, _snapshot = await open_socket(player, room.pk)
        sockets.append(communicator)
    yield players, room, sockets
    for communicator in sockets:
        await communicator.disconnect()


async def send_frame(socket: WebsocketCommunicator, frame: str | bytes) -> None:
    """Send any frame as daphne would hand it over, even an empty one."""
    key = "text" if isinstance(frame, str) else "bytes"
    await socket.send_input({"type": "websocket.receive", key: frame})


async def replies(socket: WebsocketCommunicator) -> list[str]:
    """Collect what reaches the socket until it falls quiet; raise what the consumer raised."""
    received = []
    while not await socket.receive_nothing(timeout=0.3):
        output = await socket.receive_output()
        assert output["type"] == "websocket.send", output
        received.append(output["text"])
    assert not socket.future.done(), "the consumer stopped"
    return received


async def a_valid_move_is_applied(room, sockets) -> None:
    """The seat to act moves; every socket sees the table change and one action is written."""
    _round, state, count = await table_now(room)
    await sockets[state.to_act].send_json_to(
        {"action": str(next_action(state)), "HEADERS": HEADERS}
    )
    for socket in sockets:
        assert not is_refusal(await socket.receive_from(timeout=5))
    _round, _state, after = await table_now(room)
    assert after == count + 1


def frame_for(case: str, state: Any) -> tuple[int, str | bytes]:
    """Return the sending seat and the frame of a bad message."""
    seat = state.to_act
    content: dict[str, Any] = {"HEADERS": HEADERS}
    if case == "not_json":
        return seat, "pass, please"
    if case == "empty_text":
        return seat, ""
    if case == "binary":
        return seat, json.dumps({"action": "pass"}).encode()
    if case == "brackets":
        return seat, "[" * 100_000
    if case == "nested":
        return seat, "[" * 5_000
    if case == "megabyte":
        return seat, json.dumps({"action": "pass", "pad": "x" * 1_000_000})
    if case == "superscript_value":
        content.update(action="bid", value="²", trump="H")
    elif case == "superscript_text":
        content.update(action="bid ² H")
    elif case == "long_value":
        content.update(action="bid", value="9" * 5_000, trump="H")
    elif case == "long_text":
        content.update(action="bid 1234567 H")
    elif case == "huge_integer":
        return seat, '{"action": "bid", "value": ' + "9" * 5_000 + ', "trump": "H"}'
    elif case == "forged_seat":
        content.update(action="pass", seat=seat)
        seat = (seat + 1) % 4
    return seat, json.dumps(content)


BAD_FRAMES = [
    ("not_json", MALFORMED),
    ("empty_text", MALFORMED),
    ("binary", MALFORMED),
    ("brackets", TOO_LARGE),
    ("nested", MALFORMED),
    ("megabyte", TOO_LARGE),
    ("superscript_value", MALFORMED),
    ("superscript_text", MALFORMED),
    ("long_value", MALFORMED),
    ("long_text", MALFORMED),
    ("huge_integer", MALFORMED),
    ("forged_seat", MALFORMED),
]


@pytest.mark.parametrize(("case", "message"), BAD_FRAMES)
async def test_a_bad_frame_is_answered_once_and_the_socket_plays_on(table, case, message):
    _players, room, sockets = table
    _round, state, count = await table_now(room)
    seat, frame = frame_for(case, state)

    sender = sockets[seat]

    await send_frame(sender, frame)

    answers = await replies(sender)
    assert len(answers) == 1
    assert is_refusal(answers[0])
    assert message in answers[0]
    for other in sockets:
        if other is not sender:
            assert await replies(other) == []
    _round, _state, after = await table_now(room)
    assert after == count
    await a_valid_move_is_applied(room, sockets)


async def test_the_refusal_speaks_the_page_language(table):
    players, room, _sockets = table
    greek, _snapshot = await open_socket(players[0], room.pk, lang="el")

    await send_frame(greek, b"\xff")

    answers = await replies(greek)
    await greek.disconnect()
    assert len(answers) == 1
    assert "Αυτή την κίνηση το τραπέζι δεν την καταλαβαίνει." in answers[0]


async def test_a_flood_is_answered_at_most_twenty_one_times_then_dropped(table, clock):
    _players, room, sockets = table
    _round, state, count = await table_now(room)
    flooder = sockets[state.to_act]

    for _ in range(200):
        await flooder.send_json_to({"action": "play 11X", "HEADERS": HEADERS})

    answers = await replies(flooder)
    # The burst of 20 is read (and refused as malformed), the 21st is told to slow down,
    # and the other 179 queue nothing.
    assert len(answers) == 21
    assert all(MALFORMED in answer for answer in answers[:20])
    assert SLOW_DOWN in answers[20]
    for other in sockets:
        if other is not flooder:
            assert await replies(other) == []
    _round, _state, after = await table_now(room)
    assert after == count

    clock.now += 0.11
    await a_valid_move_is_applied(room, sockets)


async def test_a_flood_of_moves_makes_one_move(table):
    # A double click, a thousand times over: the first move is applied, the others refused.
    _players, room, sockets = table
    _round, state, count = await table_now(room)
    move = {"action": str(next_action(state)), "HEADERS": HEADERS}
    mover = sockets[state.to_act]

    for _ in range(200):
        await mover.send_json_to(move)

    answers = await replies(mover)
    # The table once, for the move; 19 refusals; one request to slow down.
    assert len(answers) == 21
    assert sum(not is_refusal(answer) for answer in answers) == 1
    assert sum(SLOW_DOWN in answer for answer in answers) == 1
    _round, _state, after = await table_now(room)
    assert after == count + 1


FRAMES = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    st.builds(
        lambda piece, times: piece * times,
        st.sampled_from(["[", "{", '{"a":', '"\\"', "²", "9", "\0", "x"]),
        st.integers(min_value=1, max_value=40_000),
    ),
    st.builds(
        lambda content: json.dumps({**content, "HEADERS": HEADERS}),
        st.dictionaries(
            st.sampled_from(["action", "value", "trump", "seat", "HEADERS", "round"]),
            st.none() | st.integers() | st.text(max_size=80) | st.lists(st.text(max_size=5)),
        ),
    ),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frame=FRAMES)
async def test_any_frame_is_answered_and_changes_nothing(table, clock, frame):
    _players, room, sockets = table
    _round, state, _count = await table_now(room)
    # Sent from a seat that is not to act, so even a well-formed move changes nothing.
    sender = sockets[(state.to_act + 1) % 4]
    before = await sync_to_async(RoundAction.objects.count)()
    clock.now += 1  # within the rate limit: every frame is read

    await send_frame(sender, frame)
    answers = await replies(sender)

    assert len(answers) == 1
    assert is_refusal(answers[0])
    assert await sync_to_async(RoundAction.objects.count)() == before
