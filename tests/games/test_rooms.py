"""Room pages: the player's lobby, seats, invite links, the table page and hand records."""

import pytest
from django.urls import reverse

from games.engine import round_from_record
from games.models import Room, Round
from games.selectors import round_view
from games.services import rooms as room_services
from games.tasks import bot_play_turn
from tests.factories import bot_room, make_user, seated_room

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def owner(db):
    return make_user("Owner")


@pytest.fixture
def players(db):
    return [make_user(f"Seat{n}") for n in range(4)]


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def test_the_rooms_page_needs_a_login(client):
    response = client.get(reverse("lobby:rooms"))

    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_rooms_page_lists_my_rooms_only(owner_client, owner):
    mine = room_services.room_create(owner=owner)
    other = room_services.room_create(owner=make_user())

    response = owner_client.get(reverse("lobby:rooms"))

    assert response.status_code == 200
    assert reverse("games:room", args=[mine.pk]) in response.text
    assert reverse("games:room", args=[other.pk]) not in response.text


def test_a_new_room_is_opened_with_its_settings(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"),
        {"target": "351", "bot_level": "strong", "turn_seconds": "60", "assist": "on"},
    )

    room = Room.objects.get(owner=owner)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert (room.target, room.bot_level, room.turn_seconds, room.assist) == (
        351,
        "strong",
        60,
        True,
    )


def test_a_new_room_with_bad_settings_is_refused(owner_client, owner):
    response = owner_client.post(
        reverse("games:room_create"), {"target": "300", "bot_level": "genius", "turn_seconds": "7"}
    )

    assert response.status_code == 400
    assert not Room.objects.exists()


def test_the_room_page_shows_the_seats_to_a_member(owner_client, owner):
    room = room_services.room_create(owner=owner)

    response = owner_client.get(reverse("games:room", args=[room.pk]))

    assert response.status_code == 200
    assert f'ws-connect="/ws/table/{room.pk}/?lang=' in response.text
    assert reverse("games:room_seat_bot", args=[room.pk, 1]) in response.text
    assert room.invite_token in response.text


def test_the_room_page_is_hidden_from_a_stranger(client, owner):
    room = room_services.room_create(owner=owner)
    client.force_login(make_user())

    response = client.get(reverse("games:room", args=[room.pk]))

    assert response.status_code == 404


def test_seat_buttons_answer_htmx_with_no_content(owner_client, owner):
    room = room_services.room_create(owner=owner)

    response = owner_client.post(reverse("games:room_seat_bot", args=[room.pk, 2]), **HTMX)

    assert response.status_code == 204
    assert room.seats.get(seat=2).is_bot


def test_a_refused_seat_change_says_why(client, owner):
    room = room_services.room_create(owner=owner)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)
    client.force_login(guest)

    response = client.post(reverse("games:room_seat_bot", args=[room.pk, 2]), **HTMX)

    assert response.status_code == 200
    assert "Only the room&#x27;s owner can do that." in response.text
    assert room.seats.get(seat=2).is_empty


def test_a_stranger_cannot_post_to_a_room(client, owner):
    room = room_services.room_create(owner=owner)
    client.force_login(make_user())

    response = client.post(reverse("games:room_seat_take", args=[room.pk, 1]), **HTMX)

    assert response.status_code == 404
    assert room.seats.get(seat=1).is_empty


def test_the_invite_link_seats_a_guest(client, owner):
    room = room_services.room_create(owner=owner)
    guest = make_user()
    client.force_login(guest)
    url = reverse("games:room_join", args=[room.invite_token])

    page = client.get(url)
    response = client.post(url)

    assert page.status_code == 200
    assert "Owner invites you to play at “Owner&#x27;s table”" in page.text
    assert "Take a seat" in page.text
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert room.seats.get(seat=1).user == guest


def test_the_invite_link_offers_a_visitor_to_log_in_and_come_back(client, owner):
    room = room_services.room_create(owner=owner)
    url = reverse("games:room_join", args=[room.invite_token])

    page = client.get(url)
    response = client.post(url)

    assert page.status_code == 200
    assert f'href="{reverse("account_login")}?next=%2Fen%2Fjoin%2F{room.invite_token}%2F"' in (
        page.text
    )
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert room.invite_token in response["Location"]
    assert room.seats.filter(user__isnull=False).count() == 1


def test_a_revoked_invite_link_is_refused(client, owner):
    room = room_services.room_create(owner=owner)
    old = room.invite_token
    room_services.room_renew_invite(room_id=room.pk, user=owner)
    client.force_login(make_user())

    response = client.post(reverse("games:room_join", args=[old]))

    assert response.status_code == 404
    assert room.seats.filter(user__isnull=False).count() == 1


def test_the_invite_link_refuses_a_full_room(client, players):
    room = seated_room(players)
    client.force_login(make_user())
    url = reverse("games:room_join", args=[room.invite_token])

    page = client.get(url)
    response = client.post(url)

    assert "every seat at this table is taken" in page.text
    assert response.status_code == 409


def test_only_the_owner_renews_the_link(client, players):
    room = seated_room(players)
    client.force_login(players[1])

    client.post(reverse("games:room_invite_renew", args=[room.pk]))

    assert Room.objects.get(pk=room.pk).invite_token == room.invite_token


def test_the_started_room_shows_the_table_with_my_hand(client, players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    client.force_login(players[2])

    response = client.get(reverse("games:room", args=[room.pk]))

    assert response.status_code == 200
    state = round_view(round_).state
    for card in state.hand(2):
        assert f'data-card="{card}"' in response.text
    for card in state.hand(1):
        assert f'data-card="{card}"' not in response.text


def finished_round(owner) -> tuple[Room, Round]:
    room = bot_room(owner, bot_level="easy")
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)
    rounds = Round.objects.filter(match__room=room)
    for _ in range(2000):
        finished = rounds.filter(status=Round.Status.FINISHED).first()
        if finished is not None:
            return room, finished
        playing = rounds.get(status=Round.Status.PLAYING)
        bot_play_turn(playing.pk, round_view(playing).seq)
    raise AssertionError("no round was finished")


def test_a_finished_round_downloads_as_a_hand_record(owner_client, owner, queued):
    room, first = finished_round(owner)

    response = owner_client.get(reverse("games:round_record", args=[room.pk, first.number]))

    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    replayed = round_from_record(response.json())
    assert replayed.phase == "finished"
    assert len(replayed.history) == first.actions.count()


def test_a_round_being_played_has_no_record(owner_client, owner, queued):
    room = bot_room(owner)
    room_services.room_start(room_id=room.pk, user=owner)

    response = owner_client.get(reverse("games:round_record", args=[room.pk, 1]))

    assert response.status_code == 404


def test_a_stranger_gets_no_record(client, owner, queued):
    room, first = finished_round(owner)
    client.force_login(make_user())

    response = client.get(reverse("games:round_record", args=[room.pk, first.number]))

    assert response.status_code == 404


def test_the_replay_steps_trick_by_trick(owner_client, owner, queued):
    room, first = finished_round(owner)
    url = reverse("games:round_replay", args=[room.pk, first.number])

    one = owner_client.get(url)
    three = owner_client.get(url + "?trick=3")

    # Every step is in the page (the deal, the auction, 8 tricks, the score); one shows.
    assert one.text.count('data-replay-step="') == 11
    assert (
        'id="step-1" data-replay-step="1" data-href="?step=1" aria-labelledby="step-1-title">'
        in one.text
    )
    # An older link to a trick opens that trick's step, which leads on to the next trick.
    assert (
        'id="step-5" data-replay-step="5" data-href="?step=5" aria-labelledby="step-5-title">'
        in three.text
    )
    assert 'href="?step=6" data-replay-to="6">Next' in three.text
