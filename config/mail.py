"""Development email: each message printed as a person reads it, not as SMTP carries it.

Django's console backend prints the MIME source, where a subject in Greek or French becomes
base64 (``=?utf-8?b?...?=``) and long lines become quoted-printable. This backend prints the
headers decoded and the plain-text body as written, so a link in it can be followed at once.
"""

from collections.abc import Iterable

from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as DjangoConsoleBackend

RULE = "-" * 79


def readable(message: EmailMessage) -> str:
    """Return the message's headers and its plain-text body, with every header decoded."""
    lines = [f"Subject: {message.subject}", f"From: {message.from_email}"]
    for name, addresses in (("To", message.to), ("Cc", message.cc), ("Reply-To", message.reply_to)):
        if addresses:
            lines.append(f"{name}: {', '.join(addresses)}")
    lines.extend(f"{name}: {value}" for name, value in message.extra_headers.items())
    lines.extend(_parts(message))
    lines.extend(["", str(message.body).rstrip("\n")])
    return "\n".join(lines)


def _parts(message: EmailMessage) -> Iterable[str]:
    """Name the parts that are not printed: HTML alternatives and attachments."""
    for alternative in getattr(message, "alternatives", []):
        yield f"(and an alternative part: {alternative[1]}, {len(str(alternative[0]))} characters)"
    for attachment in message.attachments:
        name = attachment[0] if isinstance(attachment, tuple) else attachment.get_filename()
        yield f"(and an attachment: {name})"


class EmailBackend(DjangoConsoleBackend):
    """Print each message readably on the console (see ``readable``)."""

    def write_message(self, message: EmailMessage) -> None:
        self.stream.write(f"{readable(message)}\n{RULE}\n")
