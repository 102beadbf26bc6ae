"""Seats, teams, suits, ranks and the 32 interned cards, with their trick order and points."""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Any

from .errors import EngineError

Seat = int
Team = int

SUIT_LETTERS = "CDHS"
RANK_LETTERS = "789TJQKA"


def team_of(seat: Seat) -> Team:
    """Return the team of a seat: partners sit opposite."""
    return seat % 2


def side_count(players: int) -> int:
    """Return how many sides score at a table: two teams of partners with four, else each player."""
    return 2 if players == 4 else players


def side_of(seat: Seat, players: int) -> int:
    """Return the side a seat plays for: its team with four players, else itself."""
    return seat % 2 if players == 4 else seat


def next_seat(seat: Seat) -> Seat:
    """Return the seat that acts after ``seat`` (play moves from s to s + 1)."""
    return (seat + 1) % 4


class Suit(IntEnum):
    """A suit, written with its letter C, D, H or S."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter."""
        if len(text) != 1 or text not in SUIT_LETTERS:
            raise EngineError(f"not a suit: {text!r}")
        return cls(SUIT_LETTERS.index(text))

    def __str__(self) -> str:
        return SUIT_LETTERS[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Rank(IntEnum):
    """A rank in natural order, written 7 8 9 T J Q K A."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank letter."""
        if len(text) != 1 or text not in RANK_LETTERS:
            raise EngineError(f"not a rank: {text!r}")
        return cls(RANK_LETTERS.index(text))

    def __str__(self) -> str:
        return RANK_LETTERS[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


class Card:
    """One of the 32 cards; every card exists once, so identity is equality."""

    __slots__ = ("index", "rank", "suit")

    suit: Suit
    rank: Rank
    index: int

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return _CARDS[Suit(suit) * 8 + Rank(rank)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", Suit(index // 8))
        object.__setattr__(card, "rank", Rank(index % 8))
        object.__setattr__(card, "index", index)
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """Return the card with this index (suit * 8 + rank)."""
        if type(index) is not int or not 0 <= index < 32:
            raise EngineError(f"not a card index: {index!r}")
        return _CARDS[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card such as ``JH`` (rank letter, then suit letter)."""
        card = _BY_NAME.get(text) if isinstance(text, str) else None
        if card is None:
            raise EngineError(f"not a card: {text!r}")
        return card

    @property
    def mask(self) -> int:
        """Return this card's bit in a hand bitmask."""
        return 1 << self.index

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # Copies and pickles must come back as the interned instance.
        return (Card.from_index, (self.index,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(32))
_BY_NAME: dict[str, Card] = {str(card): card for card in _CARDS}

#: The 32 cards in index order.
DECK: tuple[Card, ...] = _CARDS
#: The 24 cards from the Nine up, in index order: the classic game's deck for two or three.
SHORT_DECK: tuple[Card, ...] = tuple(card for card in _CARDS if card.rank >= Rank.NINE)

#: The bits of each suit in a hand bitmask.
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * suit) for suit in Suit)
FULL_MASK = (1 << 32) - 1

# Strength within a trick (7 is the highest), by rank.
TRUMP_ORDER: tuple[int, ...] = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
SIDE_ORDER: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
TRUMP_POINTS: tuple[int, ...] = (0, 0, 14, 10, 20, 3, 4, 11)
SIDE_POINTS: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 11)

#: POINTS[trump][card index]: each card's points under each trump suit.
POINTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        TRUMP_POINTS[card.rank] if card.suit == trump else SIDE_POINTS[card.rank] for card in DECK
    )
    for trump in Suit
)

#: HIGHER_TRUMPS[card index]: the cards of its suit that beat it when its suit is trump.
HIGHER_TRUMPS: tuple[int, ...] = tuple(
    sum(
        1 << other.index
        for other in DECK
        if other.suit == card.suit and TRUMP_ORDER[other.rank] > TRUMP_ORDER[card.rank]
    )
    for card in DECK
)


def card_points(card: Card, trump: Suit) -> int:
    """Return what the card is worth when ``trump`` is trumps."""
    return POINTS[trump][card.index]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces, such as ``"JH 9H AH"``."""
    return tuple(Card.parse(word) for word in text.split())


def cards_mask(cards: Iterable[Card]) -> int:
    """Return the bitmask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def mask_cards(mask: int) -> tuple[Card, ...]:
    """Return the cards of a bitmask in index order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(cards)


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards separated by spaces, the inverse of parse_cards."""
    return " ".join(str(card) for card in cards)
