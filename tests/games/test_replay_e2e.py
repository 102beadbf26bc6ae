"""A real Chromium on a small phone steps through a replay with the arrow keys and the buttons."""

import re

import pytest
from django.test import Client
from django.utils import translation

from tests.conftest import chromium_browser
from tests.factories import make_user
from tests.games.replays import NAMES, play_scripted_round, replay_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 360, "height": 740}
STEPS = 11  # the deal, the auction, eight tricks, the score


@pytest.fixture
def replay_page(live_server, queued, monkeypatch):
    """Open the replay in Chromium on a small phone, logged in as the player in seat 0."""
    # Playwright's sync API runs an event loop in this thread; the ORM reads stay synchronous.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    players = [make_user(name) for name in NAMES]
    room, round_ = play_scripted_round(players)
    with translation.override("en"):
        url = f"{live_server.url}{replay_url(room, round_)}"
    session = Client()
    session.force_login(players[0])
    with chromium_browser() as browser:
        context = browser.new_context(viewport=SMALL_PHONE)
        context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": session.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        page.goto(url)
        yield page


def test_the_arrow_keys_and_buttons_step_and_nothing_scrolls_sideways(replay_page):
    from playwright.sync_api import expect

    page = replay_page

    def shown() -> list[str]:
        return page.eval_on_selector_all(
            "[data-replay-step]:not([hidden])", "steps => steps.map(s => s.id)"
        )

    def fits() -> bool:
        return page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]

    assert shown() == ["step-1"]
    assert fits()
    for number in range(2, STEPS + 1):
        page.keyboard.press("ArrowRight")
        assert shown() == [f"step-{number}"]
        assert fits(), f"step {number} scrolls sideways"
    expect(page).to_have_url(f"{page.url.split('?')[0]}?step={STEPS}")
    language_next = page.locator(".language-switcher input[name=next]")
    expect(language_next).to_have_value(re.compile(rf"\?step={STEPS}$"))
    page.keyboard.press("ArrowRight")
    assert shown() == [f"step-{STEPS}"]
    page.keyboard.press("ArrowLeft")
    assert shown() == [f"step-{STEPS - 1}"]

    previous = page.locator("[data-replay-previous]")
    box = previous.bounding_box()
    assert box is not None
    assert (box["width"], box["height"]) >= (44, 44)
    previous.click()
    assert shown() == [f"step-{STEPS - 2}"]
    page.locator(".replay-chip", has_text="Deal").click()
    assert shown() == ["step-1"]
    expect(page.locator("[data-replay-previous]")).to_have_attribute("aria-disabled", "true")
    page.reload()
    assert shown() == ["step-1"]
