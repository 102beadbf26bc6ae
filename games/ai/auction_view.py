"""The auction as a seat sees it: the high bid, who holds it, closes, partners' suits."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import Bid, Close, Reclose
from games.engine.cards import Seat, Suit
from games.engine.observation import Observation


@dataclass(frozen=True, slots=True)
class AuctionView:
    """The state of the auction from the observation's public record."""

    high: Bid | None
    bidder: Seat | None
    multiplier: int
    bids_by_seat: tuple[tuple[Bid, ...], ...]

    def suits_bid_by(self, seat: Seat) -> set[Suit]:
        """Return the trump suits ``seat`` has named."""
        return {bid.trump for bid in self.bids_by_seat[seat]}


def read_auction(observation: Observation) -> AuctionView:
    """Summarise the auction of an observation."""
    high: Bid | None = None
    bidder: Seat | None = None
    multiplier = 1
    bids: list[list[Bid]] = [[] for _ in range(observation.players)]
    for seat, action in observation.auction:
        if isinstance(action, Bid):
            high, bidder = action, seat
            bids[seat].append(action)
        elif isinstance(action, Close):
            multiplier = 2
        elif isinstance(action, Reclose):
            multiplier = 4
    return AuctionView(high, bidder, multiplier, tuple(tuple(b) for b in bids))
