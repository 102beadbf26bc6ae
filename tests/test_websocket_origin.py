"""Websocket handshakes: only our own origin, only logged-in users."""

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from tests.factories import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True)]


def session_cookie_for(client, email: str) -> bytes:
    user = get_user_model().objects.create_user(email=email, password=PASSWORD)
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def handshake(origin: bytes, cookie: bytes = b"") -> tuple[bool, object]:
    headers = [(b"origin", origin), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, detail = await communicator.connect()
    await communicator.disconnect()
    return connected, detail


async def test_a_logged_in_user_on_our_origin_connects(client):
    from asgiref.sync import sync_to_async

    cookie = await sync_to_async(session_cookie_for)(client, "ana@example.com")

    connected, _ = await handshake(b"http://localhost", cookie)

    assert connected


async def test_a_handshake_from_a_foreign_origin_is_refused(client):
    from asgiref.sync import sync_to_async

    cookie = await sync_to_async(session_cookie_for)(client, "ben@example.com")

    connected, _ = await handshake(b"https://evil.example", cookie)

    assert not connected


async def test_an_anonymous_handshake_is_refused():
    connected, code = await handshake(b"http://localhost")

    assert not connected
    assert code == 4401
