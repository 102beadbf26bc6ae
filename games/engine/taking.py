"""The classic game's auction: two rounds of taking around the turned card."""

from __future__ import annotations

from .actions import NAMES, PASS, TAKE, Action, Bid, Close, Name, Pass, Reclose, Take
from .cards import Seat, Suit
from .errors import MalformedActionError, Reason
from .scoring import Contract


class Taking:
    """The two rounds of taking; ``apply`` returns a new Taking.

    Round 1, from ``dealer + 1``: take the turned suit, or pass. If all pass, round 2: name
    one of the other three suits, or pass. The first take or name ends the auction; a second
    round of passes cancels the deal.
    """

    __slots__ = (
        "bidder",
        "cancelled",
        "dealer",
        "passes",
        "players",
        "round",
        "to_act",
        "trump",
        "turned_suit",
    )

    players: int
    dealer: Seat
    turned_suit: Suit
    to_act: Seat | None
    round: int | None
    passes: int
    bidder: Seat | None
    trump: Suit | None
    cancelled: bool

    #: The classic game has no values and no closing: these keep the palaristi auction's shape.
    high = None
    multiplier = 1

    @classmethod
    def start(cls, *, dealer: Seat, players: int, turned_suit: Suit) -> Taking:
        """Open round 1 of taking: ``dealer + 1`` speaks first."""
        taking = cls()
        taking.players = players
        taking.dealer = dealer
        taking.turned_suit = turned_suit
        taking.to_act = (dealer + 1) % players
        taking.round = 1
        taking.passes = 0
        taking.bidder = None
        taking.trump = None
        taking.cancelled = False
        return taking

    @property
    def over(self) -> bool:
        """Say whether the auction has ended (taken or cancelled)."""
        return self.to_act is None

    @property
    def contract(self) -> Contract | None:
        """Return the contract once someone took or named, else None."""
        if self.bidder is None or self.trump is None:
            return None
        side = self.bidder % 2 if self.players == 4 else self.bidder
        return Contract(team=side, seat=self.bidder, value=0, trump=self.trump, multiplier=1)

    def legal_actions(self) -> list[Action]:
        """Return take and pass in round 1, the three names and pass in round 2."""
        if self.to_act is None:
            return []
        if self.round == 1:
            return [TAKE, PASS]
        return [*(NAMES[suit] for suit in Suit if suit != self.turned_suit), PASS]

    def why_illegal(self, seat: Seat, action: Action) -> Reason | None:
        """Return why the seat to act may not take ``action`` now, or None if it may."""
        if isinstance(action, Pass):
            return None
        if isinstance(action, Take):
            return None if self.round == 1 else Reason.CANNOT_TAKE
        if isinstance(action, Name):
            if self.round != 2:
                return Reason.CANNOT_NAME
            return Reason.NAME_TURNED_SUIT if action.trump == self.turned_suit else None
        if isinstance(action, Bid | Close | Reclose):
            return Reason.NOT_IN_THIS_GAME
        return Reason.WRONG_PHASE

    def apply(self, seat: Seat, action: Action) -> Taking:
        """Return the auction after a legal action of the seat to act."""
        after = self._copy()
        if isinstance(action, Take):
            after._end(seat, self.turned_suit)
        elif isinstance(action, Name):
            after._end(seat, action.trump)
        elif isinstance(action, Pass):
            after._pass(seat)
        else:
            raise MalformedActionError(f"not an action of taking: {action!r}")
        return after

    def _end(self, seat: Seat, trump: Suit) -> None:
        self.bidder = seat
        self.trump = trump
        self.to_act = None
        self.round = None

    def _pass(self, seat: Seat) -> None:
        self.passes += 1
        self.to_act = (seat + 1) % self.players
        if self.passes < self.players:
            return
        if self.round == 1:
            self.round = 2
            self.passes = 0
        else:
            self.round = None
            self.to_act = None
            self.cancelled = True

    def _copy(self) -> Taking:
        copy = Taking()
        for name in Taking.__slots__:
            setattr(copy, name, getattr(self, name))
        return copy
