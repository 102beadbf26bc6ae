"""The staff admin: who gets in, how they log in, and the tools for players."""

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

from accounts.models import User
from accounts.services import guest_create
from tests.factories import (
    PASSWORD,
    FriendRequestFactory,
    InvitationFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ADMIN = "/en/admin/"
CHANGELIST = "/en/admin/accounts/user/"


@pytest.fixture
def staff(db):
    return UserFactory(email="staff@example.com", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


class TestAccess:
    def test_visitors_are_sent_to_the_sites_login(self, client):
        response = client.get(ADMIN, follow=True)

        assert response.redirect_chain[-1][0].startswith(reverse("account_login"))
        assert "next=/en/admin/" in response.redirect_chain[-1][0]

    def test_players_who_are_not_staff_get_no_admin(self, player_client):
        response = player_client.get(ADMIN, follow=True)

        assert response.status_code == 403
        assert player_client.get(CHANGELIST, follow=True).status_code == 403

    def test_staff_log_in_through_the_site_and_reach_the_admin(self, client, staff):
        login = client.post(
            f"{reverse('account_login')}?next={ADMIN}",
            {"login": "staff@example.com", "password": PASSWORD},
        )

        assert login["Location"] == ADMIN
        assert client.get(ADMIN).status_code == 200

    def test_the_admins_own_login_form_accepts_no_password(self, client, staff):
        response = client.post(
            "/en/admin/login/", {"username": "staff@example.com", "password": PASSWORD}
        )

        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
        assert "_auth_user_id" not in client.session

    def test_staff_on_the_admin_login_page_go_on_to_the_admin(self, staff_client):
        response = staff_client.get(f"/en/admin/login/?next={CHANGELIST}")

        assert response["Location"] == CHANGELIST

    def test_the_admin_login_refuses_a_foreign_next(self, staff_client):
        response = staff_client.get("/en/admin/login/?next=https://evil.example/")

        assert response["Location"] == ADMIN

    def test_repeated_failed_logins_lock_the_account_out(self, client, staff):
        url = f"{reverse('account_login')}?next={ADMIN}"
        for _attempt in range(5):
            failed = client.post(url, {"login": "staff@example.com", "password": "guess"})
            assert failed.status_code == 200

        response = client.post(url, {"login": "staff@example.com", "password": PASSWORD})

        assert response.status_code == 429
        assert "Too many failed login attempts" in response.content.decode()
        assert "_auth_user_id" not in client.session
        assert client.get(ADMIN).status_code == 302

    def test_a_flood_of_logins_from_one_address_gets_429(self, client, staff):
        url = reverse("account_login")
        statuses = {
            client.post(url, {"login": f"x{n}@example.com", "password": "guess"}).status_code
            for n in range(31)
        }

        assert 429 in statuses


class TestUsers:
    def test_search_by_email_and_display_name(self, staff_client, player, other):
        by_email = staff_client.get(CHANGELIST, {"q": "andreas@"})
        by_name = staff_client.get(CHANGELIST, {"q": "Eleni"})

        assert list(by_email.context["cl"].result_list) == [player]
        assert list(by_name.context["cl"].result_list) == [other]

    def test_filter_by_verified_email(self, staff_client, staff, player):
        unverified = UserFactory(verified=False)

        verified = staff_client.get(CHANGELIST, {"verified": "yes"}).context["cl"].result_list
        not_verified = staff_client.get(CHANGELIST, {"verified": "no"}).context["cl"].result_list

        assert set(verified) == {staff, player}
        assert list(not_verified) == [unverified]

    def test_filter_and_count_guests(self, staff_client, staff, player):
        guests = {guest_create(language="en"), guest_create(language="el")}

        page = staff_client.get(CHANGELIST)
        only_guests = staff_client.get(CHANGELIST, {"guest": "yes"}).context["cl"].result_list
        no_guests = staff_client.get(CHANGELIST, {"guest": "no"}).context["cl"].result_list

        assert "Guests (2)" in page.text
        assert "Players (2)" in page.text
        assert set(only_guests) == guests
        assert set(no_guests) == {staff, player}

    def test_a_guest_opens_in_the_admin(self, staff_client):
        guest = guest_create(language="en")

        response = staff_client.get(f"{CHANGELIST}{guest.pk}/change/")

        assert response.status_code == 200
        assert guest.display_name in response.text

    @pytest.mark.parametrize("query", ["is_active__exact=0", "is_staff__exact=1"])
    def test_other_filters(self, staff_client, staff, query):
        UserFactory(is_active=False)

        response = staff_client.get(f"{CHANGELIST}?{query}")

        assert response.status_code == 200
        assert len(response.context["cl"].result_list) == 1

    def test_deactivate_and_reactivate(self, staff_client, player, other):
        staff_client.post(
            CHANGELIST, {"action": "deactivate", "_selected_action": [player.pk, other.pk]}
        )
        player.refresh_from_db()
        assert not player.is_active

        staff_client.post(CHANGELIST, {"action": "reactivate", "_selected_action": [player.pk]})
        player.refresh_from_db()
        other.refresh_from_db()
        assert player.is_active
        assert not other.is_active

    def test_a_deleted_account_is_never_reactivated(self, staff_client, player):
        from accounts.services import user_delete_account

        user_delete_account(user=player)

        staff_client.post(CHANGELIST, {"action": "reactivate", "_selected_action": [player.pk]})

        player.refresh_from_db()
        assert not player.is_active

    def test_resend_verification_only_to_unverified_addresses(
        self, staff_client, player, django_capture_on_commit_callbacks
    ):
        unverified = UserFactory(email="new@example.com", verified=False)
        bare = UserFactory(email="bare@example.com", verified=False)
        EmailAddress.objects.create(user=unverified, email=unverified.email, primary=True)

        with django_capture_on_commit_callbacks(execute=True):
            staff_client.post(
                CHANGELIST,
                {
                    "action": "resend_verification",
                    "_selected_action": [player.pk, unverified.pk, bare.pk],
                },
            )

        assert sorted(message.to[0] for message in mail.outbox) == [
            "bare@example.com",
            "new@example.com",
        ]
        assert "/accounts/confirm-email/" in mail.outbox[0].body
        assert EmailAddress.objects.filter(user=bare, verified=False).exists()

    def test_the_user_page_shows_friends(self, staff_client, player, other):
        from accounts.services import friend_request_send

        friend_request_send(from_user=player, to_user=other)
        friend_request_send(from_user=other, to_user=player)

        response = staff_client.get(f"{CHANGELIST}{player.pk}/change/")

        assert response.status_code == 200
        assert "Eleni" in response.content.decode()

    def test_staff_can_add_a_user(self, staff_client):
        response = staff_client.post(
            f"{CHANGELIST}add/",
            {
                "email": "added@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
                "usable_password": "true",
            },
        )

        assert response.status_code == 302
        assert User.objects.filter(email="added@example.com").exists()


@pytest.mark.parametrize(
    "path", ["accounts/invitation/", "accounts/friendship/", "accounts/friendrequest/"]
)
def test_the_other_models_have_admin_pages(staff_client, player, other, path):
    InvitationFactory(inviter=player)
    FriendRequestFactory(from_user=player, to_user=other)

    assert staff_client.get(f"{ADMIN}{path}").status_code == 200
    assert staff_client.get(f"{ADMIN}{path}add/").status_code == 200


def test_an_invitation_page_in_the_admin(staff_client, player):
    invitation = InvitationFactory(inviter=player)

    response = staff_client.get(f"{ADMIN}accounts/invitation/{invitation.pk}/change/")

    assert response.status_code == 200
    assert invitation.token in response.content.decode()
