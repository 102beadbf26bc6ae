"""Deleting one's account erases personal data and keeps an anonymous row."""

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse
from django.utils import translation

from accounts.models import FriendRequest, Friendship, Invitation, User
from accounts.services import friend_request_send
from tests.factories import PASSWORD, InvitationFactory, UserFactory

pytestmark = pytest.mark.django_db

DELETE = "/en/accounts/profile/delete/"


@pytest.fixture
def connected_player(player, other):
    """A player with a friend, requests both ways and invitations both ways."""
    friend_request_send(from_user=player, to_user=other)
    friend_request_send(from_user=other, to_user=player)
    friend_request_send(from_user=player, to_user=UserFactory())
    friend_request_send(from_user=UserFactory(), to_user=player)
    InvitationFactory(inviter=player)
    InvitationFactory(email=player.email)
    return player


def test_visitors_are_sent_to_log_in(client):
    response = client.post(DELETE, {"password": PASSWORD})

    assert response["Location"].startswith(reverse("account_login"))


def test_the_page_asks_for_the_password(player_client):
    response = player_client.get(DELETE)

    assert response.status_code == 200
    assert 'name="password"' in response.content.decode()
    assert User.objects.get().is_active


def test_a_wrong_password_deletes_nothing(player_client, player):
    response = player_client.post(DELETE, {"password": "not-it"})

    assert response.status_code == 200
    assert response.context["form"].errors["password"]
    player.refresh_from_db()
    assert player.is_active
    assert player.email == "andreas@example.com"


def test_deleting_anonymises_the_row_and_logs_out(client, connected_player):
    client.force_login(connected_player)
    pk = connected_player.pk

    response = client.post(DELETE, {"password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("lobby:home")
    assert "_auth_user_id" not in client.session
    user = User.objects.get(pk=pk)
    assert user.email == f"deleted-{pk}@deleted.invalid"
    assert user.display_name is None
    assert not user.has_usable_password()
    assert not user.is_active
    assert user.is_deleted
    assert not EmailAddress.objects.filter(user=user).exists()
    assert not Friendship.objects.exists()
    assert not FriendRequest.objects.filter(from_user=user).exists()
    assert not FriendRequest.objects.filter(to_user=user).exists()
    assert not Invitation.objects.exists()


def test_other_players_keep_their_own_data(client, connected_player, other):
    client.force_login(connected_player)
    kostas = UserFactory(display_name="Kostas")
    friend_request_send(from_user=kostas, to_user=other)
    invitation = InvitationFactory(inviter=other)

    client.post(DELETE, {"password": PASSWORD})

    other.refresh_from_db()
    assert other.is_active
    assert other.display_name == "Eleni"
    assert FriendRequest.objects.filter(from_user=kostas, to_user=other).exists()
    assert Invitation.objects.filter(pk=invitation.pk).exists()


def test_a_deleted_player_cannot_log_in_again(client, player):
    client.force_login(player)
    client.post(DELETE, {"password": PASSWORD})

    response = client.post(
        "/en/accounts/login/", {"login": "andreas@example.com", "password": PASSWORD}
    )

    assert "_auth_user_id" not in client.session
    assert response.status_code == 200


def test_the_address_can_sign_up_again(client, player, settings):
    settings.SIGNUP_MODE = "open"
    client.force_login(player)
    client.post(DELETE, {"password": PASSWORD})

    client.post(
        "/en/accounts/signup/",
        {
            "email": "andreas@example.com",
            "display_name": "Andreas",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert User.objects.filter(email="andreas@example.com", is_active=True).count() == 1
    assert User.objects.count() == 2


def test_the_table_shows_a_deleted_player_in_each_language(client, player):
    client.force_login(player)
    client.post(DELETE, {"password": PASSWORD})
    user = User.objects.get(pk=player.pk)

    assert user.table_name == "Deleted player"
    with translation.override("el"):
        assert user.table_name == "Διαγραμμένος παίκτης"
    with translation.override("fr"):
        assert user.table_name == "Joueur supprimé"


def test_get_never_deletes(player_client, player):
    player_client.get(DELETE, {"password": PASSWORD})

    player.refresh_from_db()
    assert player.is_active
