"""Measure the engine's speed on one thread: ``python -m games.engine.bench [--seconds S]``.

Three figures: random whole rounds through the public API, random playouts through the fast core,
and legal-move generations of the fast core over positions taken from random play.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable, Sequence

from games.engine import RoundState, deal, draw_cut, shuffled_deck
from games.engine.fast import (
    Card,
    Mask,
    PlayPosition,
    Suit,
    cards_of,
    legal,
    legal_mask,
    play,
    playout,
    random_deal,
)

POOL_SIZE = 1000  # deals, or positions, reused by a measurement so that setup is not timed


def measure(batch: Callable[[], int], seconds: float) -> float:
    """Return the units per second of ``batch``, which returns how many units it did."""
    batch()  # warm up: imports, caches, the interpreter's specialisation
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        done += batch()
        elapsed = time.perf_counter() - start
    return done / elapsed


def random_round(rng: random.Random) -> None:
    """Play one round through the public API, every action drawn uniformly among the legal ones."""
    dealer = rng.randrange(4)
    hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    state = RoundState.new(dealer=dealer, hands=hands)
    while state.to_act is not None:
        state = state.apply(state.to_act, rng.choice(state.legal_actions()))


def round_rate(rng: random.Random, seconds: float) -> float:
    """Return random rounds per second through the public API (a cancelled round counts)."""

    def batch() -> int:
        for _ in range(10):
            random_round(rng)
        return 10

    return measure(batch, seconds)


def playout_rate(rng: random.Random, seconds: float, *, fresh_deals: bool) -> float:
    """Return random playouts per second, dealing each one or reusing a pool of deals."""
    pool = [(random_deal(rng), rng.randrange(4), rng.randrange(4)) for _ in range(POOL_SIZE)]

    def from_pool() -> int:
        for hands, leader, trump in pool:
            playout(hands, leader, trump, rng)
        return len(pool)

    def dealing() -> int:
        for _, leader, trump in pool:
            playout(random_deal(rng), leader, trump, rng)
        return len(pool)

    return measure(dealing if fresh_deals else from_pool, seconds)


def random_positions(rng: random.Random, count: int) -> list[tuple[Mask, tuple[Card, ...], Suit]]:
    """Return ``count`` (hand to act, trick, trump) triples met in random play."""
    positions: list[tuple[Mask, tuple[Card, ...], Suit]] = []
    while len(positions) < count:
        pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
        while not pos.is_over:
            positions.append((pos.hands[pos.to_act], pos.trick, pos.trump))
            pos = play(pos, rng.choice(cards_of(legal(pos))))
    return positions[:count]


def legal_rate(rng: random.Random, seconds: float) -> float:
    """Return ``legal_mask`` calls per second over positions from random play."""
    positions = random_positions(rng, POOL_SIZE * 10)

    def batch() -> int:
        for hand, trick, trump in positions:
            legal_mask(hand, trick, trump)
        return len(positions)

    return measure(batch, seconds)


def pin_to_one_core() -> str:
    """Pin this process to one CPU where the OS allows it; return a description."""
    if not hasattr(os, "sched_setaffinity"):
        return "one thread"
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"one thread pinned to CPU {cpu}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.bench", description="Measure the engine's speed on one thread."
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random generator")
    args = parser.parse_args(argv)
    seconds: float = args.seconds
    rng = random.Random(args.seed)
    where = pin_to_one_core()
    print(
        f"Pilotta engine benchmark: {platform.python_implementation()} "
        f"{platform.python_version()}, {where}, {seconds:g} s per figure, seed {args.seed}"
    )
    figures = [
        ("random rounds, public API (auction + 32 plays + scoring)", "rounds/s", round_rate),
        (
            "random playouts, fast core (fresh deal, 8 tricks)",
            "playouts/s",
            lambda rng, seconds: playout_rate(rng, seconds, fresh_deals=True),
        ),
        (
            "  the same, playing only (deals made beforehand)",
            "playouts/s",
            lambda rng, seconds: playout_rate(rng, seconds, fresh_deals=False),
        ),
        ("legal-move generations, fast core legal_mask", "calls/s", legal_rate),
    ]
    for name, unit, rate in figures:
        print(f"{name:<60} {rate(rng, seconds):>12,.0f} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
