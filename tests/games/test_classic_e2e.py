"""The classic game in a real Chromium at phone width, against computers: a match of four to its
result, and a table of three and a table of two each playing a round to its end.

The player opens the room from the lobby's form (its script hides the palaristi target once
Classic is chosen), fills the seats with computers and plays: takes the turned card when asked,
names the first suit offered in the second round, then plays any card it may.
"""

from contextlib import ExitStack
from typing import Any

import pytest
from django.test import override_settings

from games.models import Match, Room, Round
from tests.conftest import chromium_browser, database_url, start_celery_worker
from tests.factories import make_user
from tests.games.test_table_e2e import PHONE, BrowserTestCase
from tests.games.test_table_live_e2e import log_in_page

pytestmark = [pytest.mark.e2e, pytest.mark.services]

# The computers play quickly and the next round starts at once, so a match fits in a test.
CLASSIC_ENV = {"BOT_PACING_SECONDS": "0.05", "ROUND_PAUSE_SECONDS": "0.1"}
# A round's summary stays up through the pause and until the next auction has gone round the
# table once: at two players a computer may take and lead within a tenth of a second, so the
# tables that check the summary pause long enough for it to be read.
SUMMARY_ENV = {"BOT_PACING_SECONDS": "0.05", "ROUND_PAUSE_SECONDS": "4"}
WAIT_MS = 15_000


@override_settings(BOT_PACING_SECONDS=0.05, ROUND_PAUSE_SECONDS=0.1)
class ClassicBrowserTestCase(BrowserTestCase):
    worker_env = CLASSIC_ENV

    def setUp(self) -> None:
        # BrowserTestCase.setUp's cleanups, with this module's faster worker.
        super(BrowserTestCase, self).setUp()
        worker = ExitStack()
        worker.enter_context(start_celery_worker(database_url(), self.worker_env))
        self.addCleanup(worker.close)
        self.addCleanup(self._stop_server)

    def open_classic_room(self, page: Any, players: int, level: str = "easy") -> Room:
        """Open a classic room of ``players`` from the lobby and seat computers of ``level``."""
        from playwright.sync_api import expect

        page.set_default_timeout(WAIT_MS)
        page.goto(f"{self.live_server_url}/en/play/")
        target = page.locator("select[name=target]")
        expect(target).to_be_visible()
        page.get_by_label("Classic", exact=True).check()
        expect(target).to_be_hidden()  # the palaristi targets are no choice of this game
        page.select_option("select[name=players]", str(players))
        page.select_option("select[name=bot_level]", level)
        page.get_by_role("button", name="Open the room").click()
        page.wait_for_url(lambda url: "/rooms/" in url)
        room = Room.objects.latest("pk")
        assert (room.variant, room.players, room.target) == ("classic", players, 1000)
        expect(page.locator(".room-seat")).to_have_count(players)
        for seat in range(1, players):
            chair = page.locator(f"#room-seat-{seat}")
            chair.get_by_role("button", name="Add a computer player").click()
            expect(chair.locator(".badge-computer")).to_be_visible(timeout=WAIT_MS)
        page.get_by_role("button", name="Start the game").click()
        expect(page.locator("#table-hand")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator(f'.board[data-players="{players}"]')).to_be_visible()
        expect(page.locator("#table-seats .seat")).to_have_count(players)
        return room

    def play_a_round(self, page: Any, players: int, level: str) -> Room:
        """Play a classic round at ``players`` against computers of ``level`` to its summary."""
        from playwright.sync_api import expect

        room = self.open_classic_room(page, players, level)
        seen: set[str] = set()

        def played() -> bool:
            ended = Round.objects.filter(match__room=room, status=Round.Status.FINISHED)
            return ended.exists()

        self.play_until(page, played, moves=600, seen=seen)
        summary = page.locator(".round-summary")
        expect(summary).to_be_visible(timeout=WAIT_MS)
        expect(summary.locator("thead th")).to_have_count(players + 1)
        expect(summary.locator("th", has_text="Total")).to_have_count(1)
        assert "turned" in seen
        assert (
            seen & {"take", "name"}
            or Round.objects.filter(
                match__room=room, actions__action__action__in=["take", "name"]
            ).exists()
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        return room

    def play_until(self, page: Any, done: Any, *, moves: int, seen: set[str]) -> None:
        """Play the player's turns until ``done()``; note in ``seen`` what the table showed."""
        for _move in range(moves):
            if done():
                return
            if page.locator("#turned-card").count():
                seen.add("turned")
            if page.locator("#table-controls[data-my-turn]").count():
                self.play_one(page, seen)
            page.wait_for_timeout(150)
        raise AssertionError("the table did not get there")

    @staticmethod
    def play_one(page: Any, seen: set[str]) -> None:
        """Take the turned card, name a suit, or play the first card that may be played."""
        take = page.locator("#table-controls button[value=take]")
        names = page.locator("#table-controls button.name-button")
        cards = page.locator("#table-hand .card-button.is-playable")
        if take.count():
            seen.add("take")
            take.click()
            page.wait_for_timeout(300)
            if page.locator("#table-hand .card-button").count() == 8:
                seen.add("eight")
        elif names.count():
            seen.add("name")
            names.first.click()
        elif cards.count():
            cards.first.click()
        elif page.locator("#table-controls button[ws-send]").count():
            page.locator("#table-controls button[ws-send]").first.click()
        page.wait_for_timeout(150)


class ClassicMatchOfFourInTheBrowser(ClassicBrowserTestCase):
    def test_a_match_of_four_against_three_computers_reaches_its_result(self) -> None:
        from playwright.sync_api import expect

        user = make_user("Eleni", language="en")
        with chromium_browser() as browser:
            page = log_in_page(browser.new_page(viewport=PHONE), self.live_server_url, user)
            room = self.open_classic_room(page, 4)
            seen: set[str] = set()

            def over() -> bool:
                return Match.objects.filter(room=room, status=Match.Status.FINISHED).exists()

            self.play_until(page, over, moves=3000, seen=seen)
            expect(page.locator(".match-result")).to_be_visible(timeout=WAIT_MS)
            match = Match.objects.get(room=room)
            assert max(match.totals) >= 1000
            sheet = page.locator(".score-sheet")
            expect(sheet.locator("thead th")).to_have_text(["Round", "Us", "Them"])
            expect(sheet.locator("tfoot td")).to_have_text([str(t) for t in match.totals])
            assert {"turned", "take"} <= seen
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@override_settings(ROUND_PAUSE_SECONDS=4)
class ClassicSmallTablesInTheBrowser(ClassicBrowserTestCase):
    worker_env = SUMMARY_ENV

    def test_a_table_of_three_and_a_table_of_two_each_play_a_round(self) -> None:
        user = make_user("Eleni", language="en")
        with chromium_browser() as browser:
            page = log_in_page(browser.new_page(viewport=PHONE), self.live_server_url, user)
            for players in (3, 2):
                self.play_a_round(page, players, "easy")


@override_settings(ROUND_PAUSE_SECONDS=4)
class ClassicTableOfThreeAgainstStrongComputers(ClassicBrowserTestCase):
    worker_env = SUMMARY_ENV

    def test_a_table_of_three_against_strong_computers_plays_a_round(self) -> None:
        """Two strong computers, searching their cards as a table of three asks, finish a round."""
        user = make_user("Eleni", language="en")
        with chromium_browser() as browser:
            page = log_in_page(browser.new_page(viewport=PHONE), self.live_server_url, user)
            room = self.play_a_round(page, 3, "strong")
        assert room.bot_level == Room.BotLevel.STRONG
