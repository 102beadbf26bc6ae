"""The profile page: display name and preferred language."""

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROFILE = "/en/accounts/profile/"


def test_visitors_are_sent_to_log_in(client):
    response = client.get(PROFILE)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_the_profile_shows_the_players_own_details(player_client, player):
    html = player_client.get(PROFILE).content.decode()

    assert 'value="Andreas"' in html
    assert "andreas@example.com" in html
    assert reverse("account_email") in html
    assert reverse("account_change_password") in html
    assert reverse("accounts:delete") in html


def test_the_display_name_can_be_changed(player_client, player):
    response = player_client.post(
        PROFILE, {"display_name": "Andreas K", "preferred_language": "en"}
    )

    assert response.status_code == 302
    assert response["Location"] == PROFILE
    player.refresh_from_db()
    assert player.display_name == "Andreas K"


def test_keeping_ones_own_name_in_another_case_is_allowed(player_client, player):
    player_client.post(PROFILE, {"display_name": "ANDREAS", "preferred_language": "en"})

    player.refresh_from_db()
    assert player.display_name == "ANDREAS"


def test_a_name_taken_by_another_player_is_refused(player_client, player):
    UserFactory(display_name="Eleni")

    response = player_client.post(PROFILE, {"display_name": "eleni", "preferred_language": "en"})

    assert response.status_code == 200
    assert response.context["form"].errors["display_name"] == ["This display name is taken."]
    player.refresh_from_db()
    assert player.display_name == "Andreas"


@pytest.mark.parametrize("name", ["", "ab", "Andreas!", "a" * 31])
def test_bad_names_are_refused(player_client, player, name):
    response = player_client.post(PROFILE, {"display_name": name, "preferred_language": "en"})

    assert response.context["form"].errors["display_name"]
    player.refresh_from_db()
    assert player.display_name == "Andreas"


def test_an_unknown_language_is_refused(player_client, player):
    response = player_client.post(PROFILE, {"display_name": "Andreas", "preferred_language": "de"})

    assert response.context["form"].errors["preferred_language"]
    player.refresh_from_db()
    assert player.preferred_language == "en"


def test_changing_the_language_moves_the_player_to_it(player_client, player):
    response = player_client.post(PROFILE, {"display_name": "Andreas", "preferred_language": "el"})

    assert response["Location"] == "/el/accounts/profile/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "el"
    player.refresh_from_db()
    assert player.preferred_language == "el"
    page = player_client.get(response["Location"])
    assert "Το προφίλ σας αποθηκεύτηκε." in page.content.decode()  # noqa: RUF001


def test_a_player_only_ever_edits_their_own_profile(player_client, player, other):
    player_client.post(
        PROFILE, {"display_name": "Renamed", "preferred_language": "fr", "id": other.pk}
    )

    other.refresh_from_db()
    assert other.display_name == "Eleni"
    assert User.objects.get(display_name="Renamed") == player
