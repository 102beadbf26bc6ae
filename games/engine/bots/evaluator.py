"""The strong bot's bidding evaluator: a linear model fitted offline by ``calibrate``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..fast import SUIT_MASKS, Mask

COEFFICIENTS_PATH = Path(__file__).with_name("bidding_coefficients.json")
FEATURE_NAMES = (
    "intercept",
    "trump_jack",
    "trump_nine",
    "trump_ace",
    "trump_ten",
    "trump_king_queen",
    "trumps",
    "side_aces",
    "side_tens_with_ace",
    "side_tens_guarded",
    "side_kings",
    "voids",
)


def hand_features(hand: Mask, trump: int) -> list[int]:
    """Return the features of a bidder's hand with ``trump`` as trumps."""
    trumps = hand >> (8 * trump) & 0xFF
    aces = tens_with_ace = tens_guarded = kings = voids = 0
    for suit in range(4):
        if suit == trump:
            continue
        ranks = hand >> (8 * suit) & 0xFF
        ace, ten = ranks >> 7 & 1, ranks >> 3 & 1
        aces += ace
        tens_with_ace += ten & ace
        tens_guarded += int(bool(ten and not ace and ranks.bit_count() >= 3))
        kings += ranks >> 6 & 1
        voids += int(ranks == 0)
    return [
        1,
        trumps >> 4 & 1,
        trumps >> 2 & 1,
        trumps >> 7 & 1,
        trumps >> 3 & 1,
        (trumps >> 6 & 1) + (trumps >> 5 & 1),
        (hand & SUIT_MASKS[trump]).bit_count(),
        aces,
        tens_with_ace,
        tens_guarded,
        kings,
        voids,
    ]


@cache
def coefficients() -> tuple[float, ...]:
    """Return the fitted coefficients, read once."""
    table = json.loads(COEFFICIENTS_PATH.read_text())
    if tuple(table["features"]) != FEATURE_NAMES:
        raise ValueError("bidding_coefficients.json does not match the evaluator's features")
    return tuple(float(c) for c in table["coefficients"])


def calibrated_estimate(hand: Mask, trump: int) -> int:
    """Return the card points the bidding team is expected to take, own declarations aside."""
    weights = coefficients()
    return round(sum(w * f for w, f in zip(weights, hand_features(hand, trump), strict=True)))
