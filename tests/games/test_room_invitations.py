"""Inviting a friend to a room: a live note in their lobby, an email, and a seat on accepting."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.urls import reverse
from django.utils import translation

from accounts.models import Friendship
from games import tasks
from games.errors import GameError
from games.models import RoomInvitation
from games.services import rooms as room_services
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def emails_now(monkeypatch):
    """Send the invitation email at once instead of through the broker."""
    monkeypatch.setattr(tasks.send_room_invitation_email, "delay", tasks.send_room_invitation_email)


def befriend(a, b) -> None:
    low, high = Friendship.ordered_ids(a, b)
    Friendship.objects.create(user_low_id=low, user_high_id=high)


@pytest.fixture
def owner(db):
    return make_user("Owner")


@pytest.fixture
def friend(owner):
    user = make_user("Friend", language="fr")
    befriend(owner, user)
    return user


def test_inviting_a_friend_notifies_their_lobby_and_emails_them(
    owner, friend, mailoutbox, django_capture_on_commit_callbacks
):
    room = room_services.room_create(owner=owner)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"user-{friend.pk}", channel)

    with django_capture_on_commit_callbacks(execute=True):
        room_services.room_invite_friend(room_id=room.pk, user=owner, friend=friend)

    note = async_to_sync(layer.receive)(channel)
    assert note["type"] == "lobby.html"
    assert 'id="lobby-invitations"' in note["html"]
    assert "Owner vous invite" in note["html"]
    with translation.override("fr"):
        assert reverse("games:room_invitation", args=[room.pk]) in note["html"]
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [friend.email]
    assert "Owner" in mailoutbox[0].subject
    assert RoomInvitation.objects.filter(room=room, user=friend).exists()


def test_only_friends_can_be_invited(owner):
    room = room_services.room_create(owner=owner)
    stranger = make_user()

    with pytest.raises(GameError) as caught:
        room_services.room_invite_friend(room_id=room.pk, user=owner, friend=stranger)

    assert caught.value.code == "not_friends"
    assert not RoomInvitation.objects.exists()


def test_a_non_member_cannot_invite(owner, friend):
    room = room_services.room_create(owner=owner)
    outsider = make_user()
    befriend(outsider, friend)

    with pytest.raises(GameError) as caught:
        room_services.room_invite_friend(room_id=room.pk, user=outsider, friend=friend)

    assert caught.value.code == "not_member"


def test_a_full_room_sends_no_invitation(owner, friend):
    room = room_services.room_create(owner=owner)
    for seat in (1, 2, 3):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)

    with pytest.raises(GameError) as caught:
        room_services.room_invite_friend(room_id=room.pk, user=owner, friend=friend)

    assert caught.value.code == "room_full"


def test_the_invited_friend_takes_a_seat_from_the_invitation(client, owner, friend):
    room = room_services.room_create(owner=owner)
    room_services.room_invite_friend(room_id=room.pk, user=owner, friend=friend)
    client.force_login(friend)

    lobby = client.get(reverse("lobby:rooms"))
    page = client.get(reverse("games:room_invitation", args=[room.pk]))
    response = client.post(reverse("games:room_invitation", args=[room.pk]))

    assert reverse("games:room_invitation", args=[room.pk]) in lobby.text
    assert page.status_code == 200
    assert response["Location"] == reverse("games:room", args=[room.pk])
    assert room.seats.get(seat=1).user == friend


def test_someone_not_invited_gets_no_invitation_page(client, owner):
    room = room_services.room_create(owner=owner)
    client.force_login(make_user())

    response = client.post(reverse("games:room_invitation", args=[room.pk]))

    assert response.status_code == 404
    assert room.seats.filter(user__isnull=False).count() == 1


def test_the_room_page_offers_to_invite_friends(client, owner, friend):
    room = room_services.room_create(owner=owner)
    client.force_login(owner)

    page = client.get(reverse("games:room", args=[room.pk]))
    response = client.post(
        reverse("games:room_invite_friend", args=[room.pk]), {"friend": str(friend.pk)}
    )
    bad = client.post(reverse("games:room_invite_friend", args=[room.pk]), {"friend": "x"})

    assert f'value="{friend.pk}"' in page.text
    assert response.status_code == 302
    assert bad.status_code == 302
    assert RoomInvitation.objects.filter(room=room).count() == 1
