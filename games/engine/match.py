"""A match of either game: rounds in dealer rotation until a side reaches the target."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .cards import Card, Seat, Team
from .dealing import deal, deal_classic, draw_cut, shuffled_deck, table_deck
from .errors import InvalidDealError, MatchError
from .phase import Phase
from .ruleset import DEFAULT_RULESET, Ruleset
from .state import RoundState

ENDED = (Phase.CANCELLED, Phase.FINISHED)


def match_winner(totals: Sequence[int], target: int) -> Team | None:
    """Return the side that won with these totals, or None while undecided.

    Once a side has reached the target the single highest total wins; two or more sides
    sharing the highest total means another round.
    """
    top = max(totals)
    if top < target or list(totals).count(top) > 1:
        return None
    return list(totals).index(top)


class MatchState:
    """An immutable match: its ended rounds and, optionally, the round being played."""

    __slots__ = ("_current", "_first_dealer", "_rounds", "_ruleset")

    _ruleset: Ruleset
    _first_dealer: Seat
    _rounds: tuple[RoundState, ...]
    _current: RoundState | None

    @classmethod
    def new(cls, *, ruleset: Ruleset = DEFAULT_RULESET, first_dealer: Seat) -> MatchState:
        """Start a match; the first dealer is drawn by the caller."""
        players = ruleset.players
        if type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise InvalidDealError(
                f"the dealer must be a seat 0 to {players - 1}, not {first_dealer!r}"
            )
        return cls._make(ruleset, first_dealer, (), None)

    @classmethod
    def _make(
        cls,
        ruleset: Ruleset,
        first_dealer: Seat,
        rounds: tuple[RoundState, ...],
        current: RoundState | None,
    ) -> MatchState:
        match = cls()
        match._ruleset = ruleset
        match._first_dealer = first_dealer
        match._rounds = rounds
        match._current = current
        return match

    @property
    def ruleset(self) -> Ruleset:
        """Return the table settings."""
        return self._ruleset

    @property
    def first_dealer(self) -> Seat:
        """Return the dealer of the first round."""
        return self._first_dealer

    @property
    def rounds(self) -> tuple[RoundState, ...]:
        """Return the ended rounds (finished or cancelled), in order."""
        return self._rounds

    @property
    def current(self) -> RoundState | None:
        """Return the round being played, if one has been started and not ended."""
        return self._current

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """Return each ended round's score-sheet figures by side; a cancelled round scores 0."""
        nothing = (0,) * self._ruleset.sides
        return tuple(nothing if r.result is None else r.result.score for r in self._rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        """Return the score-sheet totals by side: (team 0, team 1), or one per player."""
        scores = self.scores
        return tuple(sum(s[side] for s in scores) for side in range(self._ruleset.sides))

    @property
    def winner(self) -> Team | None:
        """Return the side that won: reached the target with the single highest total; else None.

        Sides sharing the highest total past the target means another round (decision).
        """
        return match_winner(self.totals, self._ruleset.target)

    @property
    def next_dealer(self) -> Seat:
        """Return the dealer of the round to play now: the deal moves on after every round."""
        if not self._rounds:
            return self._first_dealer
        return (self._rounds[-1].dealer + 1) % self._ruleset.players

    def deal_round(self, rng: random.Random, *, cut: int | None = None) -> RoundState:
        """Deal the next round as the ruleset says: a fresh shuffle, or the table's cards.

        The first round of a ``table`` match is shuffled; ``rng`` also draws the cut unless the
        caller drew it already (to keep it with the deal). The classic game always shuffles
        its own deck and turns a card.
        """
        if self._ruleset.is_classic:
            deck = shuffled_deck(rng, self._ruleset.deck)
            cut = draw_cut(rng, len(deck)) if cut is None else cut
            dealt = deal_classic(
                deck, dealer=self.next_dealer, cut=cut, players=self._ruleset.players
            )
            return self.new_round(dealt.hands, turned=dealt.turned, stock=dealt.stock)
        previous = self._rounds[-1] if self._rounds else None
        if self._ruleset.deck_handling == "table" and previous is not None:
            deck = table_deck(previous)
        else:
            deck = shuffled_deck(rng)
        cut = draw_cut(rng) if cut is None else cut
        return self.new_round(deal(deck, dealer=self.next_dealer, cut=cut))

    def new_round(
        self,
        hands: Sequence[Sequence[Card] | str],
        *,
        turned: Card | str | None = None,
        stock: Sequence[Card] | str = (),
    ) -> RoundState:
        """Start the next round with these hands (and a classic deal's turned card and stock)."""
        return RoundState.new(
            dealer=self.next_dealer,
            hands=hands,
            ruleset=self._ruleset,
            turned=turned,
            stock=stock,
        )

    def with_round(self, round_state: RoundState) -> MatchState:
        """Return the match with the round being played brought up to ``round_state``.

        An ended round joins ``rounds``; an unfinished one becomes ``current``.
        """
        if self.winner is not None:
            raise MatchError("the match is already decided")
        if round_state.ruleset != self._ruleset:
            raise MatchError("the round is played under another ruleset")
        if round_state.dealer != self.next_dealer:
            raise MatchError(f"this round is dealt by seat {self.next_dealer}")
        if round_state.phase in ENDED:
            return self._make(self._ruleset, self._first_dealer, (*self._rounds, round_state), None)
        return self._make(self._ruleset, self._first_dealer, self._rounds, round_state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        return (self._ruleset, self._first_dealer, self._rounds, self._current) == (
            other._ruleset,
            other._first_dealer,
            other._rounds,
            other._current,
        )

    def __hash__(self) -> int:
        return hash((self._ruleset, self._first_dealer, self._rounds, self._current))

    def __repr__(self) -> str:
        return f"<MatchState rounds={len(self._rounds)} totals={self.totals} winner={self.winner}>"
