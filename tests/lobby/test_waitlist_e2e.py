"""Joining the waitlist in a real Chromium at phone width, with and without JavaScript."""

import re

import pytest
from django.core import mail
from django.core.cache import cache

from lobby.models import WaitlistEntry
from tests.conftest import chromium_browser

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
CONFIRM_LINK = re.compile(r"https?://\S+/waitlist/confirm/[^/\s]+/")


@pytest.fixture
def chromium(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the test's own ORM reads are
    # still plain synchronous calls, made while the browser waits.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with chromium_browser() as browser:
        yield browser


@pytest.fixture
def site(live_server, settings, eager_celery):
    """The live server, with emails sent in the request's thread and links pointing at it."""
    settings.SITE_URL = live_server.url
    cache.clear()
    yield live_server.url
    cache.clear()


def confirmation_link() -> str:
    assert len(mail.outbox) == 1
    match = CONFIRM_LINK.search(str(mail.outbox[0].body))
    assert match
    return match.group(0)


def test_a_visitor_joins_the_waitlist_and_confirms_on_a_phone(chromium, site):
    page = chromium.new_page(viewport=PHONE)
    page.goto(f"{site}/el/")

    # The demo table fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.get_by_role("img", name="Ρήγας κούπα").is_visible()
    page.get_by_label("Διεύθυνση email").fill("ana@example.com")
    page.get_by_label("Γλώσσα που προτιμάτε").select_option("fr")
    page.get_by_role("button", name="Μπείτε στη λίστα αναμονής").click()

    page.get_by_role("status").filter(has_text="ελέγξτε τα εισερχόμενά σας").wait_for()
    assert page.url == f"{site}/el/"  # htmx swapped the form in place
    assert WaitlistEntry.objects.get().status == WaitlistEntry.Status.PENDING

    page.goto(confirmation_link())
    assert WaitlistEntry.objects.get().status == WaitlistEntry.Status.PENDING
    page.get_by_role("button", name="Confirmer ma place").click()

    page.get_by_role("heading", name="Vous êtes sur la liste").wait_for()
    entry = WaitlistEntry.objects.get()
    assert (entry.email, entry.language, entry.status) == ("ana@example.com", "fr", "confirmed")


def test_the_waitlist_works_without_javascript(chromium, site):
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/en/")

    page.get_by_label("Email address").fill("ben@example.com")
    page.get_by_role("button", name="Join the waitlist").click()

    page.get_by_role("heading", name="Almost there: check your inbox.").wait_for()
    assert page.url == f"{site}/en/waitlist/thanks/"
    page.goto(confirmation_link())
    page.get_by_role("button", name="Confirm my place").click()
    page.get_by_role("heading", name="You are on the list").wait_for()
    assert WaitlistEntry.objects.get().status == WaitlistEntry.Status.CONFIRMED
    context.close()
