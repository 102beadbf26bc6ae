"""Lobby reads: the waitlist entry behind a link and its CSV."""

from collections.abc import Iterable, Iterator

from lobby import tokens
from lobby.models import WaitlistEntry

EXPORT_COLUMNS = ("email", "language", "status", "created_at", "confirmed_at")


def waitlist_entry_for_confirm_token(*, token: str) -> WaitlistEntry:
    """Return the entry a confirmation link points at; raise LinkError for a bad or old link."""
    entry = _entry(tokens.read_confirm_token(token))
    if entry.status == WaitlistEntry.Status.UNSUBSCRIBED:
        raise tokens.LinkInvalidError
    return entry


def waitlist_entry_for_unsubscribe_token(*, token: str) -> WaitlistEntry:
    """Return the entry an unsubscribe link points at; raise LinkError for a bad link."""
    return _entry(tokens.read_unsubscribe_token(token))


def waitlist_export_rows(*, entries: Iterable[WaitlistEntry]) -> Iterator[list[str]]:
    """Yield the CSV header, then one row per entry, safe to open in a spreadsheet."""
    yield list(EXPORT_COLUMNS)
    for entry in entries:
        yield [
            _spreadsheet_safe(entry.email),
            entry.language,
            entry.status,
            entry.created_at.isoformat(),
            entry.confirmed_at.isoformat() if entry.confirmed_at else "",
        ]


def _entry(entry_id: int) -> WaitlistEntry:
    entry = WaitlistEntry.objects.filter(pk=entry_id).first()
    if entry is None:
        raise tokens.LinkInvalidError
    return entry


def _spreadsheet_safe(value: str) -> str:
    # An address may legally start with = + - or @, which spreadsheets would run as a formula.
    return f"'{value}" if value[:1] in ("=", "+", "-", "@") else value
