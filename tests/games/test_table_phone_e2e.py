"""The table at a glance on real phones' screens, in Greek, English and French.

At 360 x 740 and 390 x 844 a real Chromium checks what a player must see without scrolling: each
card of the trick inside the area of the seat that played it, the score strip and the contract
during play, a refusal inside the viewport, the match result inside it; that nothing scrolls
sideways, that every control is at least 44 x 44 CSS px (each card of the hand keeps an exposed
40 x 44 strip, found with elementFromPoint) and that axe-core finds nothing serious or critical.
"""

import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import Action, Bid, Pass, Play
from games.models import Match, Room, Round
from games.services import rooms as room_services
from games.services import table as table_services
from games.snapshots import round_state_cached
from tests.conftest import chromium_browser
from tests.factories import bot_room, make_user, seated_room
from tests.games.test_table_e2e import BrowserTestCase
from tests.games.test_table_live_e2e import log_in_page

# A live server on PostgreSQL and Redis, a Celery worker and a real Chromium.
pytestmark = [pytest.mark.e2e, pytest.mark.services]

PHONES = ({"width": 360, "height": 740}, {"width": 390, "height": 844})
LANGUAGES = ("el", "en", "fr")
WAIT_MS = 15_000
AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core.min.js"

# Every control a finger uses, with its size; a checkbox counts with its label, which takes the
# same tap.
TARGETS_JS = """
(scope) => {
  const root = document.querySelector(scope) || document.body;
  const found = [];
  for (const el of root.querySelectorAll('a[href], button, select, input, summary, [tabindex]')) {
    if (el.closest('#table-hand') || el.type === 'hidden') continue;
    const label = el.labels && el.labels.length ? el.labels[0] : null;
    const target = (el.type === 'checkbox' || el.type === 'radio') && label ? label : el;
    const box = target.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden') continue;
    found.push({what: el.outerHTML.slice(0, 90), width: box.width, height: box.height});
  }
  return found;
}
"""

# The last card of the hand that may not be played now, scrolled into view, and its box.
UNPLAYABLE_CARD_JS = """
() => {
  const cards = document.querySelectorAll('#table-hand .card-button:not(.is-playable)');
  const card = cards[cards.length - 1];
  if (!card) return null;
  card.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const box = card.getBoundingClientRect();
  return {x: box.x, y: box.y, height: box.height};
}
"""

HAND_JS = """
() => {
  const cards = [...document.querySelectorAll('#table-hand .card-button')];
  return cards.map((card, i) => {
    const box = card.getBoundingClientRect();
    const next = cards[i + 1];
    const right = next ? next.getBoundingClientRect().left : box.right;
    const x = box.left + (right - box.left) / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {exposed: right - box.left, height: box.height, hits: !!hit && card.contains(hit)};
  });
}
"""

INSIDE_JS = """
() => [...document.querySelectorAll('.seat .trick-card')].map((card) => {
  const seat = card.closest('.seat').getBoundingClientRect();
  const box = card.getBoundingClientRect();
  return box.left >= seat.left - 0.5 && box.right <= seat.right + 0.5
    && box.top >= seat.top - 0.5 && box.bottom <= seat.bottom + 0.5;
})
"""

BOXES_JS = """
() => [...document.querySelectorAll('.seat .trick-card')].map((card) => {
  const seat = card.closest('.seat').getBoundingClientRect();
  const box = card.getBoundingClientRect();
  return [card.closest('.seat').className, seat.left, seat.right, seat.top, seat.bottom,
          box.left, box.right, box.top, box.bottom];
})
"""


def assert_in_view(page: Any, selector: str, where: str) -> None:
    """Wait until the whole of ``selector`` lies inside the viewport (a fragment the socket
    swaps in may replace it while it is measured)."""
    from playwright.sync_api import expect

    expect(page.locator(selector).first, where).to_be_in_viewport(ratio=1, timeout=WAIT_MS)


def small_targets(page: Any, scope: str = "main") -> list[dict[str, Any]]:
    return [t for t in page.evaluate(TARGETS_JS, scope) if t["width"] < 44 or t["height"] < 44]


def serious_violations(page: Any) -> list[str]:
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])})"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def finish_match(room: Room, players: list) -> None:
    """Play a whole match of four people through the table's own service."""
    rng = random.Random(7)
    while not Match.objects.filter(room=room, status=Match.Status.FINISHED).exists():
        round_ = Round.objects.get(match__room=room, status=Round.Status.PLAYING)
        state = round_state_cached(round_)
        legal = state.legal_actions()
        action: Action
        if state.phase == "auction":
            bids = [a for a in legal if isinstance(a, Bid)]
            action = bids[0] if state.high_bid is None and bids else Pass()
        else:
            action = rng.choice([a for a in legal if not isinstance(a, Play) or not a.pilotta])
        seat = state.to_act
        assert seat is not None
        table_services.round_apply_action(
            round_id=round_.pk, seat=seat, action=action, actor=players[seat]
        )


class TheTableOnPhones(BrowserTestCase):
    def test_the_table_reads_at_a_glance_on_phones_in_every_language(self) -> None:

        ana = make_user("Ana", language="en")
        playing = bot_room(ana, bot_level="easy", target=251)
        room_services.room_start(room_id=playing.pk, user=ana)
        people = [make_user(name, language="en") for name in ("Dora", "Loukas", "Niki", "Stelios")]
        finished = seated_room(people, target=251)
        room_services.room_start(room_id=finished.pk, user=people[0])
        finish_match(finished, people)
        seating = room_services.room_create(owner=ana)
        with chromium_browser() as browser:
            for phone in PHONES:
                for language in LANGUAGES:
                    where = f"{phone['width']}x{phone['height']} {language}"
                    page = self._phone(browser, phone, ana)
                    self._check_playing_table(page, playing, language, where)
                    self._check_pages(page, language, where, seating)
                    page.context.close()
                    page = self._phone(browser, phone, people[0])
                    self._check_finished_match(page, finished, language, where)
                    page.context.close()

    def _phone(self, browser: Any, phone: dict[str, int], user: Any) -> Any:
        context = browser.new_context(
            viewport=phone,
            is_mobile=True,
            has_touch=True,
            reduced_motion="reduce",
            bypass_csp=True,  # axe-core is injected by the test, not served by the site
        )
        return log_in_page(context.new_page(), self.live_server_url, user)

    def _check_playing_table(self, page: Any, room: Room, language: str, where: str) -> None:
        from playwright.sync_api import expect

        page.goto(f"{self.live_server_url}/{language}/rooms/{room.pk}/")
        expect(page.locator("#table-hand .card-button").first).to_be_visible(timeout=WAIT_MS)
        assert self._no_sideways_scroll(page), where
        refused = False
        for _move in range(160):
            page.wait_for_timeout(150)
            my_turn = page.locator("#table-controls .your-turn").count() > 0
            if page.locator(".seat .trick-card").count():
                inside = page.evaluate(INSIDE_JS)
                assert all(inside), f"{where}: a card outside its seat {page.evaluate(BOXES_JS)}"
                assert_in_view(page, "#table-strip", where)
                assert page.locator("#table-strip .contract-holder").count() == 1, where
            if not my_turn:
                continue
            if not refused and page.locator("#table-hand .card-button:not(.is-playable)").count():
                # A card that may not be played now (the auction, or a rule of play): a tap
                # as a finger makes it, wherever the card's strip lies.
                self._tap_unplayable_card(page)
                error = page.locator("#table-message.table-message-error")
                expect(error).to_be_visible(timeout=WAIT_MS)
                assert_in_view(page, "#table-message", f"{where}: refusal out of view")
                refused = True
                continue
            if page.locator("#table-hand .card-button.is-playable").count():
                if refused and page.locator(".seat .trick-card").count():
                    self._check_hand_and_targets(page, where)
                    self._check_axe(page, where)
                    self._check_turn_cues_are_remembered(page, where)
                    return
                page.locator("#table-hand .card-button.is-playable").first.tap()
            elif page.locator("button[value=pass]").count():
                page.locator("button[value=pass]").tap()
            elif page.locator("button.suit-button").count():
                page.locator("button.suit-button").first.tap()
            elif page.locator("#table-controls button[ws-send]").count():
                page.locator("#table-controls button[ws-send]").first.tap()
        raise AssertionError(f"{where}: the table never reached a trick on the player's turn")

    @staticmethod
    def _check_turn_cues_are_remembered(page: Any, where: str) -> None:
        """The vibration and the sound are off until turned on, then kept on this device."""
        page.locator(".table-settings > summary").tap()
        vibrate = page.locator("input[data-turn-cue=vibrate]")
        assert not vibrate.is_checked(), where
        vibrate.check()
        page.reload()
        page.locator(".table-settings > summary").tap()
        assert page.locator("input[data-turn-cue=vibrate]").is_checked(), where
        assert not page.locator("input[data-turn-cue=sound]").is_checked(), where

    @staticmethod
    def _tap_unplayable_card(page: Any) -> None:
        """Tap the last unplayable card's strip, where a finger finds it: after a raised card
        when there is one, which must not hide it."""
        # Found, scrolled to and measured in one step inside the page: the hand may be swapped
        # for an identical one at any moment, which detaches a card held between two steps.
        box = None
        for _attempt in range(20):
            box = page.evaluate(UNPLAYABLE_CARD_JS)
            page.wait_for_timeout(100)
            if box is not None and box == page.evaluate(UNPLAYABLE_CARD_JS):
                break  # in view and still, as a finger sees it
        assert box is not None, "no unplayable card to tap"
        page.touchscreen.tap(box["x"] + 20, box["y"] + box["height"] - 10)

    def _check_hand_and_targets(self, page: Any, where: str) -> None:
        # Measured once the hand has settled: a card being raised is still on its way.
        cards = page.evaluate(HAND_JS)
        for _attempt in range(10):
            if all(card["hits"] for card in cards):
                break
            page.wait_for_timeout(150)
            cards = page.evaluate(HAND_JS)
        for card in cards:
            assert card["exposed"] >= 40, (where, card)
            assert card["height"] >= 44, (where, card)
            assert card["hits"], (where, card)
        assert small_targets(page) == [], where
        assert small_targets(page, ".site-header") == [], where

    def _check_axe(self, page: Any, where: str) -> None:
        assert serious_violations(page) == [], where

    def _check_pages(self, page: Any, language: str, where: str, seating: Room) -> None:
        for path in ("rules/", "accounts/friends/", "accounts/profile/"):
            page.goto(f"{self.live_server_url}/{language}/{path}")
            assert self._no_sideways_scroll(page), f"{where} /{path}"
        # The landing, the lobby, a room being seated: sizes and axe-core too.
        for path in ("", "play/", f"rooms/{seating.pk}/"):
            page.goto(f"{self.live_server_url}/{language}/{path}")
            assert self._no_sideways_scroll(page), f"{where} /{path}"
            if path:
                assert small_targets(page) == [], f"{where} /{path}"
            assert serious_violations(page) == [], f"{where} /{path}"

    def _check_finished_match(self, page: Any, room: Room, language: str, where: str) -> None:
        from playwright.sync_api import expect

        page.goto(f"{self.live_server_url}/{language}/rooms/{room.pk}/")
        result = page.locator(".match-result")
        expect(result).to_be_visible(timeout=WAIT_MS)
        assert_in_view(page, ".match-result", f"{where}: the result is out of view")
        assert self._no_sideways_scroll(page), where
        page.locator(".match-result > summary").tap()  # folded, the sheet is in reach
        assert small_targets(page) == [], where
        page.locator("#table-score .sheet-round").first.tap()  # the replay of round 1
        page.wait_for_url(lambda url: "/replay/" in url)
        assert self._no_sideways_scroll(page), f"{where} replay"
        assert small_targets(page) == [], f"{where} replay"

    @staticmethod
    def _no_sideways_scroll(page: Any) -> bool:
        return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
