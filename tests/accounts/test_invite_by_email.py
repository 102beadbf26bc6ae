"""Adding a friend by email address never tells whether the address has an account."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts import services
from accounts.models import FriendRequest, Invitation
from tests.factories import FriendRequestFactory

pytestmark = pytest.mark.django_db

INVITE = "/en/accounts/friends/invite/"
FRIENDS = "/en/accounts/friends/"


def invite(client, email, capture):
    """Post the form, follow to the friends page, and return both responses."""
    with capture(execute=True):
        response = client.post(INVITE, {"email": email})
    page = client.get(response["Location"])
    return response, page


def page_body(page) -> str:
    """The page without the values that change on every request."""
    html = page.content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"', "", html)


def test_the_same_answer_whether_or_not_the_address_has_an_account(
    player_client, player, other, django_capture_on_commit_callbacks
):
    with_account = invite(player_client, "eleni@example.com", django_capture_on_commit_callbacks)
    without_account = invite(
        player_client, "nobody@example.com", django_capture_on_commit_callbacks
    )

    assert with_account[0].status_code == without_account[0].status_code == 302
    assert with_account[0]["Location"] == without_account[0]["Location"] == FRIENDS
    assert with_account[1].status_code == without_account[1].status_code == 200
    assert page_body(with_account[1]) == page_body(without_account[1])
    assert "If this address belongs to a player" in page_body(with_account[1])


def test_an_address_with_an_account_gets_a_friend_request(
    player_client, player, other, django_capture_on_commit_callbacks
):
    invite(player_client, "Eleni@Example.com", django_capture_on_commit_callbacks)

    friend_request = FriendRequest.objects.get()
    assert (friend_request.from_user, friend_request.to_user) == (player, other)
    assert friend_request.by_email
    assert not Invitation.objects.exists()
    assert [message.to for message in mail.outbox] == [["eleni@example.com"]]
    assert "Andreas" in mail.outbox[0].subject


def test_an_address_without_account_gets_an_invitation(
    player_client, player, django_capture_on_commit_callbacks
):
    invite(player_client, "nobody@example.com", django_capture_on_commit_callbacks)

    invitation = Invitation.objects.get()
    assert (invitation.email, invitation.inviter, invitation.language) == (
        "nobody@example.com",
        player,
        "en",
    )
    assert not FriendRequest.objects.exists()
    assert [message.to for message in mail.outbox] == [["nobody@example.com"]]
    assert f"/en/accounts/invitation/{invitation.token}/" in mail.outbox[0].body


def test_a_request_made_by_email_is_not_listed_for_the_sender(
    player_client, player, other, django_capture_on_commit_callbacks
):
    _response, page = invite(player_client, "eleni@example.com", django_capture_on_commit_callbacks)

    assert list(page.context["outgoing"]) == []
    assert "Eleni" not in page.content.decode()
    search = player_client.get(FRIENDS, {"q": "Eleni"})
    assert reverse("accounts:friend_request_send", args=[other.pk]) in search.content.decode()


def test_the_recipient_sees_a_request_made_by_email(
    client, player, other, django_capture_on_commit_callbacks
):
    client.force_login(player)
    invite(client, "eleni@example.com", django_capture_on_commit_callbacks)
    client.force_login(other)

    page = client.get(FRIENDS)

    assert [r.from_user for r in page.context["incoming"]] == [player]


def test_asking_by_name_after_asking_by_email_lists_the_request(player, other):
    services.friend_add_by_email(inviter=player, email="eleni@example.com", language="en")

    services.friend_request_send(from_user=player, to_user=other)

    assert FriendRequest.objects.get().by_email is False


@pytest.mark.parametrize(
    "setup",
    ["friends", "asked_by_name", "asked_them", "myself", "inactive"],
)
def test_addresses_that_need_nothing_new_get_nothing_and_the_same_answer(
    player_client, player, other, setup, django_capture_on_commit_callbacks
):
    email = "eleni@example.com"
    if setup == "friends":
        services.friend_request_send(from_user=player, to_user=other)
        services.friend_request_send(from_user=other, to_user=player)
    elif setup == "asked_by_name":
        FriendRequestFactory(from_user=player, to_user=other)
    elif setup == "asked_them":
        FriendRequestFactory(from_user=other, to_user=player)
    elif setup == "myself":
        email = "andreas@example.com"
    elif setup == "inactive":
        other.is_active = False
        other.save()
    before = page_body(player_client.get(FRIENDS))
    requests_before = set(FriendRequest.objects.values_list("pk", "by_email"))

    response, _page = invite(player_client, email, django_capture_on_commit_callbacks)

    assert response.status_code == 302
    assert mail.outbox == []
    assert not Invitation.objects.exists()
    assert set(FriendRequest.objects.values_list("pk", "by_email")) == requests_before
    assert page_body(player_client.get(FRIENDS)) == before


def test_inviting_the_same_address_twice_sends_one_invitation(
    player_client, player, django_capture_on_commit_callbacks
):
    invite(player_client, "nobody@example.com", django_capture_on_commit_callbacks)
    invite(player_client, "NOBODY@example.com", django_capture_on_commit_callbacks)

    assert Invitation.objects.count() == 1
    assert len(mail.outbox) == 1


def test_two_players_may_invite_the_same_address(
    client, player, other, django_capture_on_commit_callbacks
):
    for inviter in (player, other):
        client.force_login(inviter)
        invite(client, "nobody@example.com", django_capture_on_commit_callbacks)

    assert Invitation.objects.count() == 2


@pytest.mark.parametrize("email", ["", "nobody", "nobody@", "a b@example.com"])
def test_a_bad_address_is_refused(player_client, email):
    response = player_client.post(INVITE, {"email": email})

    assert response.status_code == 200
    assert response.context["invite_form"].errors["email"]
    assert not Invitation.objects.exists()
    assert not FriendRequest.objects.exists()


def test_the_invitation_email_is_in_the_page_language(
    client, player, django_capture_on_commit_callbacks
):
    client.force_login(player)

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/fr/accounts/friends/invite/", {"email": "nobody@example.com"})

    assert Invitation.objects.get().language == "fr"
    assert mail.outbox[0].subject == "Andreas vous invite à jouer à la Pilotta"


def test_visitors_cannot_invite(client):
    response = client.post(INVITE, {"email": "nobody@example.com"})

    assert response["Location"].startswith(reverse("account_login"))
    assert not Invitation.objects.exists()


def test_invitations_by_email_are_rate_limited(player_client, settings):
    settings.ACCOUNT_RATE_LIMITS = {"invite_by_email": "3/h/user"}
    statuses = [
        player_client.post(INVITE, {"email": f"guest{n}@example.com"}).status_code for n in range(4)
    ]

    assert statuses == [302, 302, 302, 429]
    assert Invitation.objects.count() == 3


def test_other_players_have_their_own_limit(client, player, other, settings):
    settings.ACCOUNT_RATE_LIMITS = {"invite_by_email": "1/h/user"}
    client.force_login(player)
    client.post(INVITE, {"email": "guest1@example.com"})
    client.force_login(other)

    response = client.post(INVITE, {"email": "guest2@example.com"})

    assert response.status_code == 302
    assert Invitation.objects.count() == 2
