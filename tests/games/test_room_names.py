"""A room's name: the owner's default, renaming from the room page, and where the name shows."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from accounts.services import guest_create
from games.errors import GameError
from games.models import Room
from games.services import rooms as room_services
from games.snapshots import table_snapshot
from tests.factories import UserFactory, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def owner(db):
    return make_user("Maria")


@pytest.fixture
def room(owner):
    return room_services.room_create(owner=owner)


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def rename(client, room, name):
    return client.post(reverse("games:room_rename", args=[room.pk]), {"name": name})


def default_in(language: str, owner_name: str) -> str:
    with translation.override(language):
        return gettext("%(name)s's table") % {"name": owner_name}


def test_a_new_room_is_called_after_its_owner(room):
    assert room.name == ""
    assert str(room) == "Maria's table"


@pytest.mark.parametrize("language", ["el", "en", "fr"])
def test_the_default_name_is_written_in_the_readers_language(room, language):
    with translation.override(language):
        assert room.title == default_in(language, "Maria")


def test_the_default_name_follows_the_owners_new_display_name(room, owner):
    owner.display_name = "Kyria Maria"
    owner.save()

    assert Room.objects.get(pk=room.pk).title == "Kyria Maria's table"


def test_a_guests_play_now_room_gets_the_default_name(queued):
    guest = guest_create(language="en")

    room = room_services.room_play_now(user=guest, level="easy", target=251)

    assert room.name == ""
    assert room.title == f"{guest.display_name}'s table"


def test_the_room_page_shows_the_name_in_its_title_and_heading(owner_client, room):
    response = owner_client.get(reverse("games:room", args=[room.pk]))

    assert "<title>Maria&#x27;s table · Pilotta.io</title>" in response.text
    assert '<h1 class="room-title">Maria&#x27;s table</h1>' in response.text
    assert reverse("games:room_rename", args=[room.pk]) in response.text
    # The default is a hint in the field, not a value that would be saved in one language.
    assert 'placeholder="Maria&#x27;s table"' in response.text
    assert 'name="name" value=' not in response.text


def test_the_owner_renames_the_room(owner_client, room):
    response = rename(owner_client, room, "  Kafenio tou Lefteri  ")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:room", args=[room.pk])
    room.refresh_from_db()
    assert room.name == "Kafenio tou Lefteri"
    page = owner_client.get(response["Location"])
    assert "The room is renamed." in page.text
    assert '<h1 class="room-title">Kafenio tou Lefteri</h1>' in page.text


def test_a_name_of_sixty_characters_is_kept_whole(owner_client, room):
    name = "Ω" * 60

    rename(owner_client, room, f" {name} ")

    assert Room.objects.get(pk=room.pk).name == name


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("", "Give the room a name."),
        ("   ", "Give the room a name."),
        ("x" * 61, "A room's name has at most 60 characters."),
        ("Two\nlines", "A room's name cannot contain control characters or line breaks."),
        ("Tab\there", "A room's name cannot contain control characters or line breaks."),
        ("Bell\x07", "A room's name cannot contain control characters or line breaks."),
        ("\u202eelbat s'airaM", "A room's name cannot contain control characters or line breaks."),
    ],
)
def test_a_bad_name_is_refused_with_a_reason_and_changes_nothing(owner_client, room, name, error):
    response = rename(owner_client, room, name)

    assert response.status_code == 400
    assert escape(error) in response.text
    assert Room.objects.get(pk=room.pk).name == ""


def test_a_bad_name_is_refused_in_the_owners_language(client, room, owner):
    client.force_login(owner)
    with translation.override("fr"):
        url = reverse("games:room_rename", args=[room.pk])
        expected = gettext("Give the room a name.")

    response = client.post(url, {"name": " "})

    assert response.status_code == 400
    assert escape(expected) in response.text


def test_a_seated_player_who_is_not_the_owner_cannot_rename(client, room):
    player = make_user()
    room_services.room_take_seat(room_id=room.pk, user=player, token=room.invite_token)
    client.force_login(player)

    response = rename(client, room, "Mine now")

    assert response.status_code == 403
    assert "Only the room&#x27;s owner can do that." in response.text
    assert Room.objects.get(pk=room.pk).name == ""


def test_a_stranger_cannot_rename_or_learn_the_room_exists(client, room):
    client.force_login(make_user())

    response = rename(client, room, "Mine now")

    assert response.status_code == 404
    assert Room.objects.get(pk=room.pk).name == ""


def test_a_visitor_is_sent_to_log_in(client, room):
    response = rename(client, room, "Mine now")

    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert Room.objects.get(pk=room.pk).name == ""


def test_renaming_is_a_post(owner_client, room):
    assert owner_client.get(reverse("games:room_rename", args=[room.pk])).status_code == 405


def test_the_room_page_offers_no_rename_form_to_other_players(client, room):
    player = make_user()
    room_services.room_take_seat(room_id=room.pk, user=player, token=room.invite_token)
    client.force_login(player)

    response = client.get(reverse("games:room", args=[room.pk]))

    assert reverse("games:room_rename", args=[room.pk]) not in response.text


def test_a_closed_room_keeps_its_name(room, owner):
    room_services.room_close(room_id=room.pk, user=owner)

    with pytest.raises(GameError, match="room_closed"):
        room_services.room_rename(room_id=room.pk, user=owner, name="Too late")


def test_the_service_checks_the_name_too(room, owner):
    with pytest.raises(ValidationError):
        room_services.room_rename(room_id=room.pk, user=owner, name="Two\nlines")


def test_the_table_snapshot_carries_the_name(room, owner):
    assert table_snapshot(room_id=room.pk).title() == "Maria's table"

    room_services.room_rename(room_id=room.pk, user=owner, name="Kafenio")

    assert table_snapshot(room_id=room.pk).title() == "Kafenio"


def test_the_lobby_lists_rooms_by_name(owner_client, room, owner):
    named = room_services.room_create(owner=owner)
    room_services.room_rename(room_id=named.pk, user=owner, name="Friday cards")

    response = owner_client.get(reverse("lobby:rooms"))

    assert "Maria&#x27;s table" in response.text
    assert "Friday cards" in response.text


def test_the_admin_lists_rooms_by_name(client, room, owner):
    named = room_services.room_create(owner=owner)
    room_services.room_rename(room_id=named.pk, user=owner, name="Friday cards")
    client.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = client.get(reverse("admin:games_room_changelist"))

    assert response.status_code == 200
    assert "Maria&#x27;s table" in response.text
    assert "Friday cards" in response.text
