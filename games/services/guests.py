"""Guest play: a visitor's table against the computers, its limit per address, and the removal
of guests gone quiet.

A guest is a user row (see accounts.models.User.is_guest) that plays at tables of its own with
three computers. Its last activity is the latest of: when it was made, its last login (Play now
logs a returning guest in again), the rooms it opened and the actions it played itself.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import User
from accounts.services import guest_create
from config.ratelimit import count_and_allow
from games.models import Room
from games.selectors import inactive_guests, unfinished_room_of
from games.services.rooms import room_play_now

GUEST_TABLES_PER_HOUR = 5
GUEST_INACTIVE_DAYS = 7
DELETE_BATCH = 500


class GuestTablesLimitError(Exception):
    """Too many guest tables opened from one address within the hour."""


@dataclass(frozen=True)
class PlayNow:
    """Where Play now seats the visitor: the player (perhaps a new guest) and the table."""

    player: User
    room: Room
    resumed: bool


def play_now(*, user: User | None, ip: str, language: str, level: str, target: int) -> PlayNow:
    """Seat the visitor at a table with three computers, its match started.

    ``user`` is the signed-in player or the session's guest; None is a new visitor, who becomes
    a guest. A guest whose match is still being played goes back to that table rather than
    opening a second one. Every new guest table counts against the address's hourly limit
    (raising GuestTablesLimitError beyond it, with nothing made); players with an account have
    the lobby's rooms and no such limit.
    """
    with transaction.atomic():
        if user is not None and user.is_guest:
            # One tap at a time per guest: a double tap must not open two tables.
            User.objects.select_for_update().filter(pk=user.pk).first()
            if (room := unfinished_room_of(user)) is not None:
                return PlayNow(player=user, room=room, resumed=True)
        if user is None or user.is_guest:
            address = salted_hmac("games.guests.ip", ip).hexdigest()
            if not count_and_allow(f"guests:tables:{address}", GUEST_TABLES_PER_HOUR):
                raise GuestTablesLimitError
        player = user if user is not None else guest_create(language=language)
        room = room_play_now(user=player, level=level, target=target)
    return PlayNow(player=player, room=room, resumed=False)


def guests_delete_inactive(*, days: int = GUEST_INACTIVE_DAYS) -> int:
    """Delete the guests inactive for ``days`` days with their rooms and games; return how many.

    Everything else stays: players with an account, their rooms, and recent guests. Each batch
    is its own transaction, so a large sweep never holds the tables for long.
    """
    since = timezone.now() - timedelta(days=days)
    deleted = 0
    while ids := list(inactive_guests(since=since).values_list("pk", flat=True)[:DELETE_BATCH]):
        with transaction.atomic():
            # Rooms, their seats, matches, rounds and actions go with their owner (CASCADE).
            User.objects.filter(pk__in=ids, is_guest=True).delete()
        deleted += len(ids)
    return deleted
