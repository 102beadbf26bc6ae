"""Smoke tests of the benchmark: each measurement runs and reports a rate."""

from __future__ import annotations

import random

from games.engine import bench


def test_measurements_report_positive_rates() -> None:
    rng = random.Random(1)
    assert bench.round_rate(rng, 0.01) > 0
    assert bench.playout_rate(rng, 0.01, fresh_deals=True) > 0
    assert bench.playout_rate(rng, 0.01, fresh_deals=False) > 0
    assert bench.legal_rate(rng, 0.01) > 0


def test_random_positions_are_positions_to_play() -> None:
    positions = bench.random_positions(random.Random(2), 100)
    assert len(positions) == 100
    assert all(hand and len(trick) < 4 and 0 <= trump < 4 for hand, trick, trump in positions)
