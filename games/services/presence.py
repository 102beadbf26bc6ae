"""Writes of presence: who holds a live socket at the table, and the computer standing in.

A socket's life is a lease in the cache (games.liveness); these functions keep the seats in the
database in step with it. Whoever notices first that a seat's last lease is gone, the socket
closing or the sweeper finding it lapsed, starts the disconnect grace; after it the computer plays
for the player until they come back.
"""

from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.liveness import alive_scopes, table_scope
from games.models import Room, RoomSeat
from games.selectors import playing_round_id
from games.services.table import round_schedule_turn, table_changed_after_commit


def grace_seconds() -> float:
    """Return how long a disconnected player keeps their turns before the computer plays them."""
    return float(getattr(settings, "DISCONNECT_GRACE_SECONDS", 60))


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
    """Note that ``user`` has a live socket at the table again: coming back takes the seat back.

    A player who returns during their own turn gets it back whole: the computer standing in
    stands down, and a turn clock starts again.
    """
    chair = (
        RoomSeat.objects.select_for_update(of=("self",)).filter(room_id=room_id, user=user).first()
    )
    if chair is None or (not chair.away and chair.disconnected_at is None):
        return
    was_away = chair.away
    chair.away = False
    chair.disconnected_at = None
    chair.save(update_fields=["away", "disconnected_at"])
    if was_away:
        table_changed_after_commit(room_id)
        round_id = playing_round_id(room_id=room_id)
        if round_id is not None:
            round_schedule_turn(round_id=round_id)


@transaction.atomic
def seat_disconnected(*, room_id: int, user: User) -> None:
    """Note that the last live socket of ``user`` at the table closed: the grace begins."""
    updated = RoomSeat.objects.filter(
        room_id=room_id, user=user, disconnected_at__isnull=True
    ).update(disconnected_at=timezone.now())
    if updated:
        seat = RoomSeat.objects.filter(room_id=room_id, user=user).values_list("seat", flat=True)
        transaction.on_commit(
            partial(_enqueue_presence_check, room_id, seat.get(), grace_seconds())
        )


def _enqueue_presence_check(room_id: int, seat: int, countdown: float) -> None:
    from games.tasks import seat_check_presence

    seat_check_presence.apply_async(args=(room_id, seat), countdown=countdown)


@transaction.atomic
def seat_release_if_gone(*, room_id: int, seat: int) -> bool:
    """Let the computer play for a seated player whose grace ran out with no live socket.

    Say whether the computer took over now.
    """
    chair = (
        RoomSeat.objects.select_for_update(of=("self",)).filter(room_id=room_id, seat=seat).first()
    )
    if chair is None or chair.user_id is None or chair.away or chair.disconnected_at is None:
        return False
    if alive_scopes([table_scope(room_id, chair.user_id)]):
        return False
    if chair.disconnected_at > timezone.now() - timedelta(seconds=grace_seconds()):
        return False
    if not seat_mark_away(room_id=room_id, seat=seat):
        return False
    round_id = playing_round_id(room_id=room_id)
    if round_id is not None:
        round_schedule_turn(round_id=round_id)
    return True


def seats_sweep_absent() -> int:
    """Find the players of running games whose sockets all died unseen; start or end their grace.

    A process killed with its sockets open never says they closed: the leases lapse, and this is
    where that is noticed. Return how many seats the computer took over.
    """
    now = timezone.now()
    chairs = list(
        RoomSeat.objects.filter(
            room__status=Room.Status.PLAYING, user__isnull=False, away=False
        ).values_list("room_id", "seat", "user_id", "disconnected_at")
    )
    alive = alive_scopes([table_scope(room_id, user_id) for room_id, _s, user_id, _d in chairs])
    taken = 0
    for room_id, seat, user_id, disconnected_at in chairs:
        if table_scope(room_id, user_id) in alive:
            if disconnected_at is not None:
                RoomSeat.objects.filter(room_id=room_id, seat=seat).update(disconnected_at=None)
            continue
        if disconnected_at is None:
            RoomSeat.objects.filter(
                room_id=room_id, seat=seat, disconnected_at__isnull=True
            ).update(disconnected_at=now)
        elif seat_release_if_gone(room_id=room_id, seat=seat):
            taken += 1
    return taken
