"""Deck orders, the cut and the 3-2-3 deal."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import DECK, SHORT_DECK, Card, Seat
from .errors import InvalidDealError

if TYPE_CHECKING:
    from .state import RoundState

MIN_CUT = 3
MAX_CUT = 29
DEAL_PACKETS = (3, 2, 3)
#: The classic game deals 3 then 2 before the auction, then completes to 8.
CLASSIC_PACKETS = (3, 2)
CLASSIC_FIRST_CARDS = 5
CARDS_IN_HAND = 8

Hands = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def shuffled_deck(rng: random.Random, cards: Sequence[Card] = DECK) -> tuple[Card, ...]:
    """Return the cards (all 32 unless told) in an order drawn from ``rng`` (top card first)."""
    order = list(cards)
    rng.shuffle(order)
    return tuple(order)


def draw_cut(rng: random.Random, size: int = 32) -> int:
    """Draw the depth of the cut: at least 3 cards from the top, at least 3 left below."""
    return rng.randint(MIN_CUT, size - MIN_CUT)


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


@dataclass(frozen=True, slots=True)
class ClassicDeal:
    """The classic game's deal before the auction: five cards each, the turned card, the stock.

    ``stock`` is the rest of the deck from the top; with two players its last eight cards
    stay face down, unused.
    """

    hands: tuple[tuple[Card, ...], ...]
    turned: Card
    stock: tuple[Card, ...]


def deal_classic(deck: Sequence[Card], *, dealer: Seat, cut: int, players: int) -> ClassicDeal:
    """Cut, deal 3 then 2 cards to each player from ``dealer + 1``, and turn the next card."""
    cards = SHORT_DECK if players < 4 else DECK
    if len(deck) != len(cards) or set(deck) != set(cards) or len(set(deck)) != len(cards):
        raise InvalidDealError(f"a deck for {players} players is {len(cards)} distinct cards")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise InvalidDealError(f"the dealer must be a seat 0 to {players - 1}, not {dealer!r}")
    if type(cut) is not int or not MIN_CUT <= cut <= len(deck) - MIN_CUT:
        raise InvalidDealError(f"the cut must be {MIN_CUT} to {len(deck) - MIN_CUT} cards")
    order = list(deck[cut:]) + list(deck[:cut])
    hands: list[list[Card]] = [[] for _ in range(players)]
    position = 0
    for packet in CLASSIC_PACKETS:
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].extend(order[position : position + packet])
            position += packet
    return ClassicDeal(
        hands=tuple(tuple(hand) for hand in hands),
        turned=order[position],
        stock=tuple(order[position + 1 :]),
    )


def complete_deal(
    hands: Sequence[Sequence[Card]],
    *,
    turned: Card,
    stock: Sequence[Card],
    dealer: Seat,
    taker: Seat,
) -> tuple[tuple[Card, ...], ...]:
    """Complete every hand to eight once ``taker`` has taken or named.

    The taker receives the turned card and the next two cards, every other player three, from
    the top of the stock in play order from ``dealer + 1``, each batch in one go.
    """
    players = len(hands)
    completed = [list(hand) for hand in hands]
    position = 0
    for offset in range(1, players + 1):
        seat = (dealer + offset) % players
        if seat == taker:
            completed[seat].append(turned)
            batch = CARDS_IN_HAND - CLASSIC_FIRST_CARDS - 1
        else:
            batch = CARDS_IN_HAND - CLASSIC_FIRST_CARDS
        completed[seat].extend(stock[position : position + batch])
        position += batch
    return tuple(tuple(hand) for hand in completed)
