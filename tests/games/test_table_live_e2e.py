"""Two people at one table see each other's moves live; a reload mid-round picks the game up."""

import time
from typing import Any

import pytest

from accounts.models import User
from games.models import Room, Round, RoundAction
from games.selectors import round_view
from games.services import rooms as room_services
from tests.conftest import chromium_browser
from tests.factories import PASSWORD, bot_room, make_user
from tests.games.test_table_e2e import PHONE, BrowserTestCase

pytestmark = [pytest.mark.e2e, pytest.mark.services]

WAIT_MS = 15_000


def a_player(name: str) -> User:
    return make_user(name, language="en")


def log_in(browser: Any, live_server_url: str, user: User) -> Any:
    """Open a phone-sized page in a context of its own, logged in as ``user``."""
    return log_in_page(browser.new_context(viewport=PHONE).new_page(), live_server_url, user)


def log_in_page(page: Any, live_server_url: str, user: User) -> Any:
    """Log ``page`` in as ``user`` through the login form."""
    page.goto(f"{live_server_url}/en/accounts/login/")
    page.fill("input[name=login]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def playing_round(room: Room) -> Round:
    return Round.objects.filter(match__room=room, status=Round.Status.PLAYING).get()


def to_act(room: Room) -> int | None:
    return round_view(playing_round(room)).state.to_act


class TwoPlayersInTheBrowser(BrowserTestCase):
    def test_each_player_sees_the_others_move_without_reloading(self) -> None:
        from playwright.sync_api import expect

        ana, ben = a_player("Ana"), a_player("Ben")
        room = room_services.room_create(owner=ana, bot_level="easy")
        room_services.room_take_seat(room_id=room.pk, user=ben, seat=2, token=room.invite_token)
        for seat in (1, 3):
            room_services.room_fill_seat_with_bot(room_id=room.pk, user=ana, seat=seat)
        # Services send their signals with async_to_sync, which Playwright's loop forbids.
        room_services.room_start(room_id=room.pk, user=ana)
        with chromium_browser() as browser:
            pages = {
                0: log_in(browser, self.live_server_url, ana),
                2: log_in(browser, self.live_server_url, ben),
            }
            for page in pages.values():
                page.goto(f"{self.live_server_url}/en/rooms/{room.pk}/")
            for page in pages.values():
                expect(page.locator("#table-hand")).to_be_visible(timeout=WAIT_MS)
            seat = self._wait_for_a_human_turn(room)
            actor, other = pages[seat], pages[2 - seat]
            name = "Ana" if seat == 0 else "Ben"
            expect(actor.locator("#table-controls .your-turn")).to_be_visible(timeout=WAIT_MS)
            # An opening bid keeps the auction open until the other person answers it.
            actor.locator(".suit-button").first.click()
            entry = other.locator(".auction-log li", has_text=name)
            expect(entry).to_be_visible(timeout=WAIT_MS)
            expect(other.locator("#table-controls .your-turn")).to_be_visible(timeout=WAIT_MS)
            assert other.evaluate("performance.getEntriesByType('navigation').length") == 1

    def _wait_for_a_human_turn(self, room: Room) -> int:
        """Wait until the computers have played up to the first person's turn."""
        for _poll in range(100):
            seat = to_act(room)
            if seat in (0, 2):
                return seat
            time.sleep(0.1)
        pytest.fail("no person's turn came")


class ReloadInTheBrowser(BrowserTestCase):
    def test_a_reload_mid_round_restores_the_hand_and_trick(self) -> None:
        from playwright.sync_api import expect

        ana = a_player("Ana")
        room = bot_room(ana, bot_level="easy")
        room_services.room_start(room_id=room.pk, user=ana)
        with chromium_browser() as browser:
            page = log_in(browser, self.live_server_url, ana)
            page.goto(f"{self.live_server_url}/en/rooms/{room.pk}/")
            expect(page.locator("#table-hand")).to_be_visible(timeout=WAIT_MS)
            self._play_until_my_card_turn(page, room)
            hand = page.locator("#table-hand .card-button")
            trick = page.locator(".trick .trick-card")
            cards, on_table = hand.count(), trick.count()

            page.reload()

            expect(page.locator("#table-controls .your-turn")).to_be_visible(timeout=WAIT_MS)
            expect(hand).to_have_count(cards)
            expect(trick).to_have_count(on_table)
            played = RoundAction.objects.filter(actor=ana, action__action="play").count()
            page.locator("#table-hand .card-button:not(.is-dimmed)").first.click()
            expect(hand).to_have_count(cards - 1, timeout=WAIT_MS)
            assert RoundAction.objects.filter(actor=ana, action__action="play").count() > played

    def _play_until_my_card_turn(self, page: Any, room: Room) -> None:
        """Open the auction, pass after, until a card of Ana's own is wanted in the play phase."""
        for _move in range(200):
            if page.locator("#table-controls .your-turn").count() and to_act(room) == 0:
                if page.locator("#table-hand .card-button:not(.is-dimmed)").count() and (
                    playing_round(room).actions.filter(action__action="play").exists()
                ):
                    return
                self._act(page, room)
            page.wait_for_timeout(250)
        pytest.fail("the play phase never reached Ana's turn")

    def _act(self, page: Any, room: Room) -> None:
        round_ = playing_round(room)
        passing = page.locator("button[value=pass]")
        if (
            page.locator("select[name=value]").count()
            and not round_.actions.filter(action__action="bid").exists()
        ):
            page.locator(".suit-button").first.click()
        elif passing.count():
            passing.click()
        else:
            page.locator("#table-hand .card-button:not(.is-dimmed)").first.click()
        page.wait_for_timeout(200)
