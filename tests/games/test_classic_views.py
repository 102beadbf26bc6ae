"""The classic game's pages: the room form, the room, invitations and the lobby."""

import pytest
from django.urls import reverse

from games.models import Room
from games.services import rooms as room_services
from tests.factories import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

FORM = {"bot_level": "medium", "turn_seconds": "0"}


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_owner_opens_a_classic_room_for_2_3_or_4(owner_client, owner, players):
    response = owner_client.post(
        reverse("games:room_create"), {**FORM, "variant": "classic", "players": str(players)}
    )

    room = Room.objects.get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert (room.variant, room.players, room.target) == ("classic", players, 1000)
    assert room.seats.count() == players


def test_classic_may_be_sent_with_its_target_of_1000(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"),
        {**FORM, "variant": "classic", "players": "3", "target": "1000"},
    )

    assert response.status_code == 302
    assert Room.objects.get(owner=owner).target == 1000


def test_palaristi_is_still_four_players_to_the_target_chosen(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"), {**FORM, "variant": "palaristi", "target": "251"}
    )

    assert response.status_code == 302
    room = Room.objects.get(owner=owner)
    assert (room.variant, room.players, room.target, room.seats.count()) == (
        "palaristi",
        4,
        251,
        4,
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"variant": "classic", "players": "5"}, "Select a valid choice"),
        ({"variant": "classic", "players": "1"}, "Select a valid choice"),
        ({"variant": "classic", "players": "3", "target": "301"}, "Classic is played to 1000."),
        ({"variant": "palaristi", "players": "3"}, "Palaristi is played by four players."),
        ({"variant": "palaristi", "target": "1000"}, "Palaristi is played to 251"),
        ({"variant": "poker", "players": "3"}, "Select a valid choice"),
    ],
)
def test_a_room_with_a_game_that_does_not_fit_is_refused(owner_client, data, message):
    response = owner_client.post(reverse("games:room_create"), {**FORM, **data})

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Room.objects.exists()


def test_the_lobby_form_offers_both_games_and_the_players(owner_client):
    html = owner_client.get(reverse("lobby:rooms")).content.decode()

    assert 'name="variant" value="palaristi"' in html
    assert 'name="variant" value="classic"' in html
    assert 'data-variant-only="classic"' in html
    assert '<option value="1000">1000 (Classic)</option>' in html


def test_a_small_room_shows_its_seats_and_game(owner_client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=2)

    html = owner_client.get(reverse("games:room", args=[room.pk])).content.decode()

    assert html.count('class="room-seat ') == 2
    assert "Classic, 2 players, to 1000" in html
    assert 'id="room-seat-2"' not in html


def test_a_stranger_cannot_see_or_fill_a_classic_room(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    client.force_login(make_user())

    page = client.get(reverse("games:room", args=[room.pk]))
    bot = client.post(reverse("games:room_seat_bot", args=[room.pk, 1]))

    assert page.status_code == bot.status_code == 404
    assert not room.seats.filter(is_bot=True).exists()


def test_a_seated_player_who_is_not_the_owner_cannot_add_a_computer(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)
    client.force_login(guest)

    response = client.post(
        reverse("games:room_seat_bot", args=[room.pk, 2]), HTTP_HX_REQUEST="true"
    )

    assert "Only the room&#x27;s owner can do that." in response.content.decode()
    assert not room.seats.filter(is_bot=True).exists()


def test_an_invitation_link_says_full_once_every_seat_is_taken(client, owner):
    room = room_services.room_create(owner=owner, variant="classic", players=2)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=1)
    client.force_login(make_user())

    response = client.get(reverse("games:room_join", args=[room.invite_token]))

    assert response.context["full"] is True


def test_the_lobby_lists_a_classic_room_with_its_game_and_the_players_score(client, owner, queued):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    for seat in (1, 2):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
    match = room_services.room_start(room_id=room.pk, user=owner)
    match.totals = [120, 300, 80]
    match.save(update_fields=["totals"])
    client.force_login(owner)

    html = client.get(reverse("lobby:rooms")).content.decode()

    assert "Classic, 3 players, to 1000" in html
    assert "Playing: 120–300" in html  # noqa: RUF001 (the score's en dash)
