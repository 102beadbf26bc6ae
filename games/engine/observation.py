"""Per-seat observations: exactly what one seat (or a spectator) may know of a round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Action, Announce, Play, Show
from .auction import Auction
from .cards import Card, Rank, Seat, cards_mask
from .declarations import Announcement, Declaration
from .errors import Reason
from .phase import Phase
from .play import OpenTrick, Trick, card_problem, partner_is_winning
from .ruleset import Ruleset
from .scoring import Contract, RoundResult
from .taking import Taking

if TYPE_CHECKING:
    from .state import RoundState


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of a round; it holds no reference to the state or to hidden cards.

    ``seat`` is None for a spectator, whose ``hand`` is empty. ``announcements`` and
    ``shown`` are by seat; ``legal_actions`` is filled only when this seat is to act. In the
    classic game ``turned`` is the turned card (public) and ``auction_round`` the round of
    taking; the stock, and with two players the unused cards, are seen by nobody.
    """

    seat: Seat | None
    ruleset: Ruleset
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: tuple[Card, ...]
    auction: tuple[tuple[Seat, Action], ...]
    contract: Contract | None
    current_trick: OpenTrick | None
    tricks: tuple[Trick, ...]
    card_counts: tuple[int, ...]
    announcements: tuple[tuple[Announcement, ...], ...]
    shown: tuple[tuple[Declaration, ...], ...]
    pilotta_calls: tuple[tuple[Seat, Card], ...]
    legal_actions: tuple[Action, ...]
    result: RoundResult | None
    turned: Card | None = None
    auction_round: int | None = None

    @property
    def players(self) -> int:
        """Return the number of seats at the table."""
        return self.ruleset.players

    def why_illegal(self, action: Action) -> Reason | None:
        """Return why this seat may not take ``action`` now, or None if it may.

        Everything a rule of play looks at (the seat's own hand, the trick on the table, the
        trumps, the public auction) is in the observation, so it answers as the state would.
        """
        if self.to_act is None:
            return Reason.ROUND_OVER
        if self.seat != self.to_act:
            return Reason.NOT_YOUR_TURN
        if action in self.legal_actions:
            return None
        if self.phase == Phase.AUCTION:
            return self._auction().why_illegal(self.seat, action)
        if isinstance(action, Play):
            return self._play_problem(action)
        if isinstance(action, Announce):
            return Reason.CANNOT_ANNOUNCE
        if isinstance(action, Show):
            return Reason.CANNOT_SHOW
        return Reason.WRONG_PHASE

    def _auction(self) -> Auction | Taking:
        auction: Auction | Taking
        if self.turned is not None:
            auction = Taking.start(
                dealer=self.dealer, players=self.players, turned_suit=self.turned.suit
            )
        else:
            auction = Auction.start(self.dealer)
        for seat, action in self.auction:
            auction = auction.apply(seat, action)
        return auction

    def _play_problem(self, play: Play) -> Reason | None:
        assert self.contract is not None
        assert self.current_trick is not None
        trump = self.contract.trump
        trick = self.current_trick
        protected = self.ruleset.partner_protection and partner_is_winning(
            trick.cards, trick.leader, trump
        )
        problem = card_problem(
            cards_mask(self.hand), trick.cards, trump, play.card, partner_winning=protected
        )
        if problem is None and play.pilotta and not self._pilotta_call_ok(play.card):
            return Reason.BAD_PILOTTA_CALL
        return problem

    def _pilotta_call_ok(self, card: Card) -> bool:
        """Say whether the pilotta may be called with ``card``: the seat was dealt the King and
        the Queen of trumps, and calls on the first of the two it plays, then on the second."""
        assert self.contract is not None
        trump = self.contract.trump
        if card.suit != trump or card.rank not in (Rank.KING, Rank.QUEEN):
            return False
        other = Card(trump, Rank.QUEEN if card.rank == Rank.KING else Rank.KING)
        if other in self.hand:
            return not self.pilotta_calls
        return self.pilotta_calls == ((self.seat, other),)


def observe(state: RoundState, seat: Seat | None) -> Observation:
    """Build the observation of ``seat`` (None: a spectator)."""
    to_act = state.to_act
    seats = range(state.players)
    return Observation(
        seat=seat,
        ruleset=state.ruleset,
        dealer=state.dealer,
        phase=state.phase,
        to_act=to_act,
        hand=() if seat is None else state.hand(seat),
        auction=state.auction,
        contract=state.contract,
        current_trick=state.current_trick,
        tricks=state.tricks,
        card_counts=tuple(len(state.hand(s)) for s in seats),
        announcements=tuple(state.announcements(s) for s in seats),
        shown=tuple(state.shown(s) for s in seats),
        pilotta_calls=state.pilotta_calls,
        legal_actions=tuple(state.legal_actions()) if seat is not None and seat == to_act else (),
        result=state.result,
        turned=state.turned,
        auction_round=state.auction_round,
    )
