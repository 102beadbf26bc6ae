"""Deck orders, the cut and the 3-2-3 deal of RULES.md §2."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import DECK, Card, Seat
from .errors import InvalidDealError

if TYPE_CHECKING:
    from .state import RoundState

MIN_CUT = 3
MAX_CUT = 29
DEAL_PACKETS = (3, 2, 3)

Hands = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """Return the 32 cards in an order drawn from ``rng`` (top card first)."""
    cards = list(DECK)
    rng.shuffle(cards)
    return tuple(cards)


def draw_cut(rng: random.Random) -> int:
    """Draw the depth of the cut, 3 to 29 cards from the top."""
    return rng.randint(MIN_CUT, MAX_CUT)


def table_deck(previous: RoundState) -> tuple[Card, ...]:
    """Stack the cards of an ended round as they lie on the table (top card first).

    The tricks come in the order they were played, each in play order; a cancelled round
    stacks the hands of seats 0 to 3, each in the order it was dealt.
    """
    if previous.phase == "cancelled":
        return tuple(card for hand in previous.hands for card in hand)
    if previous.phase != "finished":
        raise InvalidDealError("only an ended round leaves a deck on the table")
    return tuple(card for trick in previous.tricks for card in trick.cards)


def deal(deck: Sequence[Card], *, dealer: Seat, cut: int) -> Hands:
    """Cut ``cut`` cards from the top to the bottom, then deal 3-2-3 from dealer + 1.

    Returns the hands by seat, each in the order its cards were received.
    """
    check_deck(deck)
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise InvalidDealError(f"the dealer must be a seat 0 to 3, not {dealer!r}")
    if type(cut) is not int or not MIN_CUT <= cut <= MAX_CUT:
        raise InvalidDealError(f"the cut must be {MIN_CUT} to {MAX_CUT} cards, not {cut!r}")
    cards = list(deck[cut:]) + list(deck[:cut])
    hands: list[list[Card]] = [[], [], [], []]
    position = 0
    for packet in DEAL_PACKETS:
        for offset in (1, 2, 3, 4):
            hands[(dealer + offset) % 4].extend(cards[position : position + packet])
            position += packet
    return (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))


def check_deck(deck: Sequence[Card]) -> None:
    """Refuse anything but the 32 distinct cards."""
    if len(deck) != 32 or any(type(card) is not Card for card in deck) or len(set(deck)) != 32:
        raise InvalidDealError("a deck is the 32 distinct cards")
