"""Fit the strong bot's bidding model: ``python -m games.ai.calibrate``.

Deals random hands with a random dealer and trump and solves each deal open-handed. Every seat
then gives one row: the features of its hand and the card points its team takes. Three linear
models are fitted by least squares under sign constraints (a card never lowers its holder's
worth):

- ``bidder``: a team's points from one hand of that team, the partner unknown;
- ``defence``: how a defender's hand moves the bidders' points away from the bidder's estimate;
- ``partner``: how the bidder's partner's hand moves them.

The coefficients, the residual spreads and the command that produced them are written to
``bidding_coefficients.json`` next to this file.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from games.engine.fast import PlayPosition, random_deal

from .evaluator import COEFFICIENTS_PATH, FEATURE_NAMES, hand_features
from .solver_jit import compile_solver, shared_solver

SWEEPS = 3000


def simulate(deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Return each seat's features ``(deals, 4, F)`` and its team's solved points ``(deals, 4)``."""
    rng = random.Random(seed)
    solver = shared_solver()
    features = np.zeros((deals, 4, len(FEATURE_NAMES)))
    points = np.zeros((deals, 4))
    for index in range(deals):
        hands = random_deal(rng)
        dealer, trump = rng.randrange(4), rng.randrange(4)
        leader = (dealer + 1) % 4
        team0 = solver.value(PlayPosition.start(hands, leader, trump))
        for seat in range(4):
            leads = seat % 2 == leader % 2
            features[index, seat] = hand_features(hands[seat], trump, leads)
            points[index, seat] = team0 if seat % 2 == 0 else 162 - team0
    return features, points


def signed_least_squares(x: np.ndarray, y: np.ndarray, signs: Sequence[int]) -> np.ndarray:
    """Return the least-squares ``w`` of ``x @ w ~ y`` with ``sign * w >= 0`` where sign is set.

    Cyclic coordinate descent on the normal equations: each step solves one coefficient exactly
    and clips it to its allowed side, which converges for this convex problem.
    """
    gram = x.T @ x
    target = x.T @ y
    weights = np.zeros(x.shape[1])
    for _ in range(SWEEPS):
        for i in range(x.shape[1]):
            rest = target[i] - gram[i] @ weights + gram[i, i] * weights[i]
            value = rest / gram[i, i]
            if signs[i] * value < 0:
                value = 0.0
            weights[i] = value
    return weights


def fit(x: np.ndarray, y: np.ndarray, signs: Sequence[int]) -> tuple[list[float], float]:
    """Return the rounded constrained coefficients and the residual standard deviation."""
    weights = signed_least_squares(x, y, signs)
    residuals = y - x @ weights
    return [round(float(w), 3) for w in weights], round(float(residuals.std()), 2)


def fit_models(features: np.ndarray, points: np.ndarray) -> dict[str, object]:
    """Fit the three models on simulated deals."""
    count = len(FEATURE_NAMES)
    positive = [0] + [1] * (count - 1)  # the intercept is free
    negative = [0] + [-1] * (count - 1)
    bidder, bidder_sd = fit(features.reshape(-1, count), points.reshape(-1), positive)
    estimate = features @ np.array(bidder)  # (deals, 4): each seat's estimate as bidder
    defence_x, partner_x, defence_y, partner_y = [], [], [], []
    for seat in range(4):
        surprise = points[:, seat] - estimate[:, seat]
        for other in ((seat + 1) % 4, (seat + 3) % 4):
            defence_x.append(features[:, other])
            defence_y.append(surprise)
        partner_x.append(features[:, (seat + 2) % 4])
        partner_y.append(surprise)
    defence, defence_sd = fit(np.concatenate(defence_x), np.concatenate(defence_y), negative)
    partner, partner_sd = fit(np.concatenate(partner_x), np.concatenate(partner_y), positive)
    return {
        "coefficients": bidder,
        "residual_sd": bidder_sd,
        "defence": defence,
        "defence_sd": defence_sd,
        "partner": partner,
        "partner_sd": partner_sd,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Simulate, fit and write the coefficients."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.calibrate")
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=COEFFICIENTS_PATH)
    args = parser.parse_args(argv)
    compile_solver()
    start = time.perf_counter()
    features, points = simulate(args.deals, args.seed)
    seconds = time.perf_counter() - start
    table: dict[str, object] = {
        "command": f"python -m games.ai.calibrate --deals {args.deals} --seed {args.seed}",
        "features": list(FEATURE_NAMES),
        **fit_models(features, points),
        "deals": args.deals,
        "seed": args.seed,
    }
    args.out.write_text(json.dumps(table, indent=2) + "\n")
    print(json.dumps(table, indent=2))
    print(f"solved {args.deals} deals in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
