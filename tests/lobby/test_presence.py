"""Friends in the lobby: who is online, from a lobby socket or a table, kept out of memory."""

import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from accounts.models import Friendship, User
from games import tasks
from games.liveness import lease_release, lease_renew, table_scope, user_scope
from games.services import rooms as room_services
from lobby.consumers import LobbyConsumer
from lobby.selectors import friends_with_presence
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def befriend(a: User, b: User) -> None:
    low, high = Friendship.ordered_ids(a, b)
    Friendship.objects.create(user_low_id=low, user_high_id=high)


@pytest.fixture
def me() -> User:
    return make_user("Me")


@pytest.fixture
def friend(me: User) -> User:
    user = make_user("Friend")
    befriend(me, user)
    return user


def lobby_socket(user: User) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = user
    return communicator


def presence(user: User) -> dict[str, bool]:
    return {entry.user.table_name: entry.online for entry in friends_with_presence(user)}


async def test_a_friend_is_online_while_their_lobby_socket_is_open(me, friend):
    socket = lobby_socket(friend)

    connected, _code = await socket.connect()
    assert connected
    online = await sync_to_async(presence)(me)
    await socket.disconnect(timeout=10)
    offline = await sync_to_async(presence)(me)

    assert online == {"Friend": True}
    assert offline == {"Friend": False}


def lobby_connected(user: User, connection: str = "lobby-1") -> None:
    lease_renew(scopes=[user_scope(user.pk)], connection=connection)


def test_a_second_tab_keeps_a_friend_online_until_both_close(me, friend):
    lobby_connected(friend, "tab-1")
    lobby_connected(friend, "tab-2")
    lease_release(scopes=[user_scope(friend.pk)], connection="tab-1")

    assert presence(me) == {"Friend": True}

    lease_release(scopes=[user_scope(friend.pk)], connection="tab-2")
    assert presence(me) == {"Friend": False}


def test_a_friend_at_a_table_is_online(me, friend):
    room = room_services.room_create(owner=friend)
    lease_renew(scopes=[table_scope(room.pk, friend.pk), user_scope(friend.pk)], connection="t")

    assert presence(me) == {"Friend": True}


def test_a_friend_whose_process_died_goes_offline_when_the_lease_lapses(me, friend, settings):
    settings.PRESENCE_TTL_SECONDS = 0.2
    lobby_connected(friend)
    assert presence(me) == {"Friend": True}

    time.sleep(0.3)

    assert presence(me) == {"Friend": False}


def test_only_friends_are_listed_online_first(me, friend):
    stranger = make_user("Stranger")
    other = make_user("Another")
    befriend(me, other)
    lobby_connected(stranger)
    lobby_connected(friend)

    assert [(e.user.table_name, e.online) for e in friends_with_presence(me)] == [
        ("Friend", True),
        ("Another", False),
    ]


@pytest.mark.parametrize(
    ("language", "online", "offline"),
    [
        ("en", "Online", "Offline"),
        ("el", "Σε σύνδεση", "Εκτός σύνδεσης"),
        ("fr", "En ligne", "Hors ligne"),
    ],
)
def test_the_lobby_page_shows_friends_with_translated_labels(
    client, me, friend, language, online, offline
):
    other = make_user("Another")
    befriend(me, other)
    lobby_connected(friend)
    client.force_login(me)

    page = client.get(f"/{language}/play/").content.decode()

    assert "Friend" in page
    assert "Another" in page
    assert f'<span class="presence-label">{online}</span>' in page
    assert f'<span class="presence-label">{offline}</span>' in page


async def test_an_invitation_reaches_the_open_lobby_live(me, friend, monkeypatch):
    monkeypatch.setattr(tasks.send_room_invitation_email, "delay", lambda invitation_id: None)
    socket = lobby_socket(friend)
    await socket.connect()
    room = await sync_to_async(room_services.room_create)(owner=me)

    await sync_to_async(room_services.room_invite_friend)(room_id=room.pk, user=me, friend=friend)

    note = await socket.receive_from(timeout=5)
    await socket.disconnect()
    assert 'id="lobby-invitations"' in note
    assert "Me invites you to" in note
    assert f"/rooms/{room.pk}/invitation/" in note
