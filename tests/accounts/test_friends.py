"""Finding players, friend requests and friendships, through the pages and the services."""

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts import services
from accounts.models import FriendRequest, Friendship
from accounts.selectors import are_friends, friends_of, pending_requests_for, user_search
from tests.factories import FriendRequestFactory, UserFactory

pytestmark = pytest.mark.django_db

FRIENDS = "/en/accounts/friends/"


def befriend(a, b):
    low, high = Friendship.ordered_ids(a, b)
    return Friendship.objects.create(user_low_id=low, user_high_id=high)


class TestSearch:
    def test_finds_by_prefix_and_exact_name_whatever_the_case(self, player):
        for name in ["Elena", "Eleni", "Eleftheria", "Kostas"]:
            UserFactory(display_name=name)

        names = [user.display_name for user in user_search("ELEN", player)]

        assert names == ["Elena", "Eleni"]

    def test_the_exact_name_comes_first(self, player):
        for name in ["Elenitsa", "Eleni", "Elen"]:
            UserFactory(display_name=name)

        names = [user.display_name for user in user_search("eleni", player)]

        assert names == ["Eleni", "Elenitsa"]

    def test_never_finds_the_viewer_inactive_or_deleted_players(self, player):
        UserFactory(display_name="Andrea", is_active=False)
        services.user_delete_account(user=UserFactory(display_name="Andriani"))

        assert user_search("Andr", player) == []

    def test_never_searches_email_addresses(self, player, other):
        assert user_search("eleni@example.com", player) == []
        assert user_search("eleni@", player) == []

    def test_the_page_lists_public_names_and_never_emails(self, player_client, other):
        response = player_client.get(FRIENDS, {"q": "el"})

        html = response.content.decode()
        assert response.status_code == 200
        assert "Eleni" in html
        assert "eleni@example.com" not in html
        assert reverse("accounts:friend_request_send", args=[other.pk]) in html

    def test_an_email_in_the_name_search_finds_nobody(self, player_client, other):
        response = player_client.get(FRIENDS, {"q": "eleni@example.com"})

        assert response.context["results"] == []
        assert "Eleni" not in response.content.decode().split('id="search-results"')[1]

    def test_htmx_gets_only_the_results(self, player_client, other):
        response = player_client.get(
            FRIENDS, {"q": "Ele"}, headers={"HX-Request": "true", "HX-Target": "search-results"}
        )

        html = response.content.decode()
        assert html.lstrip().startswith('<div id="search-results"')
        assert "Eleni" in html
        assert "<html" not in html

    def test_results_show_who_is_already_a_friend_or_asked(self, player_client, player):
        friend = UserFactory(display_name="Eleni")
        asked = UserFactory(display_name="Elena")
        befriend(player, friend)
        FriendRequestFactory(from_user=player, to_user=asked)

        response = player_client.get(FRIENDS, {"q": "Ele"})

        html = response.content.decode()
        assert reverse("accounts:friend_request_send", args=[friend.pk]) not in html
        assert reverse("accounts:friend_request_send", args=[asked.pk]) not in html
        assert "Request sent" in html

    def test_visitors_are_sent_to_log_in(self, client):
        response = client.get(FRIENDS)

        assert response["Location"].startswith(reverse("account_login"))


class TestRequests:
    def test_sending_a_request_emails_the_player_in_their_language(
        self, player_client, player, other, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            response = player_client.post(
                reverse("accounts:friend_request_send", args=[other.pk]), {"q": "Ele"}
            )

        assert response["Location"] == f"{FRIENDS}?q=Ele"
        assert FriendRequest.objects.filter(from_user=player, to_user=other).exists()
        assert len(mail.outbox) == 1
        assert mail.outbox[0].to == ["eleni@example.com"]
        assert mail.outbox[0].subject == "Αίτημα φιλίας από Andreas"
        assert "/el/accounts/friends/" in mail.outbox[0].body

    def test_the_request_appears_on_both_pages(self, client, player, other):
        services.friend_request_send(from_user=player, to_user=other)

        client.force_login(player)
        outgoing = client.get(FRIENDS).context["outgoing"]
        client.force_login(other)
        incoming = client.get(FRIENDS).context["incoming"]

        assert [r.to_user for r in outgoing] == [other]
        assert [r.from_user for r in incoming] == [player]

    def test_asking_twice_keeps_one_request_and_one_email(
        self, player_client, player, other, django_capture_on_commit_callbacks
    ):
        url = reverse("accounts:friend_request_send", args=[other.pk])

        with django_capture_on_commit_callbacks(execute=True):
            player_client.post(url)
            player_client.post(url)

        assert FriendRequest.objects.count() == 1
        assert len(mail.outbox) == 1

    def test_the_database_refuses_a_second_pending_request(self, player, other):
        FriendRequestFactory(from_user=player, to_user=other)

        with pytest.raises(IntegrityError), transaction.atomic():
            FriendRequest.objects.create(from_user=player, to_user=other)

    def test_asking_someone_who_asked_you_makes_friends(self, player, other):
        FriendRequestFactory(from_user=other, to_user=player)

        result = services.friend_request_send(from_user=player, to_user=other)

        assert isinstance(result, Friendship)
        assert are_friends(player, other)
        assert not FriendRequest.objects.exists()

    def test_asking_a_friend_is_refused(self, player_client, player, other):
        befriend(player, other)

        response = player_client.post(
            reverse("accounts:friend_request_send", args=[other.pk]), follow=True
        )

        assert "You are already friends." in response.content.decode()
        assert not FriendRequest.objects.exists()

    def test_nobody_can_befriend_themselves(self, player):
        with pytest.raises(ValidationError):
            services.friend_request_send(from_user=player, to_user=player)

    def test_inactive_or_unknown_players_are_not_found(self, player_client):
        inactive = UserFactory(is_active=False)

        assert (
            player_client.post(
                reverse("accounts:friend_request_send", args=[inactive.pk])
            ).status_code
            == 404
        )
        assert (
            player_client.post(reverse("accounts:friend_request_send", args=[9999])).status_code
            == 404
        )
        assert not FriendRequest.objects.exists()

    def test_accepting_makes_friends(self, player_client, player, other):
        friend_request = FriendRequestFactory(from_user=other, to_user=player)

        response = player_client.post(
            reverse("accounts:friend_request_accept", args=[friend_request.pk])
        )

        assert response["Location"] == FRIENDS
        assert list(friends_of(player)) == [other]
        assert list(friends_of(other)) == [player]
        assert not FriendRequest.objects.exists()

    def test_declining_drops_the_request(self, player_client, player, other):
        friend_request = FriendRequestFactory(from_user=other, to_user=player)

        player_client.post(reverse("accounts:friend_request_decline", args=[friend_request.pk]))

        assert not FriendRequest.objects.exists()
        assert not are_friends(player, other)

    def test_cancelling_withdraws_ones_own_request(self, player_client, player, other):
        friend_request = FriendRequestFactory(from_user=player, to_user=other)

        player_client.post(reverse("accounts:friend_request_cancel", args=[friend_request.pk]))

        assert not FriendRequest.objects.exists()

    @pytest.mark.parametrize(
        "action", ["friend_request_accept", "friend_request_decline", "friend_request_cancel"]
    )
    def test_strangers_cannot_touch_other_peoples_requests(self, client, other, action):
        friend_request = FriendRequestFactory(to_user=other)
        client.force_login(UserFactory())

        response = client.post(reverse(f"accounts:{action}", args=[friend_request.pk]))

        assert response.status_code == 404
        assert FriendRequest.objects.filter(pk=friend_request.pk).exists()
        assert not Friendship.objects.exists()

    def test_the_sender_cannot_accept_their_own_request(self, player_client, player, other):
        friend_request = FriendRequestFactory(from_user=player, to_user=other)

        response = player_client.post(
            reverse("accounts:friend_request_accept", args=[friend_request.pk])
        )

        assert response.status_code == 404
        assert not Friendship.objects.exists()

    def test_the_recipient_cannot_cancel_instead_of_declining(self, client, player, other):
        friend_request = FriendRequestFactory(from_user=player, to_user=other)
        client.force_login(other)

        response = client.post(reverse("accounts:friend_request_cancel", args=[friend_request.pk]))

        assert response.status_code == 404

    def test_services_check_who_acts_too(self, player, other):
        friend_request = FriendRequestFactory(from_user=player, to_user=other)
        stranger = UserFactory()

        for service in (services.friend_request_accept, services.friend_request_decline):
            with pytest.raises(PermissionDenied):
                service(friend_request=friend_request, user=stranger)
        with pytest.raises(PermissionDenied):
            services.friend_request_cancel(friend_request=friend_request, user=other)

    @pytest.mark.parametrize(
        "action", ["friend_request_accept", "friend_request_decline", "friend_request_cancel"]
    )
    def test_answers_need_a_post(self, player_client, player, other, action):
        friend_request = FriendRequestFactory(from_user=other, to_user=player)

        response = player_client.get(reverse(f"accounts:{action}", args=[friend_request.pk]))

        assert response.status_code == 405
        assert FriendRequest.objects.exists()

    def test_answers_need_the_csrf_token(self, player, other):
        from django.test import Client

        friend_request = FriendRequestFactory(from_user=other, to_user=player)
        client = Client(enforce_csrf_checks=True)
        client.force_login(player)

        response = client.post(reverse("accounts:friend_request_accept", args=[friend_request.pk]))

        assert response.status_code == 403
        assert not Friendship.objects.exists()


class TestFriendships:
    def test_a_friendship_is_stored_once_lower_id_first(self, player, other):
        services.friend_request_send(from_user=other, to_user=player)
        services.friend_request_send(from_user=player, to_user=other)

        friendship = Friendship.objects.get()
        assert friendship.user_low_id < friendship.user_high_id

    def test_the_database_refuses_an_unordered_pair(self, player, other):
        low, high = sorted([player.pk, other.pk])

        with pytest.raises(IntegrityError), transaction.atomic():
            Friendship.objects.create(user_low_id=high, user_high_id=low)

    def test_the_page_lists_friends_and_requests(self, player_client, player, other):
        befriend(player, other)
        FriendRequestFactory(from_user=UserFactory(display_name="Kostas"), to_user=player)
        FriendRequestFactory(from_user=player, to_user=UserFactory(display_name="Sotiris"))

        html = player_client.get(FRIENDS).content.decode()

        for name in ["Eleni", "Kostas", "Sotiris"]:
            assert name in html
        assert reverse("accounts:friendship_remove", args=[other.pk]) in html

    def test_removing_a_friend(self, player_client, player, other):
        befriend(player, other)

        response = player_client.post(reverse("accounts:friendship_remove", args=[other.pk]))

        assert response["Location"] == FRIENDS
        assert not are_friends(player, other)

    def test_removing_someone_who_is_not_a_friend_is_not_found(self, player_client, other):
        befriend(other, UserFactory())

        response = player_client.post(reverse("accounts:friendship_remove", args=[other.pk]))

        assert response.status_code == 404
        assert Friendship.objects.count() == 1

    def test_pending_requests_selector(self, player, other):
        incoming = FriendRequestFactory(from_user=other, to_user=player)
        outgoing = FriendRequestFactory(from_user=player)

        pending = pending_requests_for(player)

        assert list(pending.incoming) == [incoming]
        assert list(pending.outgoing) == [outgoing]
