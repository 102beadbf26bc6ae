"""What the cards of a hand are worth before the play: pieces shared by every auction."""

from __future__ import annotations

from games.engine.cards import mask_cards
from games.engine.declarations import find_declarations
from games.engine.fast import Mask


def declaration_points(hand: Mask) -> int:
    """Return the declarations of a hand, weighted by how often they are likely to score."""
    total = 0
    for declaration in find_declarations(mask_cards(hand)):
        total += declaration.value if declaration.kind == "four" else declaration.value * 7 // 10
    return total


def side_suit_worth(ranks: int) -> int:
    """Return what a side suit (an 8-bit rank pattern) is worth to its holder."""
    ace, ten, king = ranks >> 7 & 1, ranks >> 3 & 1, ranks >> 6 & 1
    worth = 12 * ace
    if ten:
        worth += 8 if ace else 3 if ranks.bit_count() >= 3 else 0
    if king and ace and ten:
        worth += 3
    return worth
