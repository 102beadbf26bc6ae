"""Celery tasks of the table: computer players' turns and the clock."""

import random

from celery import shared_task
from django.urls import reverse
from django.utils import translation

from accounts.emails import absolute_url, email_render, email_send
from games.bots import choose_action
from games.errors import GameError
from games.models import RoomInvitation, RoomSeat, Round
from games.selectors import playing_round_id, round_view
from games.services.presence import seat_mark_away
from games.services.table import round_apply_action, round_schedule_turn


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=3)
def bot_play_turn(round_id: int, seq: int, timeout: bool = False) -> None:
    """Play the turn at log position ``seq`` for a computer, once; a later turn is left alone.

    With ``timeout`` the player's clock ran out: the computer plays for them from now on.
    """
    round_ = Round.objects.select_related("match__room").filter(pk=round_id).first()
    if round_ is None or round_.status != Round.Status.PLAYING:
        return
    view = round_view(round_)
    seat = view.state.to_act
    if view.seq != seq or seat is None:
        return
    room = round_.match.room
    chair = RoomSeat.objects.get(room=room, seat=seat)
    if timeout and not chair.bot_plays:
        seat_mark_away(room_id=room.pk, seat=seat)
    elif not chair.bot_plays:
        return
    observation = view.state.observation(seat)
    action = choose_action(observation, level=room.bot_level, rng=random.Random())
    try:
        round_apply_action(
            round_id=round_id, seat=seat, action=action, actor=None, expected_seq=seq
        )
    except GameError:
        # Someone acted first (a duplicate task, or the player came back): nothing to do.
        return


@shared_task(acks_late=True)
def seat_check_presence(room_id: int, seat: int) -> None:
    """Let the computer play for a player still disconnected after the grace time."""
    chair = RoomSeat.objects.select_related("room").filter(room_id=room_id, seat=seat).first()
    if chair is None or chair.user_id is None or chair.connections > 0:
        return
    if not seat_mark_away(room_id=room_id, seat=seat):
        return
    round_id = playing_round_id(room_id=room_id)
    if round_id is not None:
        round_schedule_turn(round_id=round_id)


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True)
def send_room_invitation_email(invitation_id: int) -> None:
    """Email a friend the invitation to a room, in their language."""
    invitation = (
        RoomInvitation.objects.select_related("room", "invited_by", "user")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None:
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
    email_send(subject=subject, body=body, to=[recipient.email])
