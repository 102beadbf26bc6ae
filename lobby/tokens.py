"""Signed links in waitlist emails: confirming expires, unsubscribing never does."""

from datetime import timedelta

from django.core import signing

CONFIRM_SALT = "lobby.waitlist.confirm"
UNSUBSCRIBE_SALT = "lobby.waitlist.unsubscribe"
CONFIRM_MAX_AGE = timedelta(days=3)


class LinkError(Exception):
    """A waitlist link that cannot be used."""


class LinkInvalidError(LinkError):
    """A link that was tampered with, mistyped or points at nothing."""


class LinkExpiredError(LinkError):
    """A genuine confirmation link that is too old."""


def confirm_token(entry_id: int) -> str:
    """Sign the entry's id for the confirmation link."""
    return signing.TimestampSigner(salt=CONFIRM_SALT).sign(str(entry_id))


def unsubscribe_token(entry_id: int) -> str:
    """Sign the entry's id for the unsubscribe link."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(entry_id))


def read_confirm_token(token: str) -> int:
    """Return the entry id of a confirmation link, or raise LinkError."""
    signer = signing.TimestampSigner(salt=CONFIRM_SALT)
    try:
        value = signer.unsign(token, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired as error:
        raise LinkExpiredError from error
    except signing.BadSignature as error:
        raise LinkInvalidError from error
    return _entry_id(value)


def read_unsubscribe_token(token: str) -> int:
    """Return the entry id of an unsubscribe link, or raise LinkError."""
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature as error:
        raise LinkInvalidError from error
    return _entry_id(value)


def _entry_id(value: str) -> int:
    # Only our own signature gets here, but a non-numeric value must still not crash.
    if not value.isdigit():
        raise LinkInvalidError
    return int(value)
