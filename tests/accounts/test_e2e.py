"""A phone in Chromium: sign up, verify, log in, switch language, make a friend."""

import re

import pytest
from django.core import mail

from accounts.models import Friendship, User
from tests.conftest import chromium_browser
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_page(monkeypatch):
    # Playwright's sync API keeps an event loop in this thread; the test still queries the ORM.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with chromium_browser() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        context.close()


def log_in(page, base_url, email):
    page.goto(f"{base_url}/en/accounts/login/")
    page.fill("input[name=login]", email)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")


def fits_the_screen(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_sign_up_verify_log_in_switch_language_and_make_a_friend(
    live_server, browser_page, settings
):
    settings.SIGNUP_MODE = "open"
    UserFactory(display_name="Eleni", email="eleni@example.com", preferred_language="el")
    page = browser_page
    base = live_server.url

    page.goto(f"{base}/en/accounts/signup/")
    assert fits_the_screen(page)
    page.fill("input[name=email]", "maria@example.com")
    page.fill("input[name=display_name]", "Maria")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/en/accounts/confirm-email/$"))

    link = re.search(r"http://\S+/accounts/confirm-email/\S+/", mail.outbox[-1].body).group(0)
    page.goto(link)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/en/accounts/login/$"))

    log_in(page, base, "maria@example.com")
    page.wait_for_url(f"{base}/en/play/")
    assert page.locator("nav .nav-user").inner_text() == "Maria"

    with page.expect_navigation():
        page.select_option("#language-select", "fr")
    assert page.url == f"{base}/fr/play/"
    assert page.locator("html").get_attribute("lang") == "fr"

    page.click("nav >> text=Amis")
    page.wait_for_url(f"{base}/fr/accounts/friends/")
    assert fits_the_screen(page)
    page.fill("#id_q", "Ele")
    page.click("form.search-form button[type=submit]")
    page.locator("#search-results >> text=Eleni").wait_for()
    page.click("#search-results button:has-text('Ajouter en ami')")
    page.locator(".messages >> text=Demande d’ami envoyée à Eleni.").wait_for()  # noqa: RUF001

    page.goto(f"{base}/fr/accounts/profile/")
    page.click("button:has-text('Se déconnecter')")
    log_in(page, base, "eleni@example.com")
    page.wait_for_url(f"{base}/el/play/")
    page.click("nav >> text=Φίλοι")
    page.click("main button:has-text('Αποδοχή')")
    page.locator(".messages >> text=είστε πλέον φίλοι").wait_for()

    maria = User.objects.get(email="maria@example.com")
    assert maria.preferred_language == "en"
    assert Friendship.objects.count() == 1
    assert page.locator("main .row-list .name", has_text="Maria").count() == 1
