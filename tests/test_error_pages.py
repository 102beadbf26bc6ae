"""Error pages speak the page's language, fit a phone and lead back to the site."""

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error

from lobby.models import WaitlistEntry
from tests.factories import make_user

VIEWPORT = '<meta name="viewport" content="width=device-width'


@pytest.fixture(autouse=True)
def empty_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Page not found"),
        ("el", "Η σελίδα δεν βρέθηκε"),  # noqa: RUF001
        ("fr", "Page introuvable"),
    ],
)
def test_an_unknown_address_gets_the_sites_own_page_in_its_language(client, language, heading):
    response = client.get(f"/{language}/rooms/no-such-room/")

    assert response.status_code == 404
    assert f"<h1>{heading}</h1>" in response.text
    assert VIEWPORT in response.text
    assert f'href="/{language}/"' in response.text


@pytest.mark.django_db
def test_a_closed_room_answers_with_the_same_page(client):
    client.force_login(make_user("Ana"))

    with translation.override("en"):
        response = client.get(reverse("games:room", args=[987654]))

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "This page has expired"),
        ("el", "Η σελίδα έληξε"),  # noqa: RUF001
        ("fr", "Cette page a expiré"),
    ],
)
def test_a_form_without_its_csrf_token_is_refused_plainly_and_changes_nothing(language, heading):
    client = Client(enforce_csrf_checks=True)
    with translation.override(language):
        url = reverse("lobby:waitlist_join")

    response = client.post(url, {"email": "ana@example.com"})

    assert response.status_code == 403
    assert f"<h1>{heading}</h1>" in response.text
    assert "CSRF verification failed" not in response.text
    assert not WaitlistEntry.objects.exists()


@pytest.mark.django_db
def test_a_request_for_another_host_gets_the_bad_request_page(client):
    response = client.get("/en/", headers={"host": "pilotta.example.com"})

    assert response.status_code == 400
    assert "<h1>Bad request</h1>" in response.text


@pytest.mark.django_db
def test_a_staff_page_without_the_permission_gets_the_not_allowed_page(client):
    user = make_user("Ana")
    user.is_staff = True
    user.save()
    client.force_login(user)

    response = client.get(reverse("admin:accounts_user_changelist"))

    assert response.status_code == 403
    assert "<h1>Not allowed</h1>" in response.text


# No database mark: the error page must render when the database is what failed.
@pytest.mark.parametrize(
    ("language", "heading"),
    [("en", "Something went wrong"), ("el", "Κάτι πήγε στραβά"), ("fr", "Une erreur est survenue")],
)
def test_a_server_error_page_needs_neither_database_nor_session(language, heading):
    request = RequestFactory().get(f"/{language}/")

    with translation.override(language):
        response = server_error(request)

    text = response.content.decode()
    assert response.status_code == 500
    assert f"<h1>{heading}</h1>" in text
    assert VIEWPORT in text
    assert f'href="/{language}/"' in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "This address opens from a button"),
        ("el", "Αυτή η διεύθυνση ανοίγει από ένα κουμπί"),
        ("fr", "Cette adresse s’ouvre par un bouton"),  # noqa: RUF001
    ],
)
def test_a_forms_address_opened_by_hand_gets_the_sites_own_page(client, language, heading):
    client.force_login(make_user("Ana"))

    response = client.get(f"/{language}/play/new/")

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert f"<h1>{heading}</h1>" in response.text
    assert VIEWPORT in response.text
    assert f'href="/{language}/"' in response.text


@pytest.mark.django_db
def test_a_script_sending_the_wrong_method_keeps_the_bare_answer(client):
    user = make_user("Ana")
    client.force_login(user)
    room_url = reverse("games:room_create")

    response = client.put(room_url)

    assert response.status_code == 405
    assert response.content == b""
