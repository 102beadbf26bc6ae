"""The strong bot's bidding model: linear models fitted offline by ``calibrate``.

``bidder`` estimates the card points a team takes from one of its hands; ``defence`` and
``partner`` estimate how another hand moves that figure once the bidder's hand is accounted for.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.engine.fast import SUIT_MASKS, Mask

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
    "leads",
)


@dataclass(frozen=True, slots=True)
class BiddingModel:
    """The fitted weights (in the order of ``FEATURE_NAMES``) and residual spreads."""

    bidder: tuple[float, ...]
    bidder_sd: float
    defence: tuple[float, ...]
    defence_sd: float
    partner: tuple[float, ...]
    partner_sd: float


def hand_features(hand: Mask, trump: int, leads: bool) -> list[int]:
    """Return the features of a hand with ``trump`` as trumps; ``leads``: its team leads first."""
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
        int(leads),
    ]


@cache
def bidding_model() -> BiddingModel:
    """Return the fitted model, read once."""
    table = json.loads(COEFFICIENTS_PATH.read_text())
    if tuple(table["features"]) != FEATURE_NAMES:
        raise ValueError("bidding_coefficients.json does not match the evaluator's features")

    def weights(key: str) -> tuple[float, ...]:
        values = tuple(float(c) for c in table[key])
        if len(values) != len(FEATURE_NAMES):
            raise ValueError(f"bidding_coefficients.json: {key} has the wrong length")
        return values

    return BiddingModel(
        bidder=weights("coefficients"),
        bidder_sd=float(table["residual_sd"]),
        defence=weights("defence"),
        defence_sd=float(table["defence_sd"]),
        partner=weights("partner"),
        partner_sd=float(table["partner_sd"]),
    )


def _apply(weights: tuple[float, ...], hand: Mask, trump: int, leads: bool) -> float:
    return sum(w * f for w, f in zip(weights, hand_features(hand, trump, leads), strict=True))


def bidder_estimate(hand: Mask, trump: int, leads: bool) -> float:
    """Return the card points the team of ``hand`` is expected to take, declarations aside."""
    return _apply(bidding_model().bidder, hand, trump, leads)


def defence_shift(hand: Mask, trump: int, leads: bool) -> float:
    """Return how a defender's ``hand`` moves the bidders' points from the bidder's estimate."""
    return _apply(bidding_model().defence, hand, trump, leads)


def partner_shift(hand: Mask, trump: int, leads: bool) -> float:
    """Return how the bidder's partner's ``hand`` moves the team's points from that estimate."""
    return _apply(bidding_model().partner, hand, trump, leads)


def chance_at_least(mean: float, spread: float, target: float) -> float:
    """Return the chance a normal variable of ``mean`` and ``spread`` reaches ``target``."""
    return 0.5 * math.erfc((target - mean) / (spread * math.sqrt(2)))
