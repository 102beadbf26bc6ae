"""Time the open-hand solver from the first lead: ``python -m games.ai.bench_solver``."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from games.ai.solver_jit import NODES, compile_solver, shared_solver
from games.engine.bench import pin_to_one_core
from games.engine.fast import PlayPosition, random_deal


def solve_times(deals: int, seed: int) -> tuple[list[float], list[int]]:
    """Return the seconds the compiled solver takes on each of ``deals`` random full deals, and
    the nodes it searches on each (the same on every machine, where times are not)."""
    rng = random.Random(seed)
    solver = shared_solver()
    times, nodes = [], []
    for _ in range(deals):
        pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
        searched = int(solver.state[NODES])
        start = time.perf_counter()
        solver.value(pos)
        times.append(time.perf_counter() - start)
        nodes.append(int(solver.state[NODES]) - searched)
    return times, nodes


def main(argv: Sequence[str] | None = None) -> int:
    """Print the median, p95 and max solve time over random deals."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.bench_solver", description=__doc__)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    where = pin_to_one_core()
    compile_solver()
    times, nodes = solve_times(args.deals, args.seed)
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"open-hand solver, full deal from the first lead, {args.deals} deals, {where}")
    print(
        f"median {statistics.median(times) * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms, "
        f"max {times[-1] * 1e3:.1f} ms"
    )
    print(f"nodes searched: median {statistics.median(nodes):,.0f}, total {sum(nodes):,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
