"""Render an email in its recipient's language and send it."""

from collections.abc import Mapping

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import translation


def absolute_url(path: str) -> str:
    """Return the site's path as a link that works from a mailbox."""
    return settings.SITE_URL.rstrip("/") + path


def email_render(
    template_prefix: str, context: Mapping[str, object], language: str
) -> tuple[str, str]:
    """Return the subject and text body of ``<prefix>_subject.txt`` and ``<prefix>_message.txt``."""
    with translation.override(language):
        subject = " ".join(
            render_to_string(f"{template_prefix}_subject.txt", dict(context)).split()
        )
        body = render_to_string(f"{template_prefix}_message.txt", dict(context)).strip()
    return subject, body


def email_send(
    *,
    subject: str,
    body: str,
    to: list[str],
    html: str | None = None,
    from_email: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    """Send one message, with an HTML alternative when given."""
    message = EmailMultiAlternatives(
        subject, body, from_email or settings.DEFAULT_FROM_EMAIL, to, headers=headers
    )
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
