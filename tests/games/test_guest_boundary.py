"""A guest plays their own table and nothing else: no lobby, friends, other rooms or admin."""

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.guests import CLAIM_KEY
from accounts.models import User
from accounts.selectors import user_search
from config.routing import websocket_urlpatterns
from games.models import Room, RoomSeat, Round
from games.selectors import round_view
from games.services import rooms as room_services
from games.tasks import bot_play_turn
from tests.factories import make_user

FORBIDDEN_PAGE = "You are playing as a guest"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def empty_limits():
    cache.clear()
    yield
    cache.clear()


def guest_at_table(client: Client) -> tuple[User, Room]:
    client.post(reverse("games:play_now"))
    guest = User.objects.get(pk=client.session[SESSION_KEY])
    return guest, Room.objects.get(owner=guest)


@pytest.fixture
def guest_client(db, client, queued) -> Client:
    guest_at_table(client)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "lobby:rooms",
        "accounts:friends",
        "accounts:profile",
        "accounts:delete",
        "account_email",
        "account_change_password",
        "account_signup",
        "account_login",
        "admin:index",
        "admin:accounts_user_changelist",
    ],
)
def test_a_guest_cannot_open_pages_for_players(guest_client, name):
    response = guest_client.get(reverse(name))

    assert response.status_code == 403
    assert FORBIDDEN_PAGE in response.text


@pytest.mark.django_db
def test_a_guest_cannot_open_a_room_by_hand(guest_client):
    response = guest_client.post(reverse("games:room_create"), {"target": 301})

    assert response.status_code == 403
    assert Room.objects.count() == 1


@pytest.mark.django_db
def test_a_guest_cannot_take_a_seat_with_an_invite_link(guest_client):
    other = room_services.room_create(owner=make_user("Host"))
    link = reverse("games:room_join", args=[other.invite_token])

    shown = guest_client.get(link)
    taken = guest_client.post(link)

    assert (shown.status_code, taken.status_code) == (403, 403)
    assert not RoomSeat.objects.filter(room=other, user__is_guest=True).exists()


@pytest.mark.django_db
def test_a_guest_cannot_see_another_room(guest_client, queued):
    other = room_services.room_play_now(user=make_user("Host"), level="easy", target=301)
    _another_guest, guests_room = guest_at_table(Client())

    assert guest_client.get(reverse("games:room", args=[other.pk])).status_code == 404
    assert guest_client.get(reverse("games:room", args=[guests_room.pk])).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["lobby:home", "lobby:rules"])
def test_a_guest_reads_the_public_pages(guest_client, name):
    assert guest_client.get(reverse(name)).status_code == 200


@pytest.mark.django_db
def test_a_guests_browser_gets_the_site_icon(guest_client):
    # Browsers ask for /favicon.ico on every page; a guest's would otherwise get the refusal.
    response = guest_client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"].endswith("icons/icon-32.png")


@pytest.mark.django_db
def test_a_guest_opens_their_own_table_without_the_owners_tools(client, queued):
    guest, room = guest_at_table(client)

    page = client.get(reverse("games:room", args=[room.pk]))

    assert page.status_code == 200
    assert guest.table_name in page.text
    assert room.invite_token not in page.text
    assert f'href="{reverse("lobby:rooms")}"' not in page.text
    assert reverse("games:room_close", args=[room.pk]) not in page.text


@pytest.mark.django_db
def test_a_guest_replays_and_downloads_their_finished_rounds(client, queued):
    _guest, room = guest_at_table(client)
    room.seats.filter(seat=0).update(away=True)
    rounds = Round.objects.filter(match__room=room)
    while not rounds.filter(status=Round.Status.FINISHED).exists():
        playing = rounds.get(status=Round.Status.PLAYING)
        bot_play_turn(playing.pk, round_view(playing).seq)
    number = rounds.get(status=Round.Status.FINISHED).number

    replay = client.get(reverse("games:round_replay", args=[room.pk, number]))
    record = client.get(reverse("games:round_record", args=[room.pk, number]))

    assert (replay.status_code, record.status_code) == (200, 200)


@pytest.mark.django_db
def test_the_refusal_leads_back_to_the_table_or_out_of_guest_play(client, queued):
    guest, room = guest_at_table(client)
    login = reverse("account_login")

    refusal = client.get(login)
    left = client.post(reverse("accounts:guest_keep"), {"next": login})

    assert f'href="{reverse("games:room", args=[room.pk])}"' in refusal.text
    assert f'name="next" value="{login}"' in refusal.text
    assert left["Location"] == login
    assert SESSION_KEY not in client.session
    assert client.session[CLAIM_KEY] == guest.pk
    assert client.get(login).status_code == 200


@pytest.mark.django_db
def test_a_guest_who_left_finds_their_table_again_with_play_now(client, queued):
    guest, room = guest_at_table(client)
    client.post(reverse("accounts:guest_keep"), {"next": reverse("lobby:home")})

    back = client.post(reverse("games:play_now"))

    assert back["Location"] == reverse("games:room", args=[room.pk])
    assert client.session[SESSION_KEY] == str(guest.pk)
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_leaving_refuses_a_next_address_on_another_site(client, queued):
    guest_at_table(client)

    left = client.post(reverse("accounts:guest_keep"), {"next": "https://evil.example/"})

    assert left["Location"] == reverse("account_signup")


@pytest.mark.django_db
def test_guests_are_never_found_or_befriended(client, queued):
    guest, _room = guest_at_table(client)
    host = make_user("Guesthouse")
    player = make_user("Eleni")
    client.force_login(player)

    assert user_search("Guest", player) == [host]
    assert user_search(guest.display_name or "", player) == []
    response = client.post(reverse("accounts:friend_request_send", args=[guest.pk]))
    assert response.status_code == 404


application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


@sync_to_async
def guest_session() -> tuple[bytes, Room]:
    client = Client()
    _guest, room = guest_at_table(client)
    return f"sessionid={client.cookies['sessionid'].value}".encode(), room


@pytest.mark.django_db(transaction=True)
async def test_the_table_socket_serves_the_guest_and_the_lobby_socket_refuses_them(queued):
    cookie, room = await guest_session()

    table = WebsocketCommunicator(
        application, f"/ws/table/{room.pk}/?lang=en", headers=[(b"cookie", cookie)]
    )
    connected, _code = await table.connect()
    drawn = await table.receive_from(timeout=5)
    await table.disconnect()
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=[(b"cookie", cookie)])
    lobby_connected, code = await lobby.connect()

    assert connected
    assert drawn.count('class="card-button') == 8
    assert (lobby_connected, code) == (False, 4403)
