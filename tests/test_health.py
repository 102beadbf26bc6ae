"""The /healthz endpoint."""

import asyncio
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from unittest import mock

import pytest
import redis
from channels.layers import channel_layers
from django.conf import settings as django_settings
from django.db import OperationalError
from django.test import Client

from config.env import channel_layer_host
from tests.daphne_server import daphne_server

pytestmark = pytest.mark.django_db

SOCKETS = 20


def test_healthz_reports_ok_when_everything_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] == "ok"


def test_healthz_answers_503_and_names_the_database_when_it_is_down(client):
    with mock.patch(
        "config.health.connection.cursor", side_effect=OperationalError("connection refused")
    ):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"] == "error: OperationalError"
    assert body["checks"]["channel_layer"] == "ok"


def test_healthz_answers_503_when_no_channel_layer_is_configured(client, settings):
    settings.CHANNEL_LAYERS = {}

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] == "error: RuntimeError"


def redis_layer_at(address: str) -> dict[str, object]:
    return {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [channel_layer_host(address)]},
        }
    }


def test_healthz_answers_503_when_redis_refuses_the_channel_layer(client, settings):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    settings.CHANNEL_LAYERS = redis_layer_at(f"redis://127.0.0.1:{port}/0")

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] == "error: ConnectionError"


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A server that accepts connections and never answers, like a hung Redis."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_healthz_gives_up_on_a_hung_channel_layer_within_its_timeout(
    client, settings, silent_server
):
    settings.CHANNEL_LAYERS = redis_layer_at(f"redis://127.0.0.1:{silent_server}/0")
    started = time.monotonic()

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["channel_layer"] == "error: TimeoutError"
    assert time.monotonic() - started < 4


class Untouchable:
    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the health check used the shared channel layer ({name})")


def test_healthz_never_touches_the_processs_shared_channel_layer(client, monkeypatch):
    monkeypatch.setitem(channel_layers.backends, "default", Untouchable())

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["checks"]["channel_layer"] == "ok"


def test_healthz_checks_the_broker_when_one_is_configured(client, settings):
    settings.CELERY_EMBEDDED_WORKER = False
    with mock.patch("config.health.check_broker", side_effect=ConnectionError("down")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["broker"] == "error: ConnectionError"


def test_healthz_accepts_only_get(client):
    assert client.post("/healthz").status_code == 405


# On Redis, and under a real daphne


def redis_clients() -> int:
    """Count the connections open on this test run's Redis database."""
    server = redis.Redis.from_url(django_settings.REDIS_URL)
    try:
        database = server.connection_pool.connection_kwargs.get("db", 0)
        return sum(1 for client in server.client_list() if client["db"] == str(database)) - 1
    finally:
        server.close()


@pytest.mark.services
def test_healthz_on_redis_closes_the_connections_it_opens(client):
    assert client.get("/healthz").status_code == 200
    before = redis_clients()

    statuses = [client.get("/healthz").status_code for _ in range(5)]

    assert statuses == [200] * 5
    assert redis_clients() == before


def healthz(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def sockets_then_health_checks(port: int, room_id: int, session: str) -> list[int]:
    """Open the table sockets, ask /healthz five times, then check every socket still answers."""
    import websockets
    from websockets.typing import Origin

    url = f"ws://127.0.0.1:{port}/ws/table/{room_id}/"
    headers = {"Cookie": f"sessionid={session}"}
    origin = Origin(f"http://127.0.0.1:{port}")
    connections = [
        await websockets.connect(url, origin=origin, additional_headers=headers)
        for _ in range(SOCKETS)
    ]
    try:
        await asyncio.gather(*(connection.recv() for connection in connections))
        statuses = []
        for _check in range(5):
            statuses.append(await asyncio.to_thread(healthz, port))
            await asyncio.sleep(1.5)
        # The sockets sat idle past the channel layer's blocking read; all are still open.
        pongs = [await connection.ping() for connection in connections]
        await asyncio.wait_for(asyncio.gather(*pongs), 5)
        return statuses
    finally:
        await asyncio.gather(*(connection.close() for connection in connections))


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_healthz_answers_200_under_daphne_with_twenty_table_sockets_open(tmp_path):
    from games.services import rooms as room_services
    from tests.factories import make_user

    owner = make_user("Owner")
    room = room_services.room_create(owner=owner)
    browser = Client()
    browser.force_login(owner)
    session = browser.cookies["sessionid"].value

    with daphne_server(tmp_path / "daphne.log") as port:
        statuses = asyncio.run(sockets_then_health_checks(port, room.pk, session))

    assert statuses == [200] * 5
