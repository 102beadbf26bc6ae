"""The auction phase: bids, passes, close and re-close."""

from __future__ import annotations

from .actions import (
    BID_STEP,
    CLOSE,
    MAX_BID,
    MIN_BID,
    PASS,
    RECLOSE,
    Action,
    Bid,
    Close,
    Name,
    Pass,
    Reclose,
    Take,
    bids_above,
)
from .cards import Seat, team_of
from .errors import MalformedActionError, Reason
from .scoring import Contract

AUCTION_ACTIONS = (Bid, Pass, Close, Reclose)
PASSES_TO_END = 3  # after the last bid or close
PASSES_TO_CANCEL = 4  # before any bid


class Auction:
    """The state of the auction; ``apply`` returns a new Auction."""

    __slots__ = ("bidder", "cancelled", "high", "multiplier", "passes", "to_act")

    to_act: Seat | None
    high: Bid | None
    bidder: Seat | None
    multiplier: int
    passes: int
    cancelled: bool

    @classmethod
    def start(cls, dealer: Seat) -> Auction:
        """Open the auction: dealer + 1 speaks first."""
        auction = cls()
        auction.to_act = (dealer + 1) % 4
        auction.high = None
        auction.bidder = None
        auction.multiplier = 1
        auction.passes = 0
        auction.cancelled = False
        return auction

    @property
    def over(self) -> bool:
        """Say whether the auction has ended (won or cancelled)."""
        return self.to_act is None

    @property
    def contract(self) -> Contract | None:
        """Return the contract once the auction is won, else None."""
        if self.to_act is not None or self.high is None or self.bidder is None:
            return None
        return Contract(
            team=team_of(self.bidder),
            seat=self.bidder,
            value=self.high.value,
            trump=self.high.trump,
            multiplier=self.multiplier,
        )

    def can_close(self, seat: Seat) -> bool:
        """Say whether ``seat`` may close: the other team holds the bid, not closed yet."""
        return (
            self.multiplier == 1
            and self.bidder is not None
            and team_of(self.bidder) != team_of(seat)
        )

    def can_reclose(self, seat: Seat) -> bool:
        """Say whether ``seat`` may re-close: its team's bid was closed, not re-closed yet."""
        return (
            self.multiplier == 2
            and self.bidder is not None
            and team_of(self.bidder) == team_of(seat)
        )

    def legal_actions(self) -> list[Action]:
        """Return every action of the seat to act: each higher bid, pass, close, re-close."""
        seat = self.to_act
        if seat is None:
            return []
        actions: list[Action] = []
        if self.multiplier == 1:
            actions.extend(bids_above(None if self.high is None else self.high.value))
        actions.append(PASS)
        if self.can_close(seat):
            actions.append(CLOSE)
        if self.can_reclose(seat):
            actions.append(RECLOSE)
        return actions

    def why_illegal(self, seat: Seat, action: Action) -> Reason | None:
        """Return why the seat to act may not take ``action`` now, or None if it may."""
        if isinstance(action, Pass):
            return None
        if isinstance(action, Bid):
            return self._bid_problem(action)
        if isinstance(action, Close):
            return None if self.can_close(seat) else Reason.CANNOT_CLOSE
        if isinstance(action, Reclose):
            return None if self.can_reclose(seat) else Reason.CANNOT_RECLOSE
        if isinstance(action, Take | Name):
            return Reason.NOT_IN_THIS_GAME
        return Reason.WRONG_PHASE

    def _bid_problem(self, bid: Bid) -> Reason | None:
        if self.multiplier > 1:
            return Reason.BID_AFTER_CLOSE
        if not MIN_BID <= bid.value <= MAX_BID or bid.value % BID_STEP:
            return Reason.BID_OUT_OF_RANGE
        if self.high is not None and bid.value <= self.high.value:
            return Reason.BID_TOO_LOW
        return None

    def apply(self, seat: Seat, action: Action) -> Auction:
        """Return the auction after a legal action of the seat to act."""
        after = self._copy()
        after.to_act = (seat + 1) % 4
        if isinstance(action, Pass):
            after.passes += 1
            if self.high is None and after.passes == PASSES_TO_CANCEL:
                after.to_act = None
                after.cancelled = True
            elif self.high is not None and after.passes == PASSES_TO_END:
                after.to_act = None
        elif isinstance(action, Bid):
            after.high = action
            after.bidder = seat
            after.passes = 0
        elif isinstance(action, Close):
            after.multiplier = 2
            after.passes = 0
        elif isinstance(action, Reclose):
            after.multiplier = 4
            after.to_act = None
        else:
            raise MalformedActionError(f"not an auction action: {action!r}")
        return after

    def _copy(self) -> Auction:
        copy = Auction()
        copy.to_act = self.to_act
        copy.high = self.high
        copy.bidder = self.bidder
        copy.multiplier = self.multiplier
        copy.passes = self.passes
        copy.cancelled = self.cancelled
        return copy
