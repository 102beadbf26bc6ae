"""The play phase of both games: tricks, legal cards, announce, show and pilotta."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import ANNOUNCE, PLAYS, SHOW, Action, Announce, Play, Show
from .cards import (
    HIGHER_TRUMPS,
    POINTS,
    SIDE_ORDER,
    SUIT_MASKS,
    TRUMP_ORDER,
    Card,
    Rank,
    Seat,
    Suit,
    mask_cards,
    side_count,
    side_of,
)
from .declarations import Declaration, find_declarations, has_declaration
from .errors import Reason
from .scoring import LAST_TRICK_BONUS, PILOTTA_POINTS, Pair

TRICKS_PER_ROUND = 8


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: its leader, cards in play order, winner and points.

    ``points`` includes the 10 of the last trick.
    """

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat
    points: int

    @property
    def led_suit(self) -> Suit:
        """Return the suit of the first card."""
        return self.cards[0].suit

    def seat_of(self, position: int, players: int) -> Seat:
        """Return the seat that played the card at ``position``."""
        return (self.leader + position) % players


@dataclass(frozen=True, slots=True)
class OpenTrick:
    """The trick being played: its leader and the cards played so far."""

    leader: Seat
    cards: tuple[Card, ...]

    @property
    def led_suit(self) -> Suit | None:
        """Return the suit of the first card, or None before it."""
        return self.cards[0].suit if self.cards else None


def highest_trump(trick: tuple[Card, ...], trump: Suit) -> Card | None:
    """Return the highest trump on a trick, or None."""
    best: Card | None = None
    for card in trick:
        if card.suit == trump and (best is None or TRUMP_ORDER[card.rank] > TRUMP_ORDER[best.rank]):
            best = card
    return best


def winning_position(trick: tuple[Card, ...], trump: Suit) -> int:
    """Return the position in the trick of the card that takes it."""
    led = trick[0].suit
    best, best_strength = 0, -1
    for position, card in enumerate(trick):
        if card.suit == trump:
            strength = 8 + TRUMP_ORDER[card.rank]
        elif card.suit == led:
            strength = SIDE_ORDER[card.rank]
        else:
            continue
        if strength > best_strength:
            best, best_strength = position, strength
    return best


def _trumps_to_play(trumps: int, trick: tuple[Card, ...], trump: Suit) -> int:
    """Return the trumps one must choose from: those beating the trick's best, else all."""
    top = highest_trump(trick, trump)
    if top is None:
        return trumps
    return trumps & HIGHER_TRUMPS[top.index] or trumps


def legal_mask(
    held: int, trick: tuple[Card, ...], trump: Suit, *, partner_winning: bool = False
) -> int:
    """Return the bitmask of the cards the rules allow from ``held`` on ``trick``.

    ``partner_winning`` is partner protection (the classic game of four, when the player's
    partner is winning the trick): a player who cannot follow need not trump, but a trump
    played over a trump must still beat it when it can.
    """
    if not trick:
        return held
    led = trick[0].suit
    following = held & SUIT_MASKS[led]
    if following:
        if led != trump:
            return following
        return _trumps_to_play(following, trick, trump)
    trumps = held & SUIT_MASKS[trump]
    if not trumps:
        return held
    if partner_winning:
        return held & ~SUIT_MASKS[trump] | _trumps_to_play(trumps, trick, trump)
    return _trumps_to_play(trumps, trick, trump)


def partner_is_winning(trick: tuple[Card, ...], leader: Seat, trump: Suit) -> bool:
    """Say whether the partner of the seat to act (four players) is winning the trick."""
    if not trick:
        return False
    winner = (leader + winning_position(trick, trump)) % 4
    return winner == (leader + len(trick) + 2) % 4


def card_problem(
    held: int,
    trick: tuple[Card, ...],
    trump: Suit,
    card: Card,
    *,
    partner_winning: bool = False,
) -> Reason | None:
    """Return which rule of following and trumping forbids playing ``card``, or None if legal."""
    bit = 1 << card.index
    if not held & bit:
        return Reason.CARD_NOT_IN_HAND
    if legal_mask(held, trick, trump, partner_winning=partner_winning) & bit:
        return None
    led = trick[0].suit
    if held & SUIT_MASKS[led]:
        if led == trump and card.suit == trump:
            return Reason.MUST_BEAT_TRUMP
        return Reason.MUST_FOLLOW_SUIT
    if card.suit == trump:
        return Reason.MUST_OVERTRUMP
    top = highest_trump(trick, trump)
    if top is None:
        return Reason.MUST_TRUMP
    if held & SUIT_MASKS[trump] & HIGHER_TRUMPS[top.index]:
        return Reason.MUST_OVERTRUMP
    return Reason.MUST_UNDERTRUMP


# _PLAYS_BY_PATTERN[suit][8-bit rank pattern]: the plays of those cards, low rank first.
_PLAYS_BY_PATTERN: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(
        tuple(PLAYS[suit * 8 + rank] for rank in range(8) if pattern >> rank & 1)
        for pattern in range(256)
    )
    for suit in range(4)
)


class Cardplay:
    """The state of the play phase; ``apply`` returns a new Cardplay.

    ``dealt`` and ``held`` are hand bitmasks by seat; ``announced`` and ``shown`` flags by
    seat; ``pilotta_calls`` the King/Queen of trumps played with a pilotta call. A side is a
    team with four players, else a player.
    """

    __slots__ = (
        "_legal",
        "announced",
        "dealt",
        "held",
        "leader",
        "partner_protection",
        "pilotta_calls",
        "pilotta_seat",
        "players",
        "shown",
        "to_act",
        "trick",
        "tricks",
        "trump",
    )

    players: int
    partner_protection: bool
    trump: Suit
    dealt: tuple[int, ...]
    held: tuple[int, ...]
    leader: Seat
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    to_act: Seat | None
    announced: tuple[bool, ...]
    shown: tuple[bool, ...]
    pilotta_seat: Seat | None
    pilotta_calls: tuple[Card, ...]
    _legal: int

    @classmethod
    def start(
        cls,
        *,
        trump: Suit,
        dealt: tuple[int, ...],
        leader: Seat,
        partner_protection: bool = False,
    ) -> Cardplay:
        """Open the play: ``leader`` (dealer + 1) leads the first trick."""
        play = cls()
        play.players = len(dealt)
        play.partner_protection = partner_protection
        play.trump = trump
        play.dealt = dealt
        play.held = dealt
        play.leader = leader
        play.trick = ()
        play.tricks = ()
        play.to_act = leader
        play.announced = (False,) * play.players
        play.shown = (False,) * play.players
        pair = Card(trump, Rank.KING).mask | Card(trump, Rank.QUEEN).mask
        play.pilotta_seat = next((s for s, hand in enumerate(dealt) if hand & pair == pair), None)
        play.pilotta_calls = ()
        play._legal = -1
        return play

    @property
    def finished(self) -> bool:
        """Say whether all eight tricks have been played."""
        return len(self.tricks) == TRICKS_PER_ROUND

    def legal_cards(self) -> int:
        """Return the bitmask of the cards the seat to act may play."""
        if self._legal < 0:
            seat = self.to_act
            held = 0 if seat is None else self.held[seat]
            self._legal = legal_mask(
                held, self.trick, self.trump, partner_winning=self.partner_winning()
            )
        return self._legal

    def partner_winning(self) -> bool:
        """Say whether partner protection frees the seat to act: its partner holds the trick."""
        return self.partner_protection and partner_is_winning(self.trick, self.leader, self.trump)

    def can_announce(self, seat: Seat) -> bool:
        """Say whether ``seat`` may announce: trick 1, not yet announced, a declaration held."""
        return not self.tricks and not self.announced[seat] and has_declaration(self.dealt[seat])

    def can_show(self, seat: Seat) -> bool:
        """Say whether ``seat`` may show: trick 2, announced, not yet shown."""
        return len(self.tricks) == 1 and self.announced[seat] and not self.shown[seat]

    def legal_actions(self) -> list[Action]:
        """Return announce/show when offered, then each legal card (without pilotta flag)."""
        seat = self.to_act
        if seat is None:
            return []
        actions: list[Action] = []
        if self.tricks:
            if len(self.tricks) == 1 and self.can_show(seat):
                actions.append(SHOW)
        elif self.can_announce(seat):
            actions.append(ANNOUNCE)
        mask = self.legal_cards()
        for suit in (0, 8, 16, 24):
            byte = mask >> suit & 0xFF
            if byte:
                actions.extend(_PLAYS_BY_PATTERN[suit >> 3][byte])
        return actions

    def why_illegal(self, seat: Seat, action: Action) -> Reason | None:
        """Return why the seat to act may not take ``action`` now, or None if it may."""
        if isinstance(action, Play):
            card = action.card
            if self.legal_cards() >> card.index & 1:
                problem = None
            else:
                problem = card_problem(
                    self.held[seat],
                    self.trick,
                    self.trump,
                    card,
                    partner_winning=self.partner_winning(),
                )
            if problem is None and action.pilotta and not self._pilotta_ok(seat, card):
                return Reason.BAD_PILOTTA_CALL
            return problem
        if isinstance(action, Announce):
            return None if self.can_announce(seat) else Reason.CANNOT_ANNOUNCE
        if isinstance(action, Show):
            return None if self.can_show(seat) else Reason.CANNOT_SHOW
        return Reason.WRONG_PHASE

    def _pilotta_ok(self, seat: Seat, card: Card) -> bool:
        """Say whether a pilotta call with ``card`` is allowed."""
        if seat != self.pilotta_seat or card.suit != self.trump:
            return False
        if card.rank not in (Rank.KING, Rank.QUEEN):
            return False
        other = Card(self.trump, Rank.QUEEN if card.rank == Rank.KING else Rank.KING)
        if self.held[seat] & other.mask:
            return not self.pilotta_calls
        return self.pilotta_calls == (other,)

    def apply(self, seat: Seat, action: Action) -> Cardplay:
        """Return the play after a legal action of the seat to act."""
        after = self._copy()
        if isinstance(action, Play):
            after._play_card(seat, action)
        elif isinstance(action, Announce):
            after.announced = _set_flag(self.announced, seat)
        elif isinstance(action, Show):
            after.shown = _set_flag(self.shown, seat)
        return after

    def _play_card(self, seat: Seat, action: Play) -> None:
        card = action.card
        held = self.held
        self.held = (*held[:seat], held[seat] & ~(1 << card.index), *held[seat + 1 :])
        if action.pilotta:
            self.pilotta_calls = (*self.pilotta_calls, card)
        trick = (*self.trick, card)
        if len(trick) < self.players:
            self.trick = trick
            self.to_act = (seat + 1) % self.players
            return
        winner = (self.leader + winning_position(trick, self.trump)) % self.players
        points = sum(POINTS[self.trump][c.index] for c in trick)
        if len(self.tricks) == TRICKS_PER_ROUND - 1:
            points += LAST_TRICK_BONUS
            self.to_act = None
        else:
            self.to_act = winner
        self.tricks = (*self.tricks, Trick(self.leader, trick, winner, points))
        self.leader = winner
        self.trick = ()

    def _copy(self) -> Cardplay:
        copy = Cardplay()
        copy.players = self.players
        copy.partner_protection = self.partner_protection
        copy.trump = self.trump
        copy.dealt = self.dealt
        copy.held = self.held
        copy.leader = self.leader
        copy.trick = self.trick
        copy.tricks = self.tricks
        copy.to_act = self.to_act
        copy.announced = self.announced
        copy.shown = self.shown
        copy.pilotta_seat = self.pilotta_seat
        copy.pilotta_calls = self.pilotta_calls
        copy._legal = -1
        return copy

    def held_cards(self, seat: Seat) -> tuple[Card, ...]:
        """Return the cards ``seat`` still holds, in index order."""
        return mask_cards(self.held[seat])

    def shown_declarations(self, seat: Seat) -> tuple[Declaration, ...]:
        """Return the declarations ``seat`` announced and showed in time."""
        if not self.shown[seat]:
            return ()
        return find_declarations(mask_cards(self.dealt[seat]))

    @property
    def sides(self) -> int:
        """Return how many sides score: two teams with four players, else each player."""
        return side_count(self.players)

    def side_of(self, seat: Seat) -> int:
        """Return the side of a seat: its team with four players, else itself."""
        return side_of(seat, self.players)

    def side_card_points(self) -> tuple[int, ...]:
        """Return each side's points from the tricks taken so far."""
        points = [0] * self.sides
        for trick in self.tricks:
            points[self.side_of(trick.winner)] += trick.points
        return tuple(points)

    def side_tricks(self) -> tuple[int, ...]:
        """Return how many tricks each side has taken."""
        won = [0] * self.sides
        for trick in self.tricks:
            won[self.side_of(trick.winner)] += 1
        return tuple(won)

    def side_pilotta(self) -> tuple[int, ...]:
        """Return the pilotta points earned by a called pilotta and re-pilotta, by side."""
        points = [0] * self.sides
        if len(self.pilotta_calls) == 2 and self.pilotta_seat is not None:
            points[self.side_of(self.pilotta_seat)] = PILOTTA_POINTS
        return tuple(points)

    def team_card_points(self) -> Pair:
        """Return each team's points from the tricks taken so far (four players)."""
        points = self.side_card_points()
        return (points[0], points[1])

    def team_tricks(self) -> Pair:
        """Return how many tricks each team has taken (four players)."""
        won = self.side_tricks()
        return (won[0], won[1])

    def team_pilotta(self) -> Pair:
        """Return the pilotta points of each team (four players)."""
        points = self.side_pilotta()
        return (points[0], points[1])


def _set_flag(flags: tuple[bool, ...], seat: Seat) -> tuple[bool, ...]:
    return tuple(flag or index == seat for index, flag in enumerate(flags))
