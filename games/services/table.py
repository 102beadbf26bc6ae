"""Writes of the table: dealing, each action of a round, and the turns of computers and the clock.

The engine owns the rules and the match (rounds, dealer rotation, target, ties, winner); these
functions only store what it decides, and tell the table after commit.
"""

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial, wraps
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.engine import (
    Action,
    IllegalActionError,
    MatchState,
    Phase,
    RoundState,
    action_to_dict,
    draw_cut,
    format_cards,
)
from games.engine.assist import assisted_actions
from games.engine.records import result_json
from games.errors import GameError
from games.models import Match, Room, RoomSeat, Round, RoundAction
from games.realtime import send_table_changed
from games.selectors import match_state
from games.snapshots import (
    announced_versions,
    contract_json,
    derived_snapshot,
    mark_announced,
    remember_round_state,
    round_state_cached,
    snapshot_key,
    table_snapshot,
)

ENDED = (Phase.CANCELLED, Phase.FINISHED)
ANNOUNCED_PER_SWEEP = 200
# How long a room that has left play (finished or closed) is still watched for lost changes:
# its players look at the result for a while, and the sweeper may itself have been down.
LEFT_PLAY_SWEPT_FOR = timedelta(hours=1)
P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Played:
    """Actions played within a round, and nothing else: the table's next snapshot is derived."""

    room_created: float
    round_id: int
    state: RoundState
    steps: int


@dataclass
class Publication:
    """Where a change's snapshot was published, once its transaction has committed."""

    key: str | None = None


def table_changed_after_commit(room_id: int, *, played: Played | None = None) -> Publication:
    """Count a change of the room; once it commits, publish its snapshot and tell the table.

    The snapshot is built once, here, for every connection: each then draws its own seat's
    view of it without going to the database. When the change is only actions played within
    a round (``played``), the new snapshot is the previous one with the new state. The
    returned publication names the snapshot once it is published.
    """
    publication = Publication()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_room SET version = version + 1, changed = %s WHERE id = %s"
            " RETURNING version",
            [timezone.now(), room_id],
        )
        row = cursor.fetchone()
    if row is not None:
        transaction.on_commit(partial(_publish, room_id, row[0], played, publication))
    return publication


def _publish(
    room_id: int, version: int, played: Played | None, publication: Publication | None = None
) -> None:
    snapshot = None
    if played is not None:
        snapshot = derived_snapshot(
            room_id=room_id,
            room_created=played.room_created,
            version=version,
            round_id=played.round_id,
            state=played.state,
            steps=played.steps,
        )
    if snapshot is None:
        snapshot = table_snapshot(room_id=room_id)
    if snapshot is not None:
        key = snapshot_key(snapshot)
        if publication is not None:
            publication.key = key
        send_table_changed(room_id, version=snapshot.version, key=key)
        mark_announced(snapshot)


def rooms_announce_lost_changes() -> int:
    """Tell the tables again of changes nobody told them of; return how many rooms.

    A change is announced after its commit by the process that made it. A process killed
    between the two (a worker that just played a computer's card, a web process that just took
    a player's) leaves a change no socket heard of: the player whose turn it became would wait
    for the turn clock, or for ever at a table without one. Announcing a change twice is
    harmless, since a connection skips a version it has drawn. Rooms that have just left
    play are watched too: a match's last card or the owner's close would otherwise leave the
    players looking at a table that no longer is.
    """
    watched = Room.objects.filter(
        Q(status__in=(Room.Status.OPEN, Room.Status.PLAYING))
        | Q(changed__gte=timezone.now() - LEFT_PLAY_SWEPT_FOR)
    )
    rooms = {
        (pk, created.timestamp()): version
        for pk, created, version in watched.values_list("pk", "created", "version")
    }
    announced = announced_versions(list(rooms))
    lost = [(room, version) for room, version in rooms.items() if announced.get(room, 0) < version]
    # Newest rooms first, and a bounded share per sweep: after the cache is emptied every room
    # in use looks unannounced, and the rest wait for the next sweeps.
    lost.sort(key=lambda lost_room: lost_room[0][0], reverse=True)
    for (room_id, _created), version in lost[:ANNOUNCED_PER_SWEEP]:
        _publish(room_id, version, None)
    return min(len(lost), ANNOUNCED_PER_SWEEP)


def match_start(*, room: Room) -> Match:
    """Start a match in a locked room whose seats are all taken: draw the dealer, deal round 1."""
    rng = secrets.SystemRandom()
    ruleset = room.ruleset()
    first_dealer = rng.randrange(ruleset.players)
    match = Match.objects.create(
        room=room,
        ruleset=ruleset.to_dict(),
        first_dealer=first_dealer,
        totals=[0] * ruleset.sides,
    )
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status"])
    RoomSeat.objects.filter(room=room).update(away=False)
    state = MatchState.new(ruleset=ruleset, first_dealer=first_dealer)
    first = _deal_round(match, state, number=1)
    table_changed_after_commit(room.pk)
    _schedule_turn(room, first, seq=0, to_act=ruleset.next_seat(first.dealer))
    return match


def _deal_round(match: Match, state: MatchState, *, number: int) -> Round:
    """Store the engine's next deal: a secure shuffle (or the table's cards) and a secure cut.

    A classic deal stores the five cards each seat holds during the auction, the turned card
    and the stock, from which the engine completes the hands once someone takes.
    """
    rng = secrets.SystemRandom()
    ruleset = state.ruleset
    cut = draw_cut(rng, len(ruleset.deck))
    dealt = state.deal_round(rng, cut=cut)
    return Round.objects.create(
        match=match,
        number=number,
        dealer=dealt.dealer,
        hands=[format_cards(hand) for hand in dealt.first_hands],
        turned=str(dealt.turned) if dealt.turned is not None else "",
        stock=format_cards(dealt.stock),
        deck_handling=ruleset.deck_handling,
        cut=cut,
    )


def stale_on_conflict(function: Callable[P, R]) -> Callable[P, R]:
    """Refuse as ``stale`` a move whose log position another took first, once rolled back.

    The round's lock makes it all but impossible; the unique log position makes it certain.
    Put outside ``transaction.atomic``, so that the transaction has ended when it is caught.
    """

    @wraps(function)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except IntegrityError:
            raise GameError("stale") from None

    return guarded


@dataclass(frozen=True)
class AppliedAction:
    """What one accepted action did: its log position, the round now being played, and where
    the table's new snapshot was published (once committed)."""

    seq: int
    round_ended: bool
    match_ended: bool
    next_round_id: int | None
    published: Publication = field(default_factory=Publication)


@stale_on_conflict
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
    round_, state = _locked_round(round_id, expected_seq)
    chairs = _locked_chairs(round_.match.room)
    return _apply_checked(round_, state, chairs, seat=seat, action=action, actor=actor)


@stale_on_conflict
@transaction.atomic
def seat_apply_action(*, room_id: int, user: User, action: Action) -> AppliedAction:
    """Play ``user``'s action from the seat they hold in the room, in the round being played.

    A player's move over the socket: the seat is the one the locked seats give the user, never
    one the client names. Nothing is written when the action is refused.
    """
    found = _locked_playing_round(room_id)
    if found is None:
        seated = RoomSeat.objects.filter(room_id=room_id, user=user).exists()
        raise GameError("no_round" if seated else "not_seated")
    round_, state = found
    chairs = _locked_chairs(round_.match.room)
    seat = next((chair.seat for chair in chairs.values() if chair.user_id == user.pk), None)
    if seat is None:
        raise GameError("not_seated")
    return _apply_checked(round_, state, chairs, seat=seat, action=action, actor=user)


def _apply_checked(
    round_: Round,
    state: RoundState,
    chairs: dict[int, RoomSeat],
    *,
    seat: int,
    action: Action,
    actor: User | None,
) -> AppliedAction:
    """Apply one action of ``seat`` to a locked round, with its assisted steps, and record it."""
    if state.to_act != seat:
        raise GameError("not_your_turn")
    room = round_.match.room
    chair = chairs[seat]
    seat_changed = False
    if actor is not None:
        if chair.user_id != actor.pk:
            raise GameError("not_seated")
        if chair.away:
            # The player is back: their own action takes the seat back from the computer.
            chair.away, seat_changed = False, True
            chair.save(update_fields=["away"])
    steps = (
        assisted_actions(state.observation(seat), action)
        if actor is not None and room.assist
        else (action,)
    )
    for step in steps:
        state = _checked_apply(state, seat, step)
    moves = [(seat, step) for step in steps]
    return _record_moves(
        round_, state, moves, actor=actor, chairs=chairs, seat_changed=seat_changed
    )


@stale_on_conflict
@transaction.atomic
def round_apply_computer_moves(
    *, round_id: int, moves: Sequence[tuple[int, Action]], expected_seq: int
) -> AppliedAction:
    """Apply consecutive computer moves as one change of the table: one commit, one update.

    The moves were decided on the round at ``expected_seq``. A move whose seat a person has
    taken back meanwhile is dropped with every move after it; the first must still be a
    computer's, or nothing is written.
    """
    round_, state = _locked_round(round_id, expected_seq)
    chairs = _locked_chairs(round_.match.room)
    applied: list[tuple[int, Action]] = []
    for seat, action in moves:
        if state.to_act != seat or not chairs[seat].bot_plays:
            break
        state = _checked_apply(state, seat, action)
        applied.append((seat, action))
    if not applied:
        raise GameError("not_your_turn")
    return _record_moves(round_, state, applied, actor=None, chairs=chairs, seat_changed=False)


ComputerDecision = Callable[[RoundState, dict[int, RoomSeat]], list[tuple[int, Action]]]


@stale_on_conflict
@transaction.atomic
def round_play_computers(
    *, round_id: int, expected_seq: int, decide: ComputerDecision
) -> AppliedAction:
    """Decide the computers' moves under the round's lock and apply them as one change.

    For computers whose choice costs well under a millisecond a move (easy, medium): the round
    and its seats are read once, locked, instead of once to decide and again to apply. The
    strong computer, which thinks for up to half a second a card, decides outside the lock and
    applies with ``round_apply_computer_moves``. ``decide`` returns no move when the seat to act
    is not a computer's, and then nothing is written.
    """
    round_, state = _locked_round(round_id, expected_seq)
    chairs = _locked_chairs(round_.match.room)
    moves = decide(state, chairs)
    if not moves:
        raise GameError("not_your_turn")
    for seat, action in moves:
        state = _checked_apply(state, seat, action)
    return _record_moves(round_, state, moves, actor=None, chairs=chairs, seat_changed=False)


def _locked_round(round_id: int, expected_seq: int | None) -> tuple[Round, RoundState]:
    """Lock a round being played and rebuild it, refusing a state that has moved on."""
    try:
        round_ = (
            Round.objects.select_for_update(of=("self",))
            .select_related("match__room")
            .get(pk=round_id)
        )
    except Round.DoesNotExist:
        raise GameError("no_round") from None
    if round_.status != Round.Status.PLAYING:
        raise GameError("round_over")
    state = round_state_cached(round_)
    if expected_seq is not None and expected_seq != len(state.history):
        raise GameError("stale")
    return round_, state


def _locked_playing_round(room_id: int) -> tuple[Round, RoundState] | None:
    """Lock the round being played in a room and rebuild it; None when none is."""
    round_ = (
        Round.objects.select_for_update(of=("self",))
        .select_related("match__room")
        .filter(match__room_id=room_id, status=Round.Status.PLAYING)
        .order_by("-pk")
        .first()
    )
    return None if round_ is None else (round_, round_state_cached(round_))


def _locked_chairs(room: Room) -> dict[int, RoomSeat]:
    chairs = RoomSeat.objects.select_for_update(of=("self",)).filter(room=room)
    return {chair.seat: chair for chair in chairs}


def _checked_apply(state: RoundState, seat: int, action: Action) -> RoundState:
    try:
        return state.apply(seat, action)
    except IllegalActionError as error:
        raise GameError(error.reason) from error


def _record_moves(
    round_: Round,
    state: RoundState,
    moves: Sequence[tuple[int, Action]],
    *,
    actor: User | None,
    chairs: dict[int, RoomSeat],
    seat_changed: bool,
) -> AppliedAction:
    """Append the moves to the log, tell the table after commit, and move the round on."""
    seq = len(state.history) - len(moves)
    RoundAction.objects.bulk_create(
        RoundAction(
            round=round_,
            seq=seq + offset,
            seat=seat,
            action=action_to_dict(seat, action),
            actor=actor,
            is_bot=actor is None,
        )
        for offset, (seat, action) in enumerate(moves)
    )
    seq += len(moves)
    transaction.on_commit(partial(remember_round_state, round_, state))
    room = round_.match.room
    ended = state.phase in ENDED
    played = None
    if not (ended or seat_changed):
        created = room.created.timestamp()
        played = Played(room_created=created, round_id=round_.pk, state=state, steps=len(moves))
    published = table_changed_after_commit(room.pk, played=played)
    if not ended:
        assert state.to_act is not None
        _schedule_turn(room, round_, seq=seq, to_act=state.to_act, chair=chairs[state.to_act])
        return AppliedAction(
            seq=seq, round_ended=False, match_ended=False, next_round_id=None, published=published
        )
    return _end_round(round_, state, seq, published)


def _end_round(round_: Round, state: RoundState, seq: int, published: Publication) -> AppliedAction:
    """Record the ended round, then let the engine's match say who won or deal the next one."""
    match = round_.match
    room = match.room
    round_.status = (
        Round.Status.FINISHED if state.phase == Phase.FINISHED else Round.Status.CANCELLED
    )
    round_.result = result_json(state.result)
    round_.contract = contract_json(state.contract)
    round_.save(update_fields=["status", "result", "contract"])
    played = match_state(match)
    match.totals = list(played.totals)
    if played.winner is not None:
        match.winner = played.winner
        match.status = Match.Status.FINISHED
        match.save(update_fields=["totals", "winner", "status"])
        room.status = Room.Status.FINISHED
        room.save(update_fields=["status"])
        return AppliedAction(
            seq=seq, round_ended=True, match_ended=True, next_round_id=None, published=published
        )
    match.save(update_fields=["totals"])
    following = _deal_round(match, played, number=round_.number + 1)
    pause = getattr(settings, "ROUND_PAUSE_SECONDS", 3.0)
    to_act = played.ruleset.next_seat(following.dealer)
    _schedule_turn(room, following, seq=0, to_act=to_act, pause=pause)
    return AppliedAction(
        seq=seq,
        round_ended=True,
        match_ended=False,
        next_round_id=following.pk,
        published=published,
    )


def _schedule_turn(
    room: Room,
    round_: Round,
    *,
    seq: int,
    to_act: int,
    pause: float = 0.0,
    chair: RoomSeat | None = None,
) -> None:
    """After commit, let the computer play its turn, or start the player's clock.

    The round remembers when that turn falls due, so that the sweeper can find it if the task
    that should play it is lost with its worker. ``chair`` is the seat to act, when at hand.
    """
    if chair is None:
        chair = RoomSeat.objects.get(room=room, seat=to_act)
    clock = not chair.bot_plays and bool(room.turn_seconds)
    if chair.bot_plays:
        countdown: float | None = pause + getattr(settings, "BOT_PACING_SECONDS", 0.8)
    elif clock:
        countdown = pause + room.turn_seconds
    else:
        countdown = None
    due = timezone.now() + timedelta(seconds=countdown) if countdown is not None else None
    Round.objects.filter(pk=round_.pk).update(
        turn_seq=seq, turn_due_at=due, turn_clock=clock, turn_swept_at=None
    )
    if countdown is not None:
        transaction.on_commit(
            partial(_enqueue_bot, round_.pk, seq, countdown, clock, room.bot_level)
        )


@transaction.atomic
def round_schedule_turn(*, round_id: int) -> None:
    """Start the computer or the clock for whoever is to act now in a round being played."""
    round_ = Round.objects.select_related("match__room").get(pk=round_id)
    state = round_state_cached(round_)
    if round_.status == Round.Status.PLAYING and state.to_act is not None:
        _schedule_turn(round_.match.room, round_, seq=len(state.history), to_act=state.to_act)


def bot_queue(level: str) -> str | None:
    """Name the queue of a computer's turn at ``level``: its own for the strong one, else the
    default (None)."""
    return settings.STRONG_BOT_QUEUE if level == Room.BotLevel.STRONG else None


def _enqueue_bot(round_id: int, seq: int, countdown: float, timeout: bool, level: str) -> None:
    from games.tasks import bot_play_turn

    queue = bot_queue(level)
    routing = {"queue": queue} if queue else {}
    bot_play_turn.apply_async(
        args=(round_id, seq),
        kwargs={"timeout": timeout, "level": level},
        countdown=countdown,
        **routing,
    )


def overdue_seconds() -> float:
    """Return how late a computer's turn may be before the sweeper queues it again."""
    return float(getattr(settings, "TURN_OVERDUE_SECONDS", 5.0))


def turns_sweep_overdue() -> int:
    """Queue again every turn overdue by more than a few seconds; return how many.

    A worker killed while it held a turn's task loses it (the broker gives it back only after its
    visibility timeout, which must outlast the longest turn clock). The turn's log position keeps
    a late or doubled task harmless: only the first to act is applied. A turn queued again waits
    as long once more before it is queued a third time.
    """
    now = timezone.now()
    late = now - timedelta(seconds=overdue_seconds())
    overdue = list(
        Round.objects.filter(status=Round.Status.PLAYING, turn_due_at__lt=late)
        .filter(Q(turn_swept_at__isnull=True) | Q(turn_swept_at__lt=late))
        .values_list("pk", "turn_seq", "turn_clock", "match__room__bot_level")
    )
    for round_id, seq, clock, level in overdue:
        Round.objects.filter(pk=round_id, turn_seq=seq).update(turn_swept_at=now)
        _enqueue_bot(round_id, seq, 0.0, clock, level)
    return len(overdue)
