"""A real Chromium at phone width: log in, open a room, seat three computers, play a round."""

from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import TYPE_CHECKING

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from channels.testing import ChannelsLiveServerTestCase
from django.conf import settings
from django.test import override_settings

from config.celery import app as celery_app
from games.models import Round
from tests.conftest import (
    chromium_browser,
    close_connections_and_pools,
    database_url,
    start_celery_worker,
)
from tests.factories import PASSWORD, make_user

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = [pytest.mark.e2e, pytest.mark.services]

PHONE: "ViewportSize" = {"width": 390, "height": 844}
# The computers play quickly so a whole round fits in a test.
WORKER_ENV = {"BOT_PACING_SECONDS": "0.05"}


@override_settings(BOT_PACING_SECONDS=float(WORKER_ENV["BOT_PACING_SECONDS"]))
class BrowserTestCase(ChannelsLiveServerTestCase):
    """A live server in its own process, and a real Celery worker playing the computers."""

    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        # The server process opens the test database by its TEST name; give it the real one.
        database = settings.DATABASES["default"]
        cls._test_name = database.get("TEST", {}).get("NAME")
        database.setdefault("TEST", {})["NAME"] = database["NAME"]
        # The server process is forked: it must open its own channel layer, and its own thread
        # for the consumers' database calls (a forked executor keeps no thread of ours).
        channel_layers.backends.clear()
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        # The computers play in the worker, never inline in this process or the server's.
        assert not celery_app.conf.task_always_eager, "an earlier test left Celery eager"
        # The server process is forked: a connection open here would be shared by both
        # processes, and their queries would read each other's rows.
        close_connections_and_pools()
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        settings.DATABASES["default"]["TEST"]["NAME"] = cls._test_name

    def setUp(self) -> None:
        super().setUp()
        # Cleanups run last in, first out, and before the database is flushed: stop the server
        # (its socket handlers still record disconnections), then the worker, so nothing writes
        # while the tables are emptied. So each class holds a single test.
        worker = ExitStack()
        worker.enter_context(start_celery_worker(database_url(), WORKER_ENV))
        self.addCleanup(worker.close)
        self.addCleanup(self._stop_server)

    @classmethod
    def _stop_server(cls) -> None:
        cls._server_process.terminate()
        cls._server_process.join()

    @pytest.fixture(autouse=True)
    def _async_unsafe(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # Playwright's sync API runs an event loop in this thread; the ORM reads stay synchronous.
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class TableInTheBrowser(BrowserTestCase):
    def test_a_round_with_three_computers_reaches_its_summary(self) -> None:
        from playwright.sync_api import expect

        make_user("Ana", language="en")
        user = make_user("Eleni", language="en")
        with chromium_browser() as browser:
            page = browser.new_page(viewport=PHONE)
            page.goto(f"{self.live_server_url}/en/accounts/login/")
            page.fill("input[name=login]", str(user.email))
            page.fill("input[name=password]", PASSWORD)
            page.locator("form button[type=submit]").last.click()
            page.goto(f"{self.live_server_url}/en/play/")
            page.select_option("select[name=bot_level]", "easy")
            page.get_by_role("button", name="Open the room").click()
            for seat in (1, 2, 3):
                chair = page.locator(f"#room-seat-{seat}")
                chair.get_by_role("button", name="Add a computer player").click()
                expect(chair.locator(".badge-computer")).to_be_visible(timeout=15_000)
            page.get_by_role("button", name="Start the game").click()
            expect(page.locator("#table-hand")).to_be_visible(timeout=15_000)
            for _move in range(200):
                if Round.objects.exclude(status=Round.Status.PLAYING).exists():
                    break
                if page.locator("#table-controls .your-turn").count():
                    self._play_one(page)
                page.wait_for_timeout(250)
            expect(page.locator(".round-summary")).to_be_visible(timeout=15_000)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    def _play_one(self, page) -> None:  # type: ignore[no-untyped-def]
        """Pass in the auction, open with 80, or play the first card that is not dimmed."""
        passing = page.locator("button[value=pass]")
        if (
            page.locator("select[name=value]").count()
            and not Round.objects.filter(actions__action__action="bid").exists()
        ):
            page.locator(".suit-button").first.click()
        elif passing.count():
            passing.click()
        else:
            page.locator("#table-hand .card-button:not(.is-dimmed)").first.click()
        page.wait_for_timeout(200)
