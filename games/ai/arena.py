"""Duplicate matches between two bot levels: ``python -m games.ai.arena --a X --b Y``.

Each deal is played twice with the same cards and dealer, bot A holding team 0's seats the first
time and team 1's the second. A deal is one round (auction and play) scored on the score sheet; the
figure of a deal is A's sheet points minus B's, averaged over its two plays.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.ai import LEVELS, choose_action, warm_up
from games.engine import Bid, Close, Pass, Reclose, RoundState, deal, draw_cut, shuffled_deck

AUCTION_TYPES = (Bid, Pass, Close, Reclose)


@dataclass
class Timings:
    """Seconds per decision of one bot, auction and play apart."""

    bidding: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)

    def extend(self, other: Timings) -> None:
        """Add another batch of timings."""
        self.bidding.extend(other.bidding)
        self.play.extend(other.play)


@dataclass
class DealOutcome:
    """One duplicate deal: A's sheet margin in each play, and the timings of both bots."""

    margins: tuple[int, int]
    timings: dict[str, Timings]

    @property
    def margin(self) -> float:
        """Return A's sheet points minus B's, averaged over the two plays."""
        return (self.margins[0] + self.margins[1]) / 2


def play_round(
    state: RoundState,
    levels: Sequence[str],
    rng: random.Random,
    budget: float | None,
    timings: Sequence[Timings],
) -> RoundState:
    """Play a round to its end, ``levels[seat % 2]`` choosing for each seat."""
    while state.to_act is not None:
        seat = state.to_act
        observation = state.observation(seat)
        start = time.perf_counter()
        action = choose_action(observation, level=levels[seat % 2], rng=rng, budget=budget)
        elapsed = time.perf_counter() - start
        record = timings[seat % 2]
        (record.bidding if isinstance(action, AUCTION_TYPES) else record.play).append(elapsed)
        state = state.apply(seat, action)
    return state


def sheet_margin(state: RoundState, team: int) -> int:
    """Return ``team``'s score-sheet points minus the other team's (0 for a cancelled round)."""
    result = state.result
    if result is None:
        return 0
    return result.score[team] - result.score[1 - team]


def play_deal(job: tuple[str, str, int, float | None]) -> DealOutcome:
    """Play one deal twice, teams swapped; the seed fixes cards, dealer and the bots' dice."""
    level_a, level_b, seed, budget = job
    deck_rng = random.Random(seed)
    dealer = deck_rng.randrange(4)
    hands = deal(shuffled_deck(deck_rng), dealer=dealer, cut=draw_cut(deck_rng))
    timings = {"a": Timings(), "b": Timings()}
    margins = []
    for a_team in (0, 1):
        levels = [level_a, level_b] if a_team == 0 else [level_b, level_a]
        by_team = [timings["a"], timings["b"]] if a_team == 0 else [timings["b"], timings["a"]]
        state = RoundState.new(dealer=dealer, hands=hands)
        state = play_round(state, levels, random.Random(seed * 2 + a_team), budget, by_team)
        margins.append(sheet_margin(state, a_team))
    return DealOutcome((margins[0], margins[1]), timings)


def _init_worker() -> None:
    warm_up()


def run(
    level_a: str, level_b: str, deals: int, seed: int, budget: float | None, workers: int
) -> list[DealOutcome]:
    """Play ``deals`` duplicate deals, in ``workers`` processes when more than one."""
    jobs = [(level_a, level_b, seed * 1_000_003 + i, budget) for i in range(deals)]
    if workers <= 1:
        warm_up()
        return [play_deal(job) for job in jobs]
    with ProcessPoolExecutor(workers, initializer=_init_worker) as pool:
        return list(pool.map(play_deal, jobs, chunksize=max(1, deals // (workers * 8))))


def confidence_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Return the mean and its 95% normal-approximation interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def percentiles(times: Sequence[float]) -> str:
    """Write p50, p95 and max of decision times in milliseconds."""
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    top, count = ordered[-1], len(ordered)
    return f"p50 {p50 * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms, max {top * 1e3:.1f} ms (n={count})"


def report(
    level_a: str, level_b: str, budget: float | None, outcomes: Sequence[DealOutcome]
) -> str:
    """Write the arena's figures."""
    mean, low, high = confidence_interval([o.margin for o in outcomes])
    timings = {"a": Timings(), "b": Timings()}
    for outcome in outcomes:
        for key in timings:
            timings[key].extend(outcome.timings[key])
    lines = [
        f"A = {level_a}, B = {level_b}, {len(outcomes)} duplicate deals, "
        f"budget per move: {'default' if budget is None else f'{budget:g} s'}",
        f"A's sheet points minus B's per deal: {mean:+.2f}  (95% CI {low:+.2f} .. {high:+.2f})",
    ]
    for key, level in (("a", level_a), ("b", level_b)):
        lines.append(f"{key.upper()} {level:>7} bidding: {percentiles(timings[key].bidding)}")
        lines.append(f"{key.upper()} {level:>7} play:    {percentiles(timings[key].play)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.arena", description=__doc__)
    parser.add_argument("--a", required=True, choices=LEVELS, help="the bot measured")
    parser.add_argument("--b", required=True, choices=LEVELS, help="its opponent")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes = run(args.a, args.b, args.deals, args.seed, args.budget, args.workers)
    print(report(args.a, args.b, args.budget, outcomes))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
