"""Waitlist emails, written in the entry's language, each with a one-click unsubscribe."""

from email.utils import parseaddr

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from lobby import tokens
from lobby.models import WaitlistEntry

CONFIRM = "confirm"
ALREADY_LISTED = "already_listed"
KINDS = (CONFIRM, ALREADY_LISTED)

# Each kind of email is sent only while the entry is still in this status.
SENT_WHEN = {
    CONFIRM: WaitlistEntry.Status.PENDING,
    ALREADY_LISTED: WaitlistEntry.Status.CONFIRMED,
}


def waitlist_email_send(*, entry_id: int, kind: str) -> bool:
    """Send one waitlist email if the entry still wants it; say whether it was sent."""
    if kind not in KINDS:
        raise ValueError(f"unknown waitlist email: {kind!r}")
    entry = WaitlistEntry.objects.filter(pk=entry_id).first()
    if entry is None or entry.status != SENT_WHEN[kind]:
        return False
    with translation.override(entry.language):
        message = _message(entry, kind)
    message.send()
    return True


def _message(entry: WaitlistEntry, kind: str) -> EmailMultiAlternatives:
    unsubscribe_url = _absolute(
        reverse("lobby:waitlist_unsubscribe", args=[tokens.unsubscribe_token(entry.pk)])
    )
    context = {
        "entry": entry,
        "site_url": _absolute(reverse("lobby:home")),
        "unsubscribe_url": unsubscribe_url,
    }
    if kind == CONFIRM:
        subject = _("Confirm your place on the Pilotta.io waitlist")
        context["confirm_url"] = _absolute(
            reverse("lobby:waitlist_confirm", args=[tokens.confirm_token(entry.pk)])
        )
    else:
        subject = _("You are already on the Pilotta.io waitlist")
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"lobby/email/waitlist_{kind}.txt", context),
        to=[entry.email],
        headers=_unsubscribe_headers(unsubscribe_url),
    )
    message.attach_alternative(
        render_to_string(f"lobby/email/waitlist_{kind}.html", context), "text/html"
    )
    return message


def _unsubscribe_headers(unsubscribe_url: str) -> dict[str, str]:
    """Return the RFC 2369 and RFC 8058 headers that let mail apps unsubscribe in one click."""
    links = [f"<{unsubscribe_url}>"]
    sender = parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    if sender:
        links.append(f"<mailto:{sender}?subject=unsubscribe>")
    return {
        "List-Unsubscribe": ", ".join(links),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path
