"""Writes of rooms and tables: every seat change and every action goes through here."""

import secrets
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import (
    Action,
    Announce,
    IllegalActionError,
    Phase,
    Play,
    RoundState,
    Ruleset,
    Show,
    action_to_dict,
    deal,
    draw_cut,
    format_cards,
    shuffled_deck,
    table_deck,
)
from games.engine.records import result_json
from games.errors import GameError
from games.models import SEATS, Match, Room, RoomInvitation, RoomSeat, Round, RoundAction
from games.realtime import send_table_changed
from games.selectors import round_state

ENDED = (Phase.CANCELLED, Phase.FINISHED)


# Rooms and seats.


@transaction.atomic
def room_create(
    *,
    owner: User,
    target: int = 301,
    bot_level: str = Room.BotLevel.MEDIUM,
    assist: bool = False,
    turn_seconds: int = 0,
) -> Room:
    """Open a room with four empty seats and seat its owner in seat 0."""
    room = Room(
        owner=owner,
        target=target,
        bot_level=bot_level,
        assist=assist,
        turn_seconds=turn_seconds,
    )
    room.full_clean(exclude=["invite_token"])
    room.save()
    RoomSeat.objects.bulk_create(
        RoomSeat(room=room, seat=seat, user=owner if seat == 0 else None) for seat in SEATS
    )
    return room


def _locked_room(room_id: int) -> Room:
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise GameError("not_member") from None


def _locked_seats(room: Room) -> dict[int, RoomSeat]:
    return {s.seat: s for s in RoomSeat.objects.select_for_update().filter(room=room)}


def _changed(room_id: int) -> None:
    transaction.on_commit(partial(send_table_changed, room_id))


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

    Only the owner, a seated player, or someone holding the room's invite token may sit.
    """
    room = _locked_room(room_id)
    seats = _locked_seats(room)
    mine = next((s for s in seats.values() if s.user_id == user.pk), None)
    invited = (token is not None and secrets.compare_digest(token, room.invite_token)) or (
        token is None and RoomInvitation.objects.filter(room=room, user=user).exists()
    )
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
    _changed(room.pk)
    return target


@transaction.atomic
def room_leave_seat(*, room_id: int, user: User) -> None:
    """Free the seat ``user`` holds, before the game starts."""
    room = _locked_room(room_id)
    _require_open(room)
    updated = RoomSeat.objects.filter(room=room, user=user).update(user=None)
    if not updated:
        raise GameError("not_seated")
    _changed(room.pk)


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
    _changed(room.pk)
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
    _changed(room.pk)
    return chair


@transaction.atomic
def room_renew_invite(*, room_id: int, user: User) -> str:
    """Replace the room's invite token, so that links already shared stop working."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    room.invite_token = secrets.token_urlsafe(24)
    room.save(update_fields=["invite_token"])
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
    from games.realtime import send_invitation_note
    from games.tasks import send_room_invitation_email

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
    _changed(room.pk)


@transaction.atomic
def room_start(*, room_id: int, user: User) -> Match:
    """Start the first match once all four seats are filled (the owner only)."""
    room = _locked_room(room_id)
    _require_owner(room, user)
    _require_open(room)
    if any(s.is_empty for s in _locked_seats(room).values()):
        raise GameError("seats_empty")
    return _start_match(room)


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
    return _start_match(room)


def _start_match(room: Room) -> Match:
    rng = secrets.SystemRandom()
    ruleset = Ruleset(target=room.target)
    match = Match.objects.create(
        room=room, ruleset=ruleset.to_dict(), first_dealer=rng.randrange(4), totals=[0, 0]
    )
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
    RoomSeat.objects.filter(room=room).update(away=False)
    first = _deal_round(match, number=1, dealer=match.first_dealer, previous=None)
    _changed(room.pk)
    _schedule_turn(room, first, seq=0, to_act=(first.dealer + 1) % 4)
    return match


def _deal_round(match: Match, *, number: int, dealer: int, previous: RoundState | None) -> Round:
    """Deal a round: a secure shuffle, or the cards as they lie on the table; a secure cut."""
    rng = secrets.SystemRandom()
    handling = match.ruleset.get("deck_handling", "shuffle")
    deck = shuffled_deck(rng) if handling == "shuffle" or previous is None else table_deck(previous)
    cut = draw_cut(rng)
    hands = deal(deck, dealer=dealer, cut=cut)
    return Round.objects.create(
        match=match,
        number=number,
        dealer=dealer,
        hands=[format_cards(hand) for hand in hands],
        deck_handling=handling,
        cut=cut,
    )


# The table.


@dataclass(frozen=True)
class AppliedAction:
    """What one accepted action did: its log position, and the round now being played."""

    seq: int
    round_ended: bool
    match_ended: bool
    next_round_id: int | None


@transaction.atomic
def round_apply_action(
    *,
    round_id: int,
    seat: int,
    action: Action,
    actor: User | None,
    expected_seq: int | None = None,
) -> AppliedAction:
    """Check one action with the engine, append it to the log and move the match on.

    ``actor`` None is a computer player. ``expected_seq`` refuses an action decided on a
    state that has moved on since. Nothing is written when the action is refused.
    """
    try:
        round_ = Round.objects.select_for_update().select_related("match__room").get(pk=round_id)
    except Round.DoesNotExist:
        raise GameError("no_round") from None
    if round_.status != Round.Status.PLAYING:
        raise GameError("round_over")
    state = round_state(round_)
    seq = len(state.history)
    if expected_seq is not None and expected_seq != seq:
        raise GameError("stale")
    if state.to_act != seat:
        raise GameError("not_your_turn")
    room = round_.match.room
    chair = RoomSeat.objects.select_for_update().get(room=room, seat=seat)
    if actor is not None:
        if chair.user_id != actor.pk:
            raise GameError("not_seated")
        if chair.away:
            # The player is back: their own action takes the seat back from the computer.
            chair.away = False
            chair.save(update_fields=["away"])
    steps = _with_assist(state, seat, action) if actor is not None and room.assist else [action]
    for step in steps:
        try:
            state = state.apply(seat, step)
        except IllegalActionError as error:
            raise GameError(error.reason) from error
    try:
        with transaction.atomic():
            RoundAction.objects.bulk_create(
                RoundAction(
                    round=round_,
                    seq=seq + offset,
                    seat=seat,
                    action=action_to_dict(seat, step),
                    actor=actor,
                    is_bot=actor is None,
                )
                for offset, step in enumerate(steps)
            )
    except IntegrityError:
        raise GameError("stale") from None
    seq += len(steps)
    _changed(room.pk)
    if state.phase not in ENDED:
        assert state.to_act is not None
        _schedule_turn(room, round_, seq=seq, to_act=state.to_act)
        return AppliedAction(seq=seq, round_ended=False, match_ended=False, next_round_id=None)
    return _end_round(round_, state, seq)


def _with_assist(state: RoundState, seat: int, action: Action) -> list[Action]:
    """Announce, show and call pilotta for a player whose room turns the assist on."""
    if not isinstance(action, Play):
        return [action]
    steps: list[Action] = []
    legal = state.legal_actions()
    for automatic in (Announce(), Show()):
        if automatic in legal:
            steps.append(automatic)
            state = state.apply(seat, automatic)
    flagged = Play(action.card, pilotta=True)
    if not action.pilotta and state.why_illegal(seat, flagged) is None:
        action = flagged
    return [*steps, action]


def _end_round(round_: Round, state: RoundState, seq: int) -> AppliedAction:
    match = round_.match
    room = match.room
    round_.status = (
        Round.Status.FINISHED if state.phase == Phase.FINISHED else Round.Status.CANCELLED
    )
    round_.result = result_json(state.result)
    round_.save(update_fields=["status", "result"])
    score = state.result.score if state.result is not None else (0, 0)
    totals = [match.totals[0] + score[0], match.totals[1] + score[1]]
    match.totals = totals
    target = Ruleset.from_dict(match.ruleset).target
    if max(totals) >= target and totals[0] != totals[1]:
        match.winner = 0 if totals[0] > totals[1] else 1
        match.status = Match.Status.FINISHED
        match.save(update_fields=["totals", "winner", "status"])
        room.status = Room.Status.OPEN
        room.save(update_fields=["status"])
        return AppliedAction(seq=seq, round_ended=True, match_ended=True, next_round_id=None)
    match.save(update_fields=["totals"])
    dealer = (round_.dealer + 1) % 4
    following = _deal_round(match, number=round_.number + 1, dealer=dealer, previous=state)
    pause = getattr(settings, "ROUND_PAUSE_SECONDS", 3.0)
    _schedule_turn(room, following, seq=0, to_act=(dealer + 1) % 4, pause=pause)
    return AppliedAction(seq=seq, round_ended=True, match_ended=False, next_round_id=following.pk)


def _schedule_turn(room: Room, round_: Round, *, seq: int, to_act: int, pause: float = 0.0) -> None:
    """After commit, let the computer play its turn, or start the player's clock."""
    chair = RoomSeat.objects.get(room=room, seat=to_act)
    if chair.bot_plays:
        countdown = pause + getattr(settings, "BOT_PACING_SECONDS", 0.8)
        transaction.on_commit(partial(_enqueue_bot, round_.pk, seq, countdown, False))
    elif room.turn_seconds:
        countdown = pause + room.turn_seconds
        transaction.on_commit(partial(_enqueue_bot, round_.pk, seq, countdown, True))


@transaction.atomic
def round_schedule_turn(*, round_id: int) -> None:
    """Start the computer or the clock for whoever is to act now in a round being played."""
    round_ = Round.objects.select_related("match__room").get(pk=round_id)
    state = round_state(round_)
    if round_.status == Round.Status.PLAYING and state.to_act is not None:
        _schedule_turn(round_.match.room, round_, seq=len(state.history), to_act=state.to_act)


def _enqueue_bot(round_id: int, seq: int, countdown: float, timeout: bool) -> None:
    from games.tasks import bot_play_turn

    bot_play_turn.apply_async(
        args=(round_id, seq), kwargs={"timeout": timeout}, countdown=countdown
    )


# Presence and stand-ins.


@transaction.atomic
def seat_mark_away(*, room_id: int, seat: int) -> bool:
    """Let the computer play for a seated player who is out of time or gone; say if it changed."""
    updated = RoomSeat.objects.filter(
        room_id=room_id, seat=seat, user__isnull=False, away=False
    ).update(away=True)
    if updated:
        _changed(room_id)
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
        _changed(room_id)


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
