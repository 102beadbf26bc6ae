"""Celery tasks of the table: computer players' turns and the clock."""

import random
from contextlib import suppress
from datetime import timedelta
from functools import partial

from celery import shared_task
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from accounts.emails import absolute_url, email_render, email_send
from games.bots import choose_action
from games.engine import Action, RoundState
from games.errors import GameError
from games.models import Room, RoomInvitation, RoomSeat, Round
from games.services.guests import guests_delete_inactive
from games.services.presence import seat_mark_away, seat_release_if_gone, seats_sweep_absent
from games.services.table import (
    rooms_announce_lost_changes,
    round_apply_computer_moves,
    round_play_computers,
    turns_sweep_overdue,
)
from games.snapshots import round_state_cached


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=3)
def bot_play_turn(round_id: int, seq: int, timeout: bool = False, level: str | None = None) -> None:
    """Play the turn at log position ``seq`` for a computer, once; a later turn is left alone.

    With ``timeout`` the player's clock ran out: the computer plays for them from now on. With
    no pacing between computers' moves, the computers who follow play in the same task, as one
    change of the table. ``level`` is the room's computers' level, when the task was queued with
    it: a quick thinker then decides under the round's lock, reading the round once.
    """
    if not timeout and level is not None and level != Room.BotLevel.STRONG:
        decide = partial(computer_moves, level=level, rng=random.Random())
        # GameError: the turn has moved on, the round is over, or a person holds the seat.
        with suppress(GameError):
            round_play_computers(round_id=round_id, expected_seq=seq, decide=decide)
        return
    round_ = Round.objects.select_related("match__room").filter(pk=round_id).first()
    if round_ is None or round_.status != Round.Status.PLAYING:
        return
    if timeout and _clock_restarted(round_):
        return
    if round_.turn_seq != seq:
        return  # the turn has moved on: nothing to rebuild
    state = round_state_cached(round_)
    seat = state.to_act
    if len(state.history) != seq or seat is None:
        return
    room = round_.match.room
    chairs = {chair.seat: chair for chair in RoomSeat.objects.filter(room=room)}
    if timeout and not chairs[seat].bot_plays:
        seat_mark_away(room_id=room.pk, seat=seat)
        chairs[seat].away = True
    elif not chairs[seat].bot_plays:
        return
    moves = computer_moves(state, chairs, level=room.bot_level, rng=random.Random())
    try:
        round_apply_computer_moves(round_id=round_id, moves=moves, expected_seq=seq)
    except GameError:
        # Someone acted first (a duplicate task, or the player came back): nothing to do.
        return


def computer_moves(
    state: RoundState, chairs: dict[int, RoomSeat], *, level: str, rng: random.Random
) -> list[tuple[int, Action]]:
    """Decide the move of the computer to act and, without pacing, of the computers after it.

    The run stops at a person's turn and at the end of the round. Each move is decided from
    its own seat's observation only.
    """
    batch = getattr(settings, "BOT_PACING_SECONDS", 0.8) <= 0
    moves: list[tuple[int, Action]] = []
    while (seat := state.to_act) is not None and chairs[seat].bot_plays:
        action = choose_action(state.observation(seat), level=level, rng=rng)
        moves.append((seat, action))
        state = state.apply(seat, action)
        if not batch:
            break
    return moves


def _clock_restarted(round_: Round) -> bool:
    """Say whether the player's clock was started again (they came back) after this task's."""
    due = round_.turn_due_at
    return due is not None and due > timezone.now() + timedelta(seconds=1)


@shared_task(acks_late=True)
def seat_check_presence(room_id: int, seat: int) -> None:
    """Let the computer play for a player still disconnected after the grace time."""
    seat_release_if_gone(room_id=room_id, seat=seat)


@shared_task(acks_late=True, expires=10)
def table_sweep() -> None:
    """Find lost turns, vanished players and unannounced changes (every few seconds, by beat).

    All can only be noticed by looking: a worker killed mid-turn, a web process killed with its
    sockets open, and either killed between a change's commit and its announcement leave no
    message behind.
    """
    turns_sweep_overdue()
    seats_sweep_absent()
    rooms_announce_lost_changes()


@shared_task(acks_late=True, expires=3600)
def guests_sweep() -> int:
    """Delete the guests gone quiet for a week, with their tables (run hourly by Celery beat)."""
    return guests_delete_inactive()


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True)
def send_room_invitation_email(invitation_id: int) -> None:
    """Email a friend the invitation to a room, in their language."""
    invitation = (
        RoomInvitation.objects.select_related("room", "invited_by", "user")
        .filter(pk=invitation_id)
        .first()
    )
    # A guest has no address (and is never invited); the check keeps the type honest.
    if invitation is None or invitation.user.email is None:
        return
    recipient = invitation.user
    language = recipient.preferred_language
    with translation.override(language):
        context = {
            "recipient_name": recipient.table_name,
            "inviter_name": invitation.invited_by.table_name,
            "link": absolute_url(reverse("games:room_invitation", args=[invitation.room_id])),
        }
    subject, body = email_render("games/email/room_invitation", context, language)
    email_send(subject=subject, body=body, to=[invitation.user.email])
