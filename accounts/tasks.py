"""Emails, sent by Celery in the recipient's language."""

from celery import shared_task
from django.urls import reverse
from django.utils import translation

from accounts.emails import absolute_url, email_render, email_send
from accounts.models import FriendRequest, Invitation

MAIL_TASK_OPTIONS = {"acks_late": True, "autoretry_for": (OSError,), "retry_backoff": True}


@shared_task(**MAIL_TASK_OPTIONS)
def send_invitation_email(invitation_id: int) -> None:
    """Send the link that lets the invited person sign up."""
    invitation = Invitation.objects.select_related("inviter").filter(pk=invitation_id).first()
    if invitation is None or not invitation.is_usable:
        return
    with translation.override(invitation.language):
        context = {
            "inviter_name": invitation.inviter.table_name if invitation.inviter else "",
            "link": absolute_url(reverse("accounts:invitation", args=[invitation.token])),
            "expires_at": invitation.expires_at,
        }
    subject, body = email_render("accounts/email/invitation", context, invitation.language)
    email_send(subject=subject, body=body, to=[invitation.email])


@shared_task(**MAIL_TASK_OPTIONS)
def send_friend_request_email(friend_request_id: int) -> None:
    """Tell a player that someone wants to be their friend."""
    friend_request = (
        FriendRequest.objects.select_related("from_user", "to_user")
        .filter(pk=friend_request_id)
        .first()
    )
    # A guest has no address (and no friends); the check keeps the type honest.
    if friend_request is None or friend_request.to_user.email is None:
        return
    recipient = friend_request.to_user
    language = recipient.preferred_language
    with translation.override(language):
        context = {
            "sender_name": friend_request.from_user.table_name,
            "recipient_name": recipient.table_name,
            "link": absolute_url(reverse("accounts:friends")),
        }
    subject, body = email_render("accounts/email/friend_request", context, language)
    email_send(subject=subject, body=body, to=[friend_request.to_user.email])


@shared_task(**MAIL_TASK_OPTIONS)
def send_rendered_email(
    *,
    subject: str,
    body: str,
    to: list[str],
    html: str | None = None,
    from_email: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    """Send a message already rendered by the web process (allauth's emails)."""
    email_send(subject=subject, body=body, to=to, html=html, from_email=from_email, headers=headers)
