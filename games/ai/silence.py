"""Reading what the other seats left unsaid: no announcement, no pilotta call.

*Announce* is offered in trick 1 only to a hand that holds a declaration, and the pilotta call
only to the seat dealt both the King and the Queen of trumps. Every computer, and the table's
assist, announces and calls whenever the rules offer it, since both only ever gain points. So a
seat that played its card of trick 1 without announcing was dealt no declaration, and one that
played the King or Queen of trumps without a call does not hold the other. People playing
without the assist can forget: a deal that contradicts a seat's silence keeps ``FORGOTTEN`` of
its weight instead of being ruled out.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Rank, mask_cards
from games.engine.declarations import find_declarations
from games.engine.fast import Mask
from games.engine.observation import Observation

from .sampling import played_by_seat

#: The weight kept by a deal in which a silent seat would have forgotten to announce or to call.
FORGOTTEN = 0.1


@dataclass(frozen=True, slots=True)
class SilentSeat:
    """What a seat's silence says about the hand it was dealt."""

    seat: int
    played: Mask  # the cards this seat has played: with its hand, the hand it was dealt
    no_declaration: bool  # it played in trick 1 without announcing
    not_held: Mask  # the other card of the pilotta pair, after one played without a call

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the chance of this seat's silence given its hand in ``hands``, up to a factor."""
        hand = hands[self.seat]
        weight = FORGOTTEN if hand & self.not_held else 1.0
        if self.no_declaration and find_declarations(mask_cards(hand | self.played)):
            weight *= FORGOTTEN
        return weight


def read_silences(observation: Observation) -> list[SilentSeat]:
    """Return the other seats whose silence says something about their hand."""
    played = played_by_seat(observation)
    unannounced = _unannounced_in_first_trick(observation)
    uncalled = _uncalled_pilotta_cards(observation, played)
    return [
        SilentSeat(seat, played[seat], seat in unannounced, uncalled[seat])
        for seat in range(observation.players)
        if seat != observation.seat and (seat in unannounced or uncalled[seat])
    ]


def _unannounced_in_first_trick(observation: Observation) -> set[int]:
    """Return the seats that played their card of trick 1 without announcing."""
    first = observation.tricks[0] if observation.tricks else observation.current_trick
    if first is None:
        return set()
    players = observation.players
    seats = {(first.leader + position) % players for position in range(len(first.cards))}
    return {seat for seat in seats if not observation.announcements[seat]}


def _uncalled_pilotta_cards(observation: Observation, played: list[Mask]) -> list[Mask]:
    """Return, by seat, the pilotta card it cannot hold, having played the other without a call.

    The call is offered on the first of the two cards played: a seat that plays one of them
    without a call, not having played the other before, was not dealt both.
    """
    uncalled = [0] * observation.players
    contract = observation.contract
    if contract is None:
        return uncalled
    king = 1 << (contract.trump * 8 + Rank.KING)
    queen = 1 << (contract.trump * 8 + Rank.QUEEN)
    called = {seat for seat, _ in observation.pilotta_calls}
    for seat in range(observation.players):
        pair = played[seat] & (king | queen)
        if pair.bit_count() == 1 and seat not in called:
            uncalled[seat] = (king | queen) & ~pair
    return uncalled
