"""What a seat can deduce from its observation, in the bitmask form of the fast core."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Rank
from games.engine.fast import BEATEN_BY, SUIT_MASKS, Mask, Seat, Suit, mask_of, winning_card
from games.engine.observation import Observation


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The play phase as ``seat`` sees it.

    ``forbidden[s]`` holds the cards seat ``s`` cannot hold (voids, no higher trump);
    ``known[s]`` the unplayed cards seat ``s`` must hold (shown declarations, pilotta).
    """

    seat: Seat
    trump: Suit
    hand: Mask
    played: Mask
    trick: tuple[int, ...]
    leader: Seat
    counts: tuple[int, int, int, int]
    forbidden: tuple[Mask, Mask, Mask, Mask]
    known: tuple[Mask, Mask, Mask, Mask]
    bidders: int
    value: int
    multiplier: int
    points: tuple[int, int]
    tricks_won: tuple[int, int]

    @property
    def unseen(self) -> Mask:
        """Return the cards neither played nor in this seat's hand."""
        return ((1 << 32) - 1) & ~self.played & ~self.hand


def read_knowledge(observation: Observation) -> Knowledge:
    """Deduce the play-phase knowledge of the seat to act from its observation."""
    contract = observation.contract
    seat = observation.seat
    if contract is None or seat is None or observation.current_trick is None:
        raise ValueError("knowledge is read in the play phase, for a seated player")
    trump = int(contract.trump)
    forbidden = [0, 0, 0, 0]
    played = 0
    points = [0, 0]
    won = [0, 0]
    for trick in observation.tricks:
        _learn_from_trick(forbidden, trick.leader, [c.index for c in trick.cards], trump)
        played |= mask_of(c.index for c in trick.cards)
        points[trick.winner % 2] += trick.points
        won[trick.winner % 2] += 1
    current = observation.current_trick
    trick_cards = tuple(c.index for c in current.cards)
    _learn_from_trick(forbidden, current.leader, list(trick_cards), trump)
    played |= mask_of(trick_cards)
    known = _known_cards(observation, trump, played)
    hand = mask_of(c.index for c in observation.hand)
    counts = observation.card_counts
    return Knowledge(
        seat=seat,
        trump=trump,
        hand=hand,
        played=played,
        trick=trick_cards,
        leader=current.leader,
        counts=(counts[0], counts[1], counts[2], counts[3]),
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        known=(known[0], known[1], known[2], known[3]),
        bidders=contract.team,
        value=contract.value,
        multiplier=contract.multiplier,
        points=(points[0], points[1]),
        tricks_won=(won[0], won[1]),
    )


def _learn_from_trick(forbidden: list[Mask], leader: Seat, cards: list[int], trump: Suit) -> None:
    """Record the voids and missing higher trumps that each card of a trick reveals."""
    if not cards:
        return
    led = cards[0] >> 3
    trumps = SUIT_MASKS[trump]
    for position in range(1, len(cards)):
        seat = (leader + position) % 4
        card = cards[position]
        best = winning_card(cards[:position], trump)
        best_is_trump = best >> 3 == trump
        if card >> 3 != led:
            forbidden[seat] |= SUIT_MASKS[led]
            if card >> 3 != trump:
                forbidden[seat] |= trumps
        if card >> 3 == trump and best_is_trump and not BEATEN_BY[trump][best] >> card & 1:
            # Not beating the trick's best trump when trumps are played means holding none higher.
            forbidden[seat] |= BEATEN_BY[trump][best] & trumps


def _known_cards(observation: Observation, trump: Suit, played: Mask) -> list[Mask]:
    """Return, by seat, the unplayed cards that seat is known to hold."""
    known = [0, 0, 0, 0]
    for seat, declarations in enumerate(observation.shown):
        for declaration in declarations:
            known[seat] |= mask_of(c.index for c in declaration.cards)
    king, queen = trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN
    for seat, card in observation.pilotta_calls:
        # The first call proves the seat was dealt the other card of the pair.
        known[seat] |= 1 << (queen if card.index == king else king)
    return [mask & ~played for mask in known]
