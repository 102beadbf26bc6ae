"""Lobby reads: friends and who of them is online; the waitlist entry behind a link and its CSV."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from accounts.models import User
from accounts.selectors import friends_of
from lobby import tokens
from lobby.models import WaitlistEntry
from lobby.presence import online_users

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


@dataclass(frozen=True)
class FriendPresence:
    """A friend, and whether they have the lobby or a table open right now."""

    user: User
    online: bool


def friends_with_presence(user: User) -> list[FriendPresence]:
    """Return the user's friends, those online first, each marked online or offline."""
    friends = list(friends_of(user))
    ids = [friend.pk for friend in friends]
    online = online_users(ids)
    listed = [FriendPresence(user=friend, online=friend.pk in online) for friend in friends]
    # sorted() is stable, so each group keeps the friends' alphabetical order.
    return sorted(listed, key=lambda entry: not entry.online)
