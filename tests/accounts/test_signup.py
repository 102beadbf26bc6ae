"""Signing up: display names, mandatory verification, and the invitation-only gate."""

import re
from datetime import timedelta

import pytest
import time_machine
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.adapter import waitlist_url
from accounts.models import Friendship, Invitation, User
from tests.factories import PASSWORD, InvitationFactory, UserFactory, confirmation_link, signup_data

pytestmark = pytest.mark.django_db

SIGNUP = "/en/accounts/signup/"


@pytest.mark.usefixtures("open_signup")
class TestOpenSignup:
    def test_signup_asks_for_the_display_name(self, client):
        html = client.get(SIGNUP).content.decode()

        assert 'name="display_name"' in html
        assert html.index('name="email"') < html.index('name="display_name"')

    def test_signup_creates_an_unverified_account_and_emails_a_link(
        self, client, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(SIGNUP, signup_data())

        assert response.status_code == 302
        assert response["Location"] == reverse("account_email_verification_sent")
        user = User.objects.get(email="maria@example.com")
        assert user.display_name == "Maria"
        assert user.preferred_language == "en"
        assert not EmailAddress.objects.get(user=user).verified
        assert "_auth_user_id" not in client.session
        assert len(mail.outbox) == 1
        assert mail.outbox[0].to == ["maria@example.com"]
        assert "/en/accounts/confirm-email/" in mail.outbox[0].body

    def test_the_emailed_link_verifies_the_address_and_login_works(
        self, client, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(SIGNUP, signup_data())
        link = confirmation_link(mail.outbox[0])

        assert client.get(link).status_code == 200
        client.post(link)
        login = client.post(
            "/en/accounts/login/", {"login": "maria@example.com", "password": PASSWORD}
        )

        assert EmailAddress.objects.get(email="maria@example.com").verified
        assert login.status_code == 302
        assert client.session["_auth_user_id"] == str(User.objects.get().pk)

    def test_login_is_refused_until_the_address_is_verified(
        self, client, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(SIGNUP, signup_data())
            response = client.post(
                "/en/accounts/login/", {"login": "maria@example.com", "password": PASSWORD}
            )

        assert response["Location"] == reverse("account_email_verification_sent")
        assert "_auth_user_id" not in client.session

    def test_the_signup_page_language_becomes_the_preferred_language(self, client):
        client.post("/fr/accounts/signup/", signup_data())

        assert User.objects.get().preferred_language == "fr"

    def test_the_display_name_is_trimmed_and_single_spaced(self, client):
        client.post(SIGNUP, signup_data(display_name="  Kyria   Maria "))

        assert User.objects.get().display_name == "Kyria Maria"

    def test_greek_letters_and_punctuation_are_allowed(self, client):
        client.post(SIGNUP, signup_data(display_name="Μαρία_K.-7"))

        assert User.objects.get().display_name == "Μαρία_K.-7"

    @pytest.mark.parametrize(
        "name", ["", "Ma", "x" * 31, "<script>", "maria@example.com", "...", "Ma ria!"]
    )
    def test_bad_display_names_are_refused(self, client, name):
        response = client.post(SIGNUP, signup_data(display_name=name))

        assert response.status_code == 200
        assert response.context["form"].errors["display_name"]
        assert not User.objects.exists()

    def test_a_display_name_taken_in_another_case_is_refused(self, client):
        UserFactory(display_name="Maria")

        response = client.post(SIGNUP, signup_data(display_name="MARIA"))

        assert response.context["form"].errors["display_name"] == ["This display name is taken."]
        assert User.objects.count() == 1

    def test_a_bad_email_is_refused(self, client):
        response = client.post(SIGNUP, signup_data(email="maria.example.com"))

        assert response.context["form"].errors["email"]
        assert not User.objects.exists()

    def test_an_email_with_an_account_creates_nothing(
        self, client, django_capture_on_commit_callbacks
    ):
        UserFactory(email="maria@example.com")

        with django_capture_on_commit_callbacks(execute=True):
            client.post(SIGNUP, signup_data(email="Maria@Example.com", display_name="Other"))

        assert User.objects.count() == 1
        assert not User.objects.filter(display_name="Other").exists()


@pytest.mark.usefixtures("invite_only")
class TestInvitationOnlySignup:
    def test_a_visitor_without_invitation_is_sent_to_the_waitlist(self, client):
        response = client.get(SIGNUP)

        assert response.status_code == 302
        assert response["Location"] == waitlist_url()

    def test_posting_the_form_without_invitation_creates_nothing(self, client):
        response = client.post(SIGNUP, signup_data())

        assert response.status_code == 302
        assert response["Location"] == waitlist_url()
        assert not User.objects.exists()

    def test_the_visitor_lands_on_the_waitlist_form_with_an_explanation(self, client):
        response = client.get(SIGNUP, follow=True)

        html = response.content.decode()
        assert response.status_code == 200
        assert 'id="waitlist"' in html
        assert reverse("lobby:waitlist_join") in html
        assert "Signing up is by invitation for now." in html

    def test_the_invitation_link_opens_the_signup(self, client):
        invitation = InvitationFactory(email="maria@example.com")

        page = client.get(f"/en/accounts/invitation/{invitation.token}/")
        html = page.content.decode()
        signup_link = re.search(r'href="(/en/accounts/signup/\?email=[^"]*)"', html).group(1)
        signup = client.get(signup_link.replace("&amp;", "&"))

        assert page.status_code == 200
        assert invitation.inviter.display_name in html
        assert signup.status_code == 200
        assert 'value="maria@example.com"' in signup.content.decode()

    def test_signing_up_with_the_invited_address_needs_no_verification_email(
        self, client, django_capture_on_commit_callbacks
    ):
        invitation = InvitationFactory(email="maria@example.com")
        client.get(f"/en/accounts/invitation/{invitation.token}/")

        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(SIGNUP, signup_data())

        user = User.objects.get(email="maria@example.com")
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(user.pk)
        assert EmailAddress.objects.get(user=user).verified
        assert mail.outbox == []

    def test_signing_up_accepts_the_invitation_and_makes_friends_with_the_inviter(self, client):
        invitation = InvitationFactory(email="maria@example.com")
        client.get(f"/en/accounts/invitation/{invitation.token}/")

        client.post(SIGNUP, signup_data())

        user = User.objects.get(email="maria@example.com")
        invitation.refresh_from_db()
        assert invitation.accepted_by == user
        assert invitation.accepted_at is not None
        low, high = Friendship.ordered_ids(user, invitation.inviter)
        assert Friendship.objects.filter(user_low_id=low, user_high_id=high).exists()
        assert "accounts_invitation_token" not in client.session

    def test_another_address_must_still_be_verified(
        self, client, django_capture_on_commit_callbacks
    ):
        invitation = InvitationFactory(email="maria@example.com")
        client.get(f"/en/accounts/invitation/{invitation.token}/")

        with django_capture_on_commit_callbacks(execute=True):
            client.post(SIGNUP, signup_data(email="maria.k@example.com"))

        user = User.objects.get(email="maria.k@example.com")
        assert not EmailAddress.objects.get(user=user).verified
        assert "_auth_user_id" not in client.session
        assert mail.outbox[0].to == ["maria.k@example.com"]
        invitation.refresh_from_db()
        assert invitation.accepted_by == user

    def test_a_staff_invitation_makes_no_friends(self, client):
        invitation = InvitationFactory(email="maria@example.com", inviter=None)
        client.get(f"/en/accounts/invitation/{invitation.token}/")

        client.post(SIGNUP, signup_data())

        assert User.objects.filter(email="maria@example.com").exists()
        assert not Friendship.objects.exists()

    def test_an_invitation_cannot_be_used_twice(self, client):
        invitation = InvitationFactory(email="maria@example.com")
        client.get(f"/en/accounts/invitation/{invitation.token}/")
        client.post(SIGNUP, signup_data())
        client.logout()

        page = client.get(f"/en/accounts/invitation/{invitation.token}/")
        signup = client.get(SIGNUP)

        assert page.status_code == 410
        assert signup.status_code == 302
        assert signup["Location"] == waitlist_url()

    def test_an_expired_invitation_link_is_refused(self, client):
        invitation = InvitationFactory()

        with time_machine.travel(timezone.now() + timedelta(days=14, seconds=1)):
            page = client.get(f"/en/accounts/invitation/{invitation.token}/")
            signup = client.get(SIGNUP)

        assert page.status_code == 410
        assert "expired" in page.content.decode()
        assert signup["Location"] == waitlist_url()

    def test_an_invitation_works_until_its_last_day(self, client):
        invitation = InvitationFactory()

        with time_machine.travel(timezone.now() + timedelta(days=13, hours=23)):
            page = client.get(f"/en/accounts/invitation/{invitation.token}/")

        assert page.status_code == 200

    def test_the_invitation_expires_between_the_link_and_the_signup(self, client):
        invitation = InvitationFactory(email="maria@example.com")
        client.get(f"/en/accounts/invitation/{invitation.token}/")

        with time_machine.travel(timezone.now() + timedelta(days=15)):
            response = client.post(SIGNUP, signup_data())

        assert response["Location"] == waitlist_url()
        assert not User.objects.filter(email="maria@example.com").exists()

    @pytest.mark.parametrize("token", ["nope", "x" * 43])
    def test_a_tampered_invitation_link_is_not_found(self, client, token):
        InvitationFactory()

        page = client.get(f"/en/accounts/invitation/{token}/")
        signup = client.get(SIGNUP)

        assert page.status_code == 404
        assert signup["Location"] == waitlist_url()

    def test_the_expiry_follows_the_setting(self, settings):
        settings.INVITATION_MAX_AGE_DAYS = 2
        invitation = InvitationFactory()

        assert invitation.expires_at == invitation.created_at + timedelta(days=2)
        with time_machine.travel(timezone.now() + timedelta(days=3)):
            assert not Invitation.objects.get().is_usable


class TestInvitationForPlayers:
    def test_a_player_confirms_before_becoming_the_inviters_friend(self, player_client, player):
        invitation = InvitationFactory()

        page = player_client.get(f"/en/accounts/invitation/{invitation.token}/")

        assert page.status_code == 200
        assert not Friendship.objects.exists()
        response = player_client.post(f"/en/accounts/invitation/{invitation.token}/")
        assert response["Location"] == reverse("accounts:friends")
        assert Friendship.objects.count() == 1
        invitation.refresh_from_db()
        assert invitation.accepted_by == player

    def test_a_visitor_posting_the_invitation_is_sent_to_log_in(self, client):
        invitation = InvitationFactory()

        response = client.post(f"/en/accounts/invitation/{invitation.token}/")

        assert response["Location"].startswith(reverse("account_login"))
        assert not Friendship.objects.exists()

    def test_ones_own_invitation_makes_no_friendship(self, player_client, player):
        invitation = InvitationFactory(inviter=player)

        player_client.post(f"/en/accounts/invitation/{invitation.token}/")

        assert not Friendship.objects.exists()
        invitation.refresh_from_db()
        assert invitation.accepted_at is None
