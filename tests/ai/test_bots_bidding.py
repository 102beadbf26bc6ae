"""The strong bot's bidding model: fitted under sign constraints, cheap, and used to close."""

from __future__ import annotations

import json
import random
import time

import numpy as np
import pytest

from games.ai import choose_action, warm_up
from games.ai.calibrate import fit_models, signed_least_squares, simulate
from games.ai.evaluator import (
    COEFFICIENTS_PATH,
    FEATURE_NAMES,
    bidder_estimate,
    bidding_model,
    chance_at_least,
    defence_shift,
)
from games.ai.strong import AuctionPolicy, auction_action
from games.engine import (
    DECK,
    Bid,
    Card,
    Close,
    Pass,
    Reclose,
    RoundState,
    Suit,
    parse_cards,
)
from games.engine.cards import cards_mask

TRUMP_HONOURS = ("JH", "9H", "AH", "TH", "KH", "QH")


def test_the_stored_fit_says_how_it_was_made() -> None:
    table = json.loads(COEFFICIENTS_PATH.read_text())
    assert table["command"] == (
        f"python -m games.ai.calibrate --deals {table['deals']} --seed {table['seed']}"
    )
    assert table["deals"] >= 3000
    assert tuple(table["features"]) == FEATURE_NAMES


def test_every_card_feature_has_its_natural_sign() -> None:
    model = bidding_model()
    assert all(w >= 0 for w in model.bidder[1:])
    assert all(w >= 0 for w in model.partner[1:])
    assert all(w <= 0 for w in model.defence[1:])


@pytest.mark.parametrize("honour", TRUMP_HONOURS)
def test_a_trump_honour_never_lowers_the_estimate(honour: str) -> None:
    rng = random.Random(honour)
    card = Card.parse(honour)
    others = [c for c in DECK if c != card]
    for _ in range(50):
        without = cards_mask(rng.sample(others, 7))
        with_it = without | card.mask
        for leads in (False, True):
            assert bidder_estimate(with_it, Suit.HEARTS, leads) >= bidder_estimate(
                without, Suit.HEARTS, leads
            )
            assert defence_shift(with_it, Suit.HEARTS, leads) <= defence_shift(
                without, Suit.HEARTS, leads
            )


def test_a_constrained_fit_keeps_its_signs_and_fits_what_it_can() -> None:
    rng = np.random.default_rng(3)
    x = np.column_stack([np.ones(400), rng.integers(0, 2, (400, 2))])
    y = x @ np.array([10.0, 5.0, -3.0]) + rng.normal(0, 0.1, 400)
    free = signed_least_squares(x, y, [0, 0, 0])
    assert free == pytest.approx([10.0, 5.0, -3.0], abs=0.1)
    signed = signed_least_squares(x, y, [0, 1, 1])
    assert signed[2] == 0.0
    assert signed[1] == pytest.approx(5.0, abs=0.3)


def test_the_calibration_runs_end_to_end_on_a_few_deals() -> None:
    features, points = simulate(12, seed=5)
    assert features.shape == (12, 4, len(FEATURE_NAMES))
    assert np.all(points[:, 0] + points[:, 1] == 162)
    fitted = fit_models(features, points)
    assert len(fitted["defence"]) == len(FEATURE_NAMES)  # type: ignore[arg-type]


def test_chance_at_least_is_a_normal_tail() -> None:
    assert chance_at_least(100, 20, 100) == pytest.approx(0.5)
    assert chance_at_least(140, 20, 100) == pytest.approx(0.977, abs=0.001)
    assert chance_at_least(60, 20, 100) == pytest.approx(0.023, abs=0.001)


# --- closing and re-closing on explicit hands -------------------------------------------------

WEAK = "7C 8C 7D 8D 8S 9S QC 7S"


def table_with(seat: int, hand: str, bidder_hand: str | None = None) -> RoundState:
    """Deal ``hand`` to ``seat``, ``bidder_hand`` to seat 1, the rest to the others; dealer 0."""
    fixed = {seat: list(parse_cards(hand))}
    if bidder_hand is not None:
        fixed[1] = list(parse_cards(bidder_hand))
    taken = {card for cards in fixed.values() for card in cards}
    rest = [card for card in DECK if card not in taken]
    hands = []
    for s in range(4):
        if s in fixed:
            hands.append(fixed[s])
        else:
            hands.append(rest[:8])
            rest = rest[8:]
    return RoundState.new(dealer=0, hands=hands)


def strong_action(state: RoundState) -> object:
    seat = state.to_act
    assert seat is not None
    return choose_action(state.observation(seat), level="strong", rng=random.Random(0))


def test_a_defender_strong_in_their_trumps_closes() -> None:
    state = table_with(2, "JH 9H AH TH AC AS AD 7C").apply(1, Bid(100, Suit.HEARTS))
    assert strong_action(state) == Close()


def test_a_defender_without_their_trumps_does_not_close() -> None:
    state = table_with(2, WEAK).apply(1, Bid(100, Suit.HEARTS))
    assert strong_action(state) != Close()


def test_the_partner_of_the_bidder_recloses_with_the_top_trumps() -> None:
    state = table_with(3, "JH 9H AH TH KH QH AC AS", bidder_hand="7H 8H AD TD KD KS QD JD")
    state = state.apply(1, Bid(100, Suit.HEARTS)).apply(2, Close())
    assert strong_action(state) == Reclose()


def test_the_partner_of_the_bidder_does_not_reclose_with_a_weak_hand() -> None:
    state = table_with(3, WEAK).apply(1, Bid(100, Suit.HEARTS)).apply(2, Close())
    assert strong_action(state) == Pass()


def test_the_bidder_recloses_only_with_a_hand_well_above_the_bid() -> None:
    strong = table_with(1, "JH 9H AH TH KH QH AC AS")
    state = strong.apply(1, Bid(100, Suit.HEARTS)).apply(2, Close()).apply(3, Pass())
    assert strong_action(state.apply(0, Pass())) == Reclose()
    marginal = table_with(1, "JH 9H 7H 8H AC 7D 8D 7S")
    state = marginal.apply(1, Bid(100, Suit.HEARTS)).apply(2, Close()).apply(3, Pass())
    assert strong_action(state.apply(0, Pass())) == Pass()


def policy_action(state: RoundState, **thresholds: float) -> object:
    seat = state.to_act
    assert seat is not None
    return auction_action(state.observation(seat), AuctionPolicy(**thresholds))


def test_the_close_threshold_decides_the_close() -> None:
    state = table_with(2, "JH 9H AH TH AC AS AD 7C").apply(1, Bid(100, Suit.HEARTS))
    assert policy_action(state) == Close()
    assert policy_action(state, close_chance=0.0) != Close()
    weak = table_with(2, WEAK).apply(1, Bid(100, Suit.HEARTS))
    assert policy_action(weak, close_chance=1.0) == Close()


def test_the_reclose_threshold_and_the_closer_strength_decide_the_reclose() -> None:
    state = table_with(3, "JH 9H AH TH KH QH AC AS", bidder_hand="7H 8H AD TD KD KS QD JD")
    state = state.apply(1, Bid(100, Suit.HEARTS)).apply(2, Close())
    assert policy_action(state) == Reclose()
    assert policy_action(state, reclose_chance=1.0) == Pass()
    assert policy_action(state, closer_strength=200) == Pass()


def test_the_bid_offset_moves_the_bid_by_tens() -> None:
    state = table_with(1, "JH 9H AH TH AC 7D 8D 7S")
    plain = policy_action(state, bid_offset=0)
    bolder = policy_action(state, bid_offset=20)
    assert isinstance(plain, Bid)
    assert isinstance(bolder, Bid)
    assert bolder.value == plain.value + 20
    assert bolder.trump == plain.trump


def test_the_partner_slack_decides_how_far_the_partners_suit_is_raised() -> None:
    state = table_with(3, "9H 7H AC 8C 7D 8D 7S 8S")
    state = state.apply(1, Bid(100, Suit.HEARTS)).apply(2, Bid(110, Suit.SPADES))
    assert policy_action(state, partner_slack=-15) == Pass()
    assert policy_action(state, partner_slack=45) == Bid(120, Suit.HEARTS)


def test_the_opponent_slack_decides_the_close() -> None:
    state = table_with(2, "JH 9H AH TH AC AS AD 7C").apply(1, Bid(100, Suit.HEARTS))
    assert policy_action(state, opponent_slack=5) == Close()
    assert policy_action(state, opponent_slack=200) != Close()


def test_bidding_decisions_are_cheap() -> None:
    warm_up()
    rng = random.Random(6)
    times = []
    for _ in range(40):
        state = table_with(1, " ".join(str(c) for c in rng.sample(DECK, 8)))
        start = time.perf_counter()
        strong_action(state)
        times.append(time.perf_counter() - start)
    assert sorted(times)[len(times) // 2] < 0.05
