"""Writes of presence: who holds a connection to the table, and the computer standing in."""

from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import RoomSeat
from games.services.table import table_changed_after_commit


@transaction.atomic
def seat_mark_away(*, room_id: int, seat: int) -> bool:
    """Let the computer play for a seated player who is out of time or gone; say if it changed."""
    updated = RoomSeat.objects.filter(
        room_id=room_id, seat=seat, user__isnull=False, away=False
    ).update(away=True)
    if updated:
        table_changed_after_commit(room_id)
    return bool(updated)


@transaction.atomic
def seat_connected(*, room_id: int, user: User) -> None:
    """Count an open table connection of ``user``; coming back takes the seat back."""
    chair = RoomSeat.objects.select_for_update().filter(room_id=room_id, user=user).first()
    if chair is None:
        return
    was_away = chair.away
    chair.connections += 1
    chair.away = False
    chair.disconnected_at = None
    chair.save(update_fields=["connections", "away", "disconnected_at"])
    if was_away:
        table_changed_after_commit(room_id)


@transaction.atomic
def seat_disconnected(*, room_id: int, user: User) -> None:
    """Count a closed connection; after the last one, the computer steps in after a grace time."""
    chair = RoomSeat.objects.select_for_update().filter(room_id=room_id, user=user).first()
    if chair is None:
        return
    chair.connections = max(chair.connections - 1, 0)
    if chair.connections == 0:
        chair.disconnected_at = timezone.now()
    chair.save(update_fields=["connections", "disconnected_at"])
    if chair.connections == 0:
        grace = getattr(settings, "DISCONNECT_GRACE_SECONDS", 60)
        transaction.on_commit(partial(_enqueue_presence_check, room_id, chair.seat, grace))


def _enqueue_presence_check(room_id: int, seat: int, countdown: float) -> None:
    from games.tasks import seat_check_presence

    seat_check_presence.apply_async(args=(room_id, seat), countdown=countdown)
