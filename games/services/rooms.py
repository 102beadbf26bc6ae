"""Writes of the rooms: seats, computer players, invitations, starting and closing."""

import secrets
from functools import partial

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.errors import GameError
from games.models import CLASSIC_TARGET, Match, Room, RoomInvitation, RoomSeat, Round
from games.services.table import match_start, table_changed_after_commit
from games.validators import clean_room_name


@transaction.atomic
def room_create(
    *,
    owner: User,
    variant: str = Room.Variant.PALARISTI,
    players: int = 4,
    target: int | None = None,
    bot_level: str = Room.BotLevel.MEDIUM,
    assist: bool = False,
    turn_seconds: int = 0,
) -> Room:
    """Open a room with ``players`` empty seats and seat its owner in seat 0.

    ``target`` defaults to the game's: 301 for palaristi, 1000 (the only one) for classic.
    A game, player count or target that do not go together raises ValidationError.
    """
    if target is None:
        target = CLASSIC_TARGET if variant == Room.Variant.CLASSIC else 301
    room = Room(
        owner=owner,
        variant=variant,
        players=players,
        target=target,
        bot_level=bot_level,
        assist=assist,
        turn_seconds=turn_seconds,
    )
    room.full_clean(exclude=["invite_token"])
    room.save()
    RoomSeat.objects.bulk_create(
        RoomSeat(room=room, seat=seat, user=owner if seat == 0 else None)
        for seat in room.seat_numbers
    )
    return room


def _locked_room(room_id: int) -> Room:
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise GameError("not_member") from None


def _locked_seats(room: Room) -> dict[int, RoomSeat]:
    return {s.seat: s for s in RoomSeat.objects.select_for_update(of=("self",)).filter(room=room)}


def _require_open(room: Room) -> None:
    if room.status == Room.Status.CLOSED:
        raise GameError("room_closed")
    if room.status != Room.Status.OPEN or room.matches.exists():
        raise GameError("room_not_open")


def _require_owner(room: Room, user: User) -> None:
    if room.owner_id != user.pk:
        raise GameError("not_owner")


@transaction.atomic
def room_take_seat(
    *, room_id: int, user: User, seat: int | None = None, token: str | None = None
) -> RoomSeat:
    """Seat ``user`` (the first free seat when ``seat`` is None); a seated player moves.

    Only the owner, a seated player, someone holding the room's invite token (until its link
    expires) or a friend invited to the room may sit.
    """
    room = _locked_room(room_id)
    seats = _locked_seats(room)
    mine = next((s for s in seats.values() if s.user_id == user.pk), None)
    invited = (
        token is not None
        and secrets.compare_digest(token, room.invite_token)
        and not room.is_invite_expired
    ) or (token is None and RoomInvitation.objects.filter(room=room, user=user).exists())
    if room.owner_id != user.pk and mine is None and not invited:
        raise GameError("bad_invite" if token is not None else "not_member")
    _require_open(room)
    if seat is None:
        if mine is not None:
            return mine
        free = [s for s in seats.values() if s.is_empty]
        if not free:
            raise GameError("room_full")
        target = min(free, key=lambda s: s.seat)
    else:
        if seat not in seats:
            raise GameError("malformed")
        target = seats[seat]
        if target == mine:
            return mine
        if not target.is_empty:
            raise GameError("seat_taken")
    if mine is not None:
        mine.user = None
        mine.save(update_fields=["user"])
    target.user = user
    target.save(update_fields=["user"])
    table_changed_after_commit(room.pk)
    return target


@transaction.atomic
def room_leave_seat(*, room_id: int, user: User) -> None:
    """Free the seat ``user`` holds, before the game starts."""
    room = _locked_room(room_id)
    _require_open(room)
    updated = RoomSeat.objects.filter(room=room, user=user).update(user=None)
    if not updated:
        raise GameError("not_seated")
    table_changed_after_commit(room.pk)


@transaction.atomic
def room_fill_seat_with_bot(*, room_id: int, user: User, seat: int) -> RoomSeat:
    """Put a computer player in an empty seat (the owner only)."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    _require_open(room)
    seats = _locked_seats(room)
    if seat not in seats:
        raise GameError("malformed")
    chair = seats[seat]
    if not chair.is_empty:
        raise GameError("seat_taken")
    chair.is_bot = True
    chair.save(update_fields=["is_bot"])
    table_changed_after_commit(room.pk)
    return chair


@transaction.atomic
def room_remove_bot(*, room_id: int, user: User, seat: int) -> RoomSeat:
    """Take a computer player out of its seat (the owner only)."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    _require_open(room)
    seats = _locked_seats(room)
    if seat not in seats or not seats[seat].is_bot:
        raise GameError("seat_not_bot")
    chair = seats[seat]
    chair.is_bot = False
    chair.save(update_fields=["is_bot"])
    table_changed_after_commit(room.pk)
    return chair


@transaction.atomic
def room_rename(*, room_id: int, user: User, name: str) -> Room:
    """Give the room a new name (the owner only, until it closes).

    The name is trimmed; an empty, overlong or unprintable one raises ValidationError.
    """
    room = _locked_room(room_id)
    _require_owner(room, user)
    if room.status == Room.Status.CLOSED:
        raise GameError("room_closed")
    room.name = clean_room_name(name)
    room.save(update_fields=["name"])
    table_changed_after_commit(room.pk)
    return room


@transaction.atomic
def room_renew_invite(*, room_id: int, user: User) -> str:
    """Replace the room's invite token, so that links already shared stop working."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    room.invite_token = secrets.token_urlsafe(24)
    room.invite_created = timezone.now()
    room.save(update_fields=["invite_token", "invite_created"])
    return room.invite_token


@transaction.atomic
def room_invite_friend(*, room_id: int, user: User, friend: User) -> RoomInvitation:
    """Invite a friend to a room: a live note in their lobby and an email, after commit.

    The owner and the seated players may invite their own friends while a seat is free.
    """
    from accounts.selectors import are_friends

    room = _locked_room(room_id)
    seats = _locked_seats(room)
    if room.owner_id != user.pk and not any(s.user_id == user.pk for s in seats.values()):
        raise GameError("not_member")
    _require_open(room)
    if not are_friends(user, friend):
        raise GameError("not_friends")
    if any(s.user_id == friend.pk for s in seats.values()):
        raise GameError("already_seated")
    if not any(s.is_empty for s in seats.values()):
        raise GameError("room_full")
    invitation, created = RoomInvitation.objects.get_or_create(
        room=room, user=friend, defaults={"invited_by": user}
    )
    if created:
        transaction.on_commit(partial(_announce_invitation, invitation.pk))
    return invitation


def _announce_invitation(invitation_id: int) -> None:
    from games.tasks import send_room_invitation_email
    from lobby.realtime import send_invitation_note

    send_invitation_note(invitation_id)
    send_room_invitation_email.delay(invitation_id)


@transaction.atomic
def room_close(*, room_id: int, user: User) -> None:
    """Close the room for good (the owner only)."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    room.status = Room.Status.CLOSED
    room.save(update_fields=["status"])
    room.matches.filter(status=Match.Status.PLAYING).update(status=Match.Status.FINISHED)
    Round.objects.filter(match__room=room, status=Round.Status.PLAYING).update(
        status=Round.Status.CANCELLED
    )
    table_changed_after_commit(room.pk)


@transaction.atomic
def room_start(*, room_id: int, user: User) -> Match:
    """Start the first match once every seat is filled (the owner only)."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    _require_open(room)
    if any(s.is_empty for s in _locked_seats(room).values()):
        raise GameError("seats_empty")
    return match_start(room=room)


@transaction.atomic
def room_play_now(*, user: User, level: str, target: int) -> Room:
    """Open a room with ``user`` in seat 0 and three computers of ``level``, and start its match.

    Play now's one tap: the owner's steps by hand, in one transaction. The computers are seated
    in one write, not with ``room_fill_seat_with_bot``: nobody watches a room not yet shown, and
    each of those calls would publish a snapshot of the table (about 0.1 s each) for nothing.
    """
    room = room_create(owner=user, target=target, bot_level=level)
    RoomSeat.objects.filter(room=room, seat__gt=0).update(is_bot=True)
    room_start(room_id=room.pk, user=user)
    room.refresh_from_db()
    return room


@transaction.atomic
def match_rematch(*, room_id: int, user: User) -> Match:
    """Start a new match with the same seats, once the last one is over (any seated player)."""
    room = _locked_room(room_id)
    seats = _locked_seats(room)
    if not any(s.user_id == user.pk for s in seats.values()):
        raise GameError("not_seated")
    if room.status == Room.Status.CLOSED:
        raise GameError("room_closed")
    if room.matches.filter(status=Match.Status.PLAYING).exists() or not room.matches.exists():
        raise GameError("match_playing")
    if any(s.is_empty for s in seats.values()):
        raise GameError("seats_empty")
    return match_start(room=room)
