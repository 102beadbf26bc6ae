"""Emails go out from Celery after commit, in the recipient's language, with absolute links."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts import services, tasks
from tests.factories import PASSWORD, InvitationFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_invitation_create_emails_only_after_commit(player, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        invitation = services.invitation_create(
            email=" Guest@Example.com ", inviter=player, language="en"
        )
        assert mail.outbox == []

    assert len(callbacks) == 1
    callbacks[0]()
    assert invitation.email == "Guest@example.com"
    assert mail.outbox[0].to == ["Guest@example.com"]


@pytest.mark.parametrize(
    ("language", "subject", "phrase"),
    [
        ("el", "Πρόσκληση για πιλόττα από Andreas", "Δημιουργήστε τον λογαριασμό σας"),  # noqa: RUF001
        ("fr", "Andreas vous invite à jouer à la Pilotta", "Créez votre compte"),
        ("en", "Andreas invites you to play Pilotta", "Create your account"),
    ],
)
def test_the_invitation_is_written_in_its_language(
    player, language, subject, phrase, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invitation_create(
            email="guest@example.com", inviter=player, language=language
        )

    message = mail.outbox[0]
    assert message.subject == subject
    assert phrase in message.body
    assert f"/{language}/accounts/invitation/{invitation.token}/" in message.body


def test_a_staff_invitation_has_its_own_words(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.invitation_create(email="guest@example.com", inviter=None, language="el")

    assert mail.outbox[0].subject == "Η πρόσκλησή σας στο Pilotta.io"  # noqa: RUF001


def test_links_are_absolute_on_the_site_url(player, settings, django_capture_on_commit_callbacks):
    settings.SITE_URL = "https://pilotta.example/"

    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invitation_create(
            email="guest@example.com", inviter=player, language="en"
        )

    assert f"https://pilotta.example/en/accounts/invitation/{invitation.token}/" in (
        mail.outbox[0].body
    )


def test_the_invitation_says_until_when_it_works(player, django_capture_on_commit_callbacks):
    with (
        time_machine.travel("2026-03-01 12:00 +02:00", tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.invitation_create(email="guest@example.com", inviter=player, language="en")

    assert "March 15, 2026" in mail.outbox[0].body


def test_an_invitation_used_or_expired_before_the_task_runs_is_not_sent(player):
    used = InvitationFactory(accepted_at=timezone.now())
    expired = InvitationFactory()

    tasks.send_invitation_email(used.pk)
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        tasks.send_invitation_email(expired.pk)
    tasks.send_invitation_email(999_999)

    assert mail.outbox == []


def test_a_friend_request_gone_before_the_task_runs_is_not_sent():
    tasks.send_friend_request_email(999_999)

    assert mail.outbox == []


def test_the_friend_request_email_uses_the_recipients_language(
    player, django_capture_on_commit_callbacks
):
    recipient = UserFactory(display_name="Claire", preferred_language="fr")

    with django_capture_on_commit_callbacks(execute=True):
        services.friend_request_send(from_user=player, to_user=recipient)

    assert mail.outbox[0].subject == "Nouvelle demande d’ami : Andreas"  # noqa: RUF001
    assert "Bonjour Claire," in mail.outbox[0].body
    assert "/fr/accounts/friends/" in mail.outbox[0].body


def test_allauths_emails_go_through_celery_after_commit(
    client, settings, django_capture_on_commit_callbacks
):
    settings.SIGNUP_MODE = "open"
    data = {
        "email": "maria@example.com",
        "display_name": "Maria",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }

    with django_capture_on_commit_callbacks() as callbacks:
        client.post("/el/accounts/signup/", data)
        assert mail.outbox == []

    assert [callback.func.__self__.name for callback in callbacks] == [
        "accounts.tasks.send_rendered_email"
    ]
    callbacks[0]()
    assert mail.outbox[0].to == ["maria@example.com"]
    assert mail.outbox[0].subject == "[Pilotta.io] Επιβεβαιώστε τη διεύθυνση email σας"
    assert "/el/accounts/confirm-email/" in mail.outbox[0].body
