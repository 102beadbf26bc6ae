"""Declarations (runs and fours of a kind): finding, ranking, comparing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import Card, Rank, Suit, Team, cards_mask

DeclarationKind = Literal["run", "four"]
#: What an announcement makes public: kind, length and value, nothing about suit or rank.
Announcement = tuple[DeclarationKind, int, int]

FOUR_VALUES: dict[Rank, int] = {
    Rank.JACK: 200,
    Rank.NINE: 150,
    Rank.ACE: 100,
    Rank.TEN: 100,
    Rank.KING: 100,
    Rank.QUEEN: 100,
}
# Among fours of equal value: A > 10 > K > Q (decision); Jacks and Nines differ in value.
FOUR_ORDER: dict[Rank, int] = {
    Rank.QUEEN: 0,
    Rank.KING: 1,
    Rank.TEN: 2,
    Rank.ACE: 3,
    Rank.NINE: 4,
    Rank.JACK: 5,
}
FOUR_BITS = 0x01010101  # one card of a rank in each suit


def run_value(length: int) -> int:
    """Return what a run scores: 20, 50, or 100 for five cards or more."""
    return 20 if length == 3 else 50 if length == 4 else 100


@dataclass(frozen=True, slots=True)
class Declaration:
    """A run in one suit or a four of a kind, with its cards highest first.

    ``rank`` is the top rank of a run or the rank of a four; ``suit`` is None for a four.
    """

    kind: DeclarationKind
    cards: tuple[Card, ...]
    value: int
    rank: Rank
    suit: Suit | None

    @property
    def length(self) -> int:
        """Return the number of cards."""
        return len(self.cards)

    @property
    def top(self) -> Card:
        """Return the highest card of a run (for a four, its card of the highest suit)."""
        return self.cards[0]

    @property
    def announcement(self) -> Announcement:
        """Return what announcing it makes public."""
        return (self.kind, len(self.cards), self.value)

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(str(card) for card in self.cards)} ({self.value})"


def _runs_in_pattern(pattern: int) -> tuple[tuple[int, int], ...]:
    """Return the maximal runs (low rank, length) of at least 3 in an 8-bit rank pattern."""
    runs = []
    rank = 0
    while rank < 8:
        length = 0
        while rank + length < 8 and pattern >> (rank + length) & 1:
            length += 1
        if length >= 3:
            runs.append((rank, length))
        rank += length + 1
    return tuple(runs)


_RUNS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_runs_in_pattern(p) for p in range(256))


def has_declaration(mask: int) -> bool:
    """Say whether a hand bitmask holds at least one declaration."""
    for suit in range(4):
        if _RUNS[mask >> (8 * suit) & 0xFF]:
            return True
    return any(mask >> rank & FOUR_BITS == FOUR_BITS for rank in FOUR_VALUES)


def find_declarations(hand: Iterable[Card]) -> tuple[Declaration, ...]:
    """Return every declaration of a hand: maximal runs by suit, then fours of a kind.

    A run counts once at its full length, and a card may be in a run and a four.
    """
    mask = cards_mask(hand)
    found: list[Declaration] = []
    for suit in Suit:
        for low, length in _RUNS[mask >> (8 * suit) & 0xFF]:
            top = Rank(low + length - 1)
            cards = tuple(Card(suit, Rank(rank)) for rank in range(top, low - 1, -1))
            found.append(Declaration("run", cards, run_value(length), top, suit))
    for rank, value in FOUR_VALUES.items():
        if mask >> rank & FOUR_BITS == FOUR_BITS:
            cards = tuple(Card(suit, rank) for suit in reversed(Suit))
            found.append(Declaration("four", cards, value, rank, None))
    return tuple(found)


def declaration_key(declaration: Declaration, trump: Suit) -> tuple[int, int, int, int, int]:
    """Rank a declaration: value, four over run, then four order or length and top, then trump."""
    if declaration.kind == "four":
        return (declaration.value, 1, FOUR_ORDER[declaration.rank], 0, 0)
    in_trump = int(declaration.suit == trump)
    return (declaration.value, 0, declaration.length, declaration.rank, in_trump)


def compare_declarations(a: Declaration, b: Declaration, trump: Suit) -> int:
    """Return 1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 if they void each other.

    Equal runs: the one in trumps wins; neither in trumps, both are void.
    """
    key_a, key_b = declaration_key(a, trump), declaration_key(b, trump)
    if key_a == key_b or (key_a[:4] == key_b[:4] and not key_a[4] and not key_b[4]):
        return 0
    return 1 if key_a > key_b else -1


def best_declaration(declarations: Iterable[Declaration], trump: Suit) -> Declaration | None:
    """Return a team's best declaration (trump breaks ties between its own equal runs)."""
    return max(declarations, key=lambda d: declaration_key(d, trump), default=None)


def declaration_winner(shown: Sequence[Sequence[Declaration]], trump: Suit) -> Team | None:
    """Return the team whose best declaration wins, or None (none shown, or void)."""
    best = [best_declaration(shown[team], trump) for team in (0, 1)]
    if best[0] is None:
        return None if best[1] is None else 1
    if best[1] is None:
        return 0
    outcome = compare_declarations(best[0], best[1], trump)
    return None if outcome == 0 else 0 if outcome > 0 else 1


def classic_key(declaration: Declaration) -> tuple[int, int, int, int]:
    """Rank a declaration in the classic game: value, four over run, four order or length, top.

    Trumps play no part: equal runs are equal.
    """
    if declaration.kind == "four":
        return (declaration.value, 1, FOUR_ORDER[declaration.rank], 0)
    return (declaration.value, 0, declaration.length, declaration.rank)


def classic_declaration_winner(shown: Sequence[Sequence[Declaration]]) -> int | None:
    """Return the side whose best declaration wins in the classic game, or None.

    None when nobody showed one, and when two or more sides share the best: then no side
    scores any declaration.
    """
    best = [max(map(classic_key, side), default=None) for side in shown]
    keys = [key for key in best if key is not None]
    if not keys:
        return None
    top = max(keys)
    if keys.count(top) > 1:
        return None
    return best.index(top)
