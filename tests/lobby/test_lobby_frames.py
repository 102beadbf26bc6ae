"""The lobby socket only pushes: whatever a browser sends it is ignored, never raised."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from lobby.consumers import LobbyConsumer, user_group
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)

FRAMES = [
    {"text": "not json"},
    {"text": ""},
    {"text": "[" * 100_000},
    {"text": '{"action": "pass"}'},
    {"text": "x" * 1_000_000},
    {"bytes": b"\xff\xfe"},
    {"bytes": b""},
]


@pytest.fixture(autouse=True)
def in_memory_layer(settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


async def test_any_frame_is_ignored_and_the_socket_still_pushes():
    user = await sync_to_async(make_user)("Lobby")
    socket = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    socket.scope["user"] = user
    connected, _code = await socket.connect()
    assert connected

    for frame in FRAMES:
        await socket.send_input({"type": "websocket.receive", **frame})
    assert await socket.receive_nothing(timeout=0.3)

    await get_channel_layer().group_send(
        user_group(user.pk), {"type": "lobby.html", "html": "<div id=note></div>"}
    )
    assert await socket.receive_from(timeout=5) == "<div id=note></div>"
    await socket.disconnect()
