"""Reads of rooms and tables; a round's state is rebuilt from its deal and its log."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, JSONField, OuterRef, Prefetch, Q, QuerySet, Subquery

from accounts.models import User
from games.engine import MatchState, RoundState, Ruleset, action_from_dict
from games.models import Match, Room, RoomInvitation, RoomSeat, Round, RoundAction


def dealt_round(round_: Round, ruleset: dict[str, Any] | None = None) -> RoundState:
    """Start a round from its stored deal, before any action: the hands (a classic deal's
    first five cards each, with its turned card and stock). ``ruleset`` saves reading the
    match when the caller has it."""
    return RoundState.new(
        dealer=round_.dealer,
        hands=round_.hands,
        ruleset=Ruleset.from_dict(ruleset if ruleset is not None else round_.match.ruleset),
        turned=round_.turned or None,
        stock=round_.stock,
    )


def round_state(round_: Round) -> RoundState:
    """Replay a round's log on its deal."""
    state = dealt_round(round_)
    for entry in round_.actions.order_by("seq").values_list("action", flat=True):
        seat, action = action_from_dict(entry)
        state = state.apply(seat, action)
    return state


def match_state(match: Match) -> MatchState:
    """Replay every round of a match into the engine's match: totals, winner, next dealer."""
    state = MatchState.new(
        ruleset=Ruleset.from_dict(match.ruleset), first_dealer=match.first_dealer
    )
    for round_ in match.rounds.select_related("match").order_by("number"):
        state = state.with_round(round_state(round_))
    return state


def playing_round_id(*, room_id: int) -> int | None:
    """Return the id of the round being played in a room, if any."""
    playing = Round.objects.filter(match__room_id=room_id, status=Round.Status.PLAYING)
    return playing.order_by("-pk").values_list("pk", flat=True).first()


def room_seats(room: Room) -> list[RoomSeat]:
    """Return the four seats of a room in order, with their players."""
    return list(room.seats.select_related("user").order_by("seat"))


def seat_of(*, room_id: int, user: User) -> int | None:
    """Return the seat ``user`` holds in the room, or None."""
    if not user.is_authenticated:
        return None
    seats = RoomSeat.objects.filter(room_id=room_id, user=user)
    return seats.values_list("seat", flat=True).first()


def is_member(room: Room, user: User) -> bool:
    """Say whether ``user`` may see the room: its owner or a seated player."""
    if not user.is_authenticated:
        return False
    return room.owner_id == user.pk or room.seats.filter(user=user).exists()


def rooms_of(user: User) -> QuerySet[Room]:
    """Return the rooms ``user`` owns or sits in, open or playing, newest first."""
    return (
        Room.objects.filter(Q(owner=user) | Q(seats__user=user))
        .exclude(status=Room.Status.CLOSED)
        .distinct()
        .order_by("-created")
    )


@dataclass(frozen=True)
class LobbyRoom:
    """A room as the lobby lists it: its seats, and where its latest match stands.

    ``team`` is the viewer's side (with four players 0: seats 1 and 3, 1: seats 2 and 4; with
    two or three, their own seat), None when they have no seat; ``totals`` and ``winner`` are
    the latest match's, None before the first one.
    """

    room: Room
    seats: list[RoomSeat]
    team: int | None
    totals: tuple[int, ...] | None
    winner: int | None

    @property
    def ours(self) -> int:
        """Return the viewer's team's total (the first team's when they have no seat)."""
        assert self.totals is not None
        return self.totals[self.team or 0]

    @property
    def theirs(self) -> int:
        """Return the other team's total (the best of the others' without partners)."""
        assert self.totals is not None
        mine = self.team or 0
        return max(total for side, total in enumerate(self.totals) if side != mine)

    @property
    def teams(self) -> bool:
        """Say whether the room's players play in two teams (four players)."""
        return self.room.players == 4

    @property
    def won(self) -> bool:
        """Say whether the viewer's team won the latest match."""
        return self.team is not None and self.winner == self.team


def lobby_rooms(user: User) -> list[LobbyRoom]:
    """Return the rooms of ``user`` for the lobby, in two queries however many there are."""
    latest = Match.objects.filter(room=OuterRef("pk")).order_by("-created", "-pk")
    rooms = (
        rooms_of(user)
        .select_related("owner")
        .annotate(
            match_totals=Subquery(latest.values("totals")[:1], output_field=JSONField()),
            match_winner=Subquery(latest.values("winner")[:1]),
        )
        .prefetch_related(
            Prefetch("seats", queryset=RoomSeat.objects.select_related("user").order_by("seat"))
        )
    )
    listed = []
    for room in rooms:
        seats = list(room.seats.all())
        seat = next((chair.seat for chair in seats if chair.user_id == user.pk), None)
        totals = room.match_totals  # type: ignore[attr-defined]
        listed.append(
            LobbyRoom(
                room=room,
                seats=seats,
                team=None if seat is None else (seat % 2 if room.players == 4 else seat),
                totals=tuple(totals) if totals else None,
                winner=room.match_winner,  # type: ignore[attr-defined]
            )
        )
    return listed


def unfinished_room_of(user: User) -> Room | None:
    """Return the newest room ``user`` owns whose match is being played, if any."""
    return Room.objects.filter(owner=user, status=Room.Status.PLAYING).order_by("-created").first()


def inactive_guests(*, since: datetime) -> QuerySet[User]:
    """Return the guests with no activity since ``since``: not made, logged in, opening a room
    or playing an action of their own after it."""
    return (
        User.objects.filter(is_guest=True, date_joined__lt=since)
        .exclude(last_login__gte=since)
        .exclude(Exists(Room.objects.filter(owner=OuterRef("pk"), created__gte=since)))
        .exclude(Exists(RoundAction.objects.filter(actor=OuterRef("pk"), created__gte=since)))
    )


def invitations_for(user: User) -> QuerySet[RoomInvitation]:
    """Return the invitations ``user`` received to rooms still waiting for players."""
    return (
        RoomInvitation.objects.filter(user=user, room__status=Room.Status.OPEN)
        .filter(room__matches__isnull=True)
        .exclude(room__seats__user=user)
        .select_related("room__owner", "invited_by")
        .distinct()
    )


def room_for_newcomer(token: str | None) -> Room | None:
    """Return the room whose share link this is, if the link may still seat a newcomer.

    The link must be current (not renewed, not expired) and the room waiting for players with
    a seat free; None otherwise.
    """
    if not token:
        return None
    room = (
        Room.objects.select_related("owner")
        .filter(invite_token=token, status=Room.Status.OPEN, matches__isnull=True)
        .filter(Exists(RoomSeat.objects.filter(room=OuterRef("pk"), user=None, is_bot=False)))
        .first()
    )
    if room is None or room.is_invite_expired:
        return None
    return room


def invitable_friends(room: Room, user: User) -> list[User]:
    """Return the friends of ``user`` who have neither a seat nor an invitation in ``room``."""
    from accounts.selectors import friends_of

    taken = set(room.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    taken |= set(room.invitations.values_list("user_id", flat=True))
    return [friend for friend in friends_of(user) if friend.pk not in taken]


def current_match(room: Room) -> Match | None:
    """Return the room's latest match, playing or finished."""
    return room.matches.order_by("-created", "-pk").first()


def current_round(match: Match) -> Round | None:
    """Return the match's latest round."""
    return match.rounds.order_by("-number").first()


@dataclass(frozen=True)
class RoundView:
    """A round with its rebuilt state, and the log length (the next action's seq)."""

    round: Round
    state: RoundState
    seq: int


def round_view(round_: Round) -> RoundView:
    """Rebuild a round and count its actions."""
    state = round_state(round_)
    return RoundView(round=round_, state=state, seq=len(state.history))
