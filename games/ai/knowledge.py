"""What a seat can deduce from its observation, in the bitmask form of the fast core.

It holds for every table: the palaristi game, and the classic game with 2, 3 or 4 players
(``players`` seats, a ``side`` being a team of two with four players, else a player, and the
24-card deck with 2 or 3).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import Rank
from games.engine.fast import (
    BEATEN_BY,
    FULL_DECK,
    SUIT_MASKS,
    Mask,
    Seat,
    Suit,
    mask_of,
    winning_card,
)
from games.engine.observation import Observation


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The play phase as ``seat`` sees it.

    ``forbidden[s]`` holds the cards seat ``s`` cannot hold (voids, no higher trump);
    ``known[s]`` the unplayed cards seat ``s`` must hold (shown declarations, pilotta, the
    classic game's turned card in the taker's hand). ``counts``, ``forbidden`` and ``known``
    are by seat, ``points`` and ``tricks_won`` by side, ``bidders`` is the contract's side.
    ``deck`` holds the cards in the game (with two players, also the eight left unused).
    """

    seat: Seat
    trump: Suit
    hand: Mask
    played: Mask
    trick: tuple[int, ...]
    leader: Seat
    counts: tuple[int, ...]
    forbidden: tuple[Mask, ...]
    known: tuple[Mask, ...]
    bidders: int
    value: int
    multiplier: int
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    players: int = 4
    protection: bool = False
    deck: Mask = FULL_DECK

    @property
    def unseen(self) -> Mask:
        """Return the cards of the deck neither played nor in this seat's hand."""
        return self.deck & ~self.played & ~self.hand

    @property
    def teams(self) -> bool:
        """Say whether partners play together (four players)."""
        return self.players == 4

    def side(self, seat: Seat) -> int:
        """Return the side of ``seat``: its team with four players, else itself."""
        return seat % 2 if self.players == 4 else seat

    @property
    def partner(self) -> Seat | None:
        """Return this seat's partner, None without partners."""
        return (self.seat + 2) % 4 if self.players == 4 else None

    @property
    def opponents(self) -> tuple[Seat, ...]:
        """Return the seats of the other sides, in play order after this seat."""
        seats = ((self.seat + offset) % self.players for offset in range(1, self.players))
        return tuple(s for s in seats if self.side(s) != self.side(self.seat))

    def seat_at(self, position: int) -> Seat:
        """Return the seat that plays the card at ``position`` of the open trick."""
        return (self.leader + position) % self.players


def read_knowledge(observation: Observation) -> Knowledge:
    """Deduce the play-phase knowledge of the seat to act from its observation."""
    contract = observation.contract
    seat = observation.seat
    if contract is None or seat is None or observation.current_trick is None:
        raise ValueError("knowledge is read in the play phase, for a seated player")
    ruleset = observation.ruleset
    players = ruleset.players
    protection = ruleset.partner_protection
    trump = int(contract.trump)
    forbidden = [0] * players
    played = 0
    points = [0] * ruleset.sides
    won = [0] * ruleset.sides
    for trick in observation.tricks:
        cards = [c.index for c in trick.cards]
        _learn_from_trick(forbidden, trick.leader, cards, trump, players, protection)
        played |= mask_of(cards)
        points[ruleset.side_of(trick.winner)] += trick.points
        won[ruleset.side_of(trick.winner)] += 1
    current = observation.current_trick
    trick_cards = tuple(c.index for c in current.cards)
    _learn_from_trick(forbidden, current.leader, list(trick_cards), trump, players, protection)
    played |= mask_of(trick_cards)
    known = _known_cards(observation, trump, played)
    hand = mask_of(c.index for c in observation.hand)
    return Knowledge(
        seat=seat,
        trump=trump,
        hand=hand,
        played=played,
        trick=trick_cards,
        leader=current.leader,
        counts=tuple(observation.card_counts),
        forbidden=tuple(forbidden),
        known=tuple(known),
        bidders=contract.team,
        value=contract.value,
        multiplier=contract.multiplier,
        points=tuple(points),
        tricks_won=tuple(won),
        players=players,
        protection=protection,
        deck=mask_of(card.index for card in ruleset.deck),
    )


def _learn_from_trick(
    forbidden: list[Mask],
    leader: Seat,
    cards: list[int],
    trump: Suit,
    players: int = 4,
    protection: bool = False,
) -> None:
    """Record the voids and missing higher trumps that each card of a trick reveals.

    Under partner protection a player whose partner holds the trick need not trump: a discard
    then shows a void in the led suit only.
    """
    if not cards:
        return
    led = cards[0] >> 3
    trumps = SUIT_MASKS[trump]
    for position in range(1, len(cards)):
        seat = (leader + position) % players
        card = cards[position]
        best = winning_card(cards[:position], trump)
        best_is_trump = best >> 3 == trump
        if card >> 3 != led:
            forbidden[seat] |= SUIT_MASKS[led]
            protected = protection and (leader + cards.index(best)) % 4 == (seat + 2) % 4
            if card >> 3 != trump and not protected:
                forbidden[seat] |= trumps
        if card >> 3 == trump and best_is_trump and not BEATEN_BY[trump][best] >> card & 1:
            # Not beating the trick's best trump when trumps are played means holding none higher.
            forbidden[seat] |= BEATEN_BY[trump][best] & trumps


def _known_cards(observation: Observation, trump: Suit, played: Mask) -> list[Mask]:
    """Return, by seat, the unplayed cards that seat is known to hold."""
    known = [0] * observation.players
    for seat, declarations in enumerate(observation.shown):
        for declaration in declarations:
            known[seat] |= mask_of(c.index for c in declaration.cards)
    king, queen = trump * 8 + Rank.KING, trump * 8 + Rank.QUEEN
    for seat, card in observation.pilotta_calls:
        # The first call proves the seat was dealt the other card of the pair.
        known[seat] |= 1 << (queen if card.index == king else king)
    contract = observation.contract
    if observation.turned is not None and contract is not None:
        # The taker received the turned card in front of everyone.
        known[contract.seat] |= observation.turned.mask
    return [mask & ~played for mask in known]
