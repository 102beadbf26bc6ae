"""Content-Security-Policy: the header, no inline code in any page, and SameSite cookies."""

from html.parser import HTMLParser

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from accounts.models import User
from games.services import rooms as room_services
from tests.factories import PASSWORD, UserFactory, make_user, seated_room

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parsed = {}
    for directive in header.split(";"):
        name, *values = directive.split()
        parsed[name] = values
    return parsed


def test_every_page_carries_a_policy_without_inline_code(client):
    policy = directives(client.get("/en/"))

    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]


def test_the_policy_allows_this_hosts_websockets_and_no_other(client):
    plain = directives(client.get("/en/"))
    secure = directives(client.get("/en/", secure=True))

    assert plain["connect-src"] == ["'self'", "ws://testserver"]
    assert secure["connect-src"] == ["'self'", "wss://testserver"]


class InlineCode(HTMLParser):
    """Collect every piece of markup the policy would refuse to run or apply."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _value in attrs}
        if tag == "script" and "src" not in names and ("type", "application/json") not in attrs:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("inline <style>")
        for name in names:
            if name.startswith(("on", "hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}=...>")
            if name == "style":
                self.found.append(f"<{tag} style=...>")
        for name, value in attrs:
            if value and value.lstrip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def test_the_scanner_finds_inline_code():
    html = (
        '<script>alert(1)</script><script src="/a.js"></script><p style="x">'
        '<select onchange="go()"></select><div hx-on:click="x"></div><a href="javascript:x">'
    )

    assert inline_code(html) == [
        "inline <script>",
        "<p style=...>",
        "<select onchange=...>",
        "<div hx-on:click=...>",
        "<a href=javascript:...>",
    ]


def page_html(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert "Content-Security-Policy" in response, url
    return response.content.decode()


VISITOR_PAGES = [
    "/en/",
    "/el/",
    "/en/rules/",
    "/en/accounts/login/",
    "/en/accounts/signup/",
    "/en/accounts/password/reset/",
    "/en/waitlist/thanks/",
]


@pytest.mark.parametrize("url", VISITOR_PAGES)
def test_visitor_pages_have_no_inline_code(client, settings, url):
    settings.SIGNUP_MODE = "open"

    assert inline_code(page_html(client, url)) == []


@pytest.fixture
def players() -> list[User]:
    return [make_user(f"Seat{n}") for n in range(4)]


def test_player_pages_and_the_live_table_have_no_inline_code(client, players):
    owner = players[0]
    waiting = room_services.room_create(owner=owner)
    playing = seated_room(players)
    room_services.room_start(room_id=playing.pk, user=owner)
    client.force_login(owner)
    urls = [
        "/en/play/",
        f"/en/rooms/{waiting.pk}/",
        f"/en/rooms/{playing.pk}/",
        "/en/accounts/profile/",
        "/en/accounts/friends/",
        "/en/accounts/email/",
        "/en/accounts/password/change/",
    ]

    found = {url: inline_code(page_html(client, url)) for url in urls}

    assert found == {url: [] for url in urls}
    table = page_html(client, f"/en/rooms/{playing.pk}/")
    assert 'id="table-hand"' in table


def test_the_pending_email_change_page_has_no_inline_style(client):
    user = UserFactory()
    EmailAddress.objects.create(user=user, email="new@example.com", verified=False)
    client.force_login(user)

    html = page_html(client, "/en/accounts/email/")

    assert 'id="pending-email"' in html
    assert inline_code(html) == []


def test_staff_pages_have_no_inline_code(client):
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    users = "/en/admin/accounts/user/"
    urls = ["/en/admin/", users, f"{users}add/", f"{users}{staff.pk}/change/"]

    found = {url: inline_code(page_html(client, url)) for url in urls}

    assert found == {url: [] for url in urls}


def test_every_cookie_is_samesite_lax(client, players):
    login = client.post("/en/accounts/login/", {"login": players[0].email, "password": PASSWORD})
    language = client.post("/i18n/setlang/", {"language": "fr", "next": "/fr/"})
    form = client.get("/en/accounts/login/")

    cookies = {**login.cookies, **language.cookies, **form.cookies}
    assert {"sessionid", "csrftoken", "django_language"} <= set(cookies)
    assert {name: cookie["samesite"] for name, cookie in cookies.items()} == dict.fromkeys(
        cookies, "Lax"
    )
