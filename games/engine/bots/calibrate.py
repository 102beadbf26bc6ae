"""Fit the strong bot's bidding evaluator: ``python -m games.engine.bots.calibrate``.

Deals random hands, solves each open-handed for a random bidding seat and trump, and fits the
card points the bidding team takes to features of the bidder's hand by least squares. The
coefficients are written to ``bidding_coefficients.json`` next to this file.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..fast import PlayPosition, random_deal
from .evaluator import COEFFICIENTS_PATH, FEATURE_NAMES, hand_features
from .solver_jit import compile_solver, shared_solver


def simulate(deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Return the features and the solved team points of ``deals`` random (deal, bidder, trump)."""
    rng = random.Random(seed)
    solver = shared_solver()
    features, points = [], []
    for _ in range(deals):
        hands = random_deal(rng)
        dealer, bidder, trump = rng.randrange(4), rng.randrange(4), rng.randrange(4)
        team0 = solver.value(PlayPosition.start(hands, (dealer + 1) % 4, trump))
        features.append(hand_features(hands[bidder], trump))
        points.append(team0 if bidder % 2 == 0 else 162 - team0)
    return np.array(features, dtype=float), np.array(points, dtype=float)


def fit(features: np.ndarray, points: np.ndarray) -> tuple[list[float], float]:
    """Return the least-squares coefficients and the residual standard deviation."""
    coefficients, *_ = np.linalg.lstsq(features, points, rcond=None)
    residuals = points - features @ coefficients
    return [round(float(c), 3) for c in coefficients], float(residuals.std())


def main(argv: Sequence[str] | None = None) -> int:
    """Simulate, fit and write the coefficients."""
    parser = argparse.ArgumentParser(prog="python -m games.engine.bots.calibrate")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=COEFFICIENTS_PATH)
    args = parser.parse_args(argv)
    compile_solver()
    features, points = simulate(args.deals, args.seed)
    coefficients, spread = fit(features, points)
    table = {
        "features": list(FEATURE_NAMES),
        "coefficients": coefficients,
        "residual_sd": round(spread, 2),
        "deals": args.deals,
        "seed": args.seed,
    }
    args.out.write_text(json.dumps(table, indent=2) + "\n")
    print(json.dumps(table, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
