"""A real Chromium at phone width meets no Content-Security-Policy violation on our pages."""

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from games.services import rooms as room_services
from tests.conftest import chromium_browser
from tests.daphne_server import daphne_server
from tests.factories import make_user, seated_room
from tests.games.test_table_e2e import PHONE

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, WebSocket

pytestmark = [pytest.mark.e2e, pytest.mark.services]


@pytest.mark.django_db(transaction=True)
def test_the_landing_page_and_a_live_table_run_without_a_policy_violation(tmp_path, monkeypatch):
    from playwright.sync_api import expect

    # Playwright's sync API runs an event loop in this thread; the ORM reads stay synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    players = [make_user(f"Seat{n}") for n in range(4)]
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    browser_session = Client()
    browser_session.force_login(players[0])
    session = browser_session.cookies["sessionid"].value
    console: list[str] = []
    frames: list[str] = []

    def watch_socket(socket: "WebSocket") -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    with daphne_server(tmp_path / "daphne.log") as port, chromium_browser() as browser:
        site = f"http://127.0.0.1:{port}"
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([{"name": "sessionid", "value": session, "url": site}])
        page = context.new_page()
        page.on("console", lambda message: console.append(message_text(message)))
        page.on("websocket", watch_socket)

        page.goto(f"{site}/en/")
        # The language switcher's script lives in a static file now.
        page.select_option("#language-select", "fr")
        page.wait_for_url(f"{site}/fr/")
        page.goto(f"{site}/en/rooms/{room.pk}/")
        expect(page.locator("#table-hand")).to_be_visible()
        page.wait_for_function("document.querySelector('[ws-connect]') !== null")
        page.wait_for_timeout(1500)

    assert frames, "the table's websocket never delivered the table"
    assert [text for text in console if "Content Security Policy" in text] == []


def message_text(message: "ConsoleMessage") -> str:
    return f"{message.type}: {message.text}"
