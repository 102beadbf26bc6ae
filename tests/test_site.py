"""The site's frame: languages, the language switcher and the landing page."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_home_page_is_served_in_each_language(client, language):
    response = client.get(f"/{language}/")

    assert response.status_code == 200
    assert re.search(rf'<html lang="{language}"', response.content.decode())


def test_root_redirects_to_the_browser_language(client):
    response = client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"})

    assert response.status_code == 302
    assert response["Location"] == "/fr/"


def test_greek_is_the_default_language(client):
    response = client.get("/", headers={"accept-language": "de"})

    assert response["Location"] == "/el/"


def test_page_offers_every_language_in_the_switcher(client):
    html = client.get("/en/").content.decode()

    assert f'action="{reverse("set_language")}"' in html
    for code, name in [("el", "Ελληνικά"), ("en", "English"), ("fr", "français")]:
        assert f'<option value="{code}"' in html
        assert name in html


def test_language_switcher_moves_the_page_to_the_chosen_language(client):
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/en/"})

    assert response.status_code == 302
    assert response["Location"] == "/fr/"
    assert client.get("/fr/").content.decode().count('lang="fr"') >= 1
    assert client.cookies["django_language"].value == "fr"


def test_language_switcher_ignores_an_unknown_language(client):
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/en/"})

    assert response["Location"] == "/en/"
    assert "django_language" not in client.cookies


def test_language_switcher_refuses_a_foreign_next_url(client):
    response = client.post(
        reverse("set_language"), {"language": "fr", "next": "https://evil.example/"}
    )

    assert response["Location"] == "/"


def test_pages_carry_htmx_and_its_websocket_extension_from_our_static_files(client):
    html = client.get("/en/").content.decode()

    assert "/static/vendor/htmx/htmx-2.0.11.min.js" in html
    assert "/static/vendor/htmx/htmx-ext-ws-2.0.4.min.js" in html
    assert "X-CSRFToken" in html
    # Every script and stylesheet comes from our own static files, and no address on the page
    # points at a CDN. Only addresses are read: a random CSRF token may spell "cdn".
    assets = re.findall(r'<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"', html)
    assert assets
    assert all(asset.startswith("/static/") for asset in assets), assets
    addresses = re.findall(r"(?:https?:)?//[^\s\"'<>]+", html)
    assert not [a for a in addresses if "cdn" in a.lower() or "unpkg" in a.lower()], addresses


def test_page_is_phone_first(client):
    html = client.get("/en/").content.decode()

    assert 'name="viewport" content="width=device-width, initial-scale=1' in html


def test_every_page_names_its_icons_and_manifest(client):
    page = client.get("/en/").content.decode()

    for name in ("icons/icon.svg", "icons/icon-32.png", "icons/icon-180.png"):
        assert name in page
    assert 'rel="manifest"' in page


def test_the_favicon_address_points_at_an_icon_that_exists(client):
    from django.conf import settings

    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"].endswith("icons/icon-32.png")
    assert (settings.BASE_DIR / "static" / "icons" / "icon-32.png").exists()


def test_the_manifest_lets_a_phone_add_the_site_to_its_home_screen():
    import json

    from django.conf import settings

    static = settings.BASE_DIR / "static"
    manifest = json.loads((static / "manifest.webmanifest").read_text())

    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (static / icon["src"]).exists()


def test_the_admin_names_each_section_once(admin_client):
    page = admin_client.get("/en/admin/").content.decode()

    assert page.count(">Accounts<") <= 1
    assert "Players and friends" in page
