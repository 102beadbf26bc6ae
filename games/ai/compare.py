"""Settings of the strong bot measured against each other: ``python -m games.ai.compare``.

Each variant is the strong bot with some of its settings changed (``VARIANTS``). Every variant
named plays against the same opponent (``--against``, the medium bot by default) on the same
fixed-seed duplicate deals of the palaristi game, as the arena plays them, or of the classic game
with ``--players N``. A variant's figure is the arena's: its sheet points (the classic game's
points) minus the opponent's per deal. The paired figure of a variant is
its margin minus the first variant's, deal by deal. The two bots bid alike and are dealt the
same cards, so where a setting changes no decision the deal scores 0: the paired figure is far
sharper than the difference of two arena figures of the same size.

Each variant runs in processes of its own (``--workers`` per variant), all of them at once: the
strong bot thinks for a time budget, so variants that run side by side share the machine
alike, and neither is measured on a quieter machine than the other.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager

from games.engine.ruleset import CLASSIC_PLAYERS

from . import LEVELS, strong, warm_up
from .arena import (
    DealOutcome,
    Timings,
    add_deal_arguments,
    confidence_interval,
    deal_seeds,
    parse_deal_arguments,
    percentiles,
    play_classic_deal,
    play_deal,
)

Settings = Mapping[str, bool | int | float | Mapping[int, int]]


def looseness(points: int) -> Mapping[int, int]:
    """Return a taking looseness of ``points`` at every table size."""
    return dict.fromkeys(CLASSIC_PLAYERS, points)


#: The strong bot's settings by variant: the site's, and each lever measured against it.
VARIANTS: dict[str, Settings] = {
    "site": {},
    "play-reading": {"PLAY_READING": True},
    "no-play-reading": {"PLAY_READING": False},
    "auction-reading": {"AUCTION_READING": True},
    "silence-reading": {"SILENCE_READING": True},
    "no-silence-reading": {"SILENCE_READING": False},
    "play-and-silence-reading": {"PLAY_READING": True, "SILENCE_READING": True},
    "partner-reading": {"PARTNER_READING": True},
    "partner-reading-firm": {"PARTNER_READING": True, "PARTNER_MISMATCH": 0.2},
    "auction-window": {
        "AUCTION_READING": True,
        "BID_CEILING": 30,
        "PASS_MARGIN": 20,
        "PASS_OVER_MARGIN": 30,
        "AUCTION_SPREAD": 5.0,
    },
    "defence-auction-reading": {"DEFENCE_AUCTION_READING": True},
    "discard-signals": {"DISCARD_SIGNALS": True},
    "plain-sampling": {"PLAY_READING": False, "SILENCE_READING": False, "AUCTION_READING": False},
    "take-as-medium": {"TAKE_LOOSENESS": looseness(0)},
    "take-looser": {"TAKE_LOOSENESS": looseness(8)},
    "take-loosest": {"TAKE_LOOSENESS": looseness(16)},
    "take-tighter": {"TAKE_LOOSENESS": looseness(-8)},
    "postponed-leads": {"POSTPONED_LEADS": True},
    "postponed-all-leads-coarse": {
        "POSTPONED_LEADS": True,
        "POSTPONED_COARSE": True,
        "POSTPONED_DEFENCE": True,
    },
}


@contextmanager
def applied(settings: Settings) -> Iterator[None]:
    """Change the strong bot's settings for the duration of the block."""
    unknown = [name for name in settings if not hasattr(strong, name)]
    if unknown:
        raise ValueError(f"the strong bot has no setting {unknown[0]}")
    before = {name: getattr(strong, name) for name in settings}
    for name, value in settings.items():
        setattr(strong, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(strong, name, value)


def init_variant_worker(settings: Settings, max_samples: int) -> None:
    """Start a worker process that plays one variant."""
    # A worker keeps the variant's settings for its whole life: it plays that variant only.
    strong.MAX_SAMPLES = max_samples
    for name, value in settings.items():
        setattr(strong, name, value)
    warm_up()


def run_variants(
    names: Sequence[str],
    against: str,
    deals: int,
    seed: int,
    budget: float | None,
    workers: int,
    players: int | None = None,
) -> dict[str, list[DealOutcome]]:
    """Play each variant against ``against`` on the same deals, the outcomes in deal order.

    The deals are the palaristi game's, or with ``players`` the classic game's. With
    ``workers`` of 0 the variants take turns in this process; otherwise each variant has
    ``workers`` processes of its own, every variant's at once.
    """
    jobs = [("strong", against, s, budget, players) for s in deal_seeds(seed, deals)]
    if workers == 0:
        warm_up()
        played = {}
        for name in names:
            with applied(VARIANTS[name]):
                played[name] = [play_job(job) for job in jobs]
        return played
    context = multiprocessing.get_context("forkserver")
    pools = {
        name: ProcessPoolExecutor(
            workers,
            mp_context=context,
            initializer=init_variant_worker,
            initargs=(VARIANTS[name], strong.MAX_SAMPLES),
        )
        for name in names
    }
    try:
        futures: dict[str, list[Future[DealOutcome]]] = {
            name: [pool.submit(play_job, job) for job in jobs] for name, pool in pools.items()
        }
        return {name: [future.result() for future in futures[name]] for name in names}
    finally:
        for pool in pools.values():
            pool.shutdown(cancel_futures=True)


def play_job(job: tuple[str, str, int, float | None, int | None]) -> DealOutcome:
    """Play one deal of the palaristi game, or of the classic game of ``players``."""
    level_a, level_b, seed, budget, players = job
    if players is None:
        return play_deal((level_a, level_b, seed, budget))
    return play_classic_deal((level_a, level_b, seed, budget, players))


def _figure(values: Sequence[float]) -> str:
    mean, low, high = confidence_interval(values)
    return f"{mean:+.2f}  (95% CI {low:+.2f} .. {high:+.2f})"


def report(
    played: Mapping[str, Sequence[DealOutcome]],
    against: str,
    seed: int,
    budget: float | None,
    players: int | None = None,
) -> str:
    """Write each variant's figure, and each later one's paired figure over the first."""
    names = list(played)
    first = [outcome.margin for outcome in played[names[0]]]
    deals = len(first)
    game = "palaristi game, 4 players" if players is None else f"classic game, {players} players"
    lines = [
        f"{deals} duplicate deals ({game}), seed {seed}, the strong bot's "
        f"variants against {against}, budget per move: "
        f"{'default' if budget is None else f'{budget:g} s'}",
        f"{'sheet points' if players is None else 'points'} per deal, "
        "95% CI by the normal approximation",
    ]
    for name in names:
        margins = [outcome.margin for outcome in played[name]]
        lines.append(f"{name:<18} vs {against}: {_figure(margins)}")
        if name != names[0]:
            paired = [m - f for m, f in zip(margins, first, strict=True)]
            moved = sum(1 for value in paired if value)
            lines.append(
                f"{name:<18} - {names[0]}: {_figure(paired)}, {moved} of {deals} deals differ"
            )
    for name in names:
        timings = Timings()
        for outcome in played[name]:
            timings.extend(outcome.timings["a"])
        lines.append(f"{name:<18} play: {percentiles(timings.play)}")
    return "\n".join(lines)


def add_variant_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--variant``, named once per variant, the first being the baseline."""
    parser.add_argument(
        "--variant",
        choices=tuple(VARIANTS),
        action="append",
        help=f"a variant to {what}; the first is the baseline",
    )


def variant_names(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """Return the variants named, refusing one named twice."""
    names: list[str] = args.variant or []
    if len(set(names)) != len(names):
        parser.error("each variant is named once")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.compare", description=__doc__)
    add_deal_arguments(parser, deals=1000)
    add_variant_argument(parser, "play (default: site, plain-sampling)")
    parser.add_argument("--against", choices=LEVELS, default="medium", help="the opponent")
    parser.add_argument(
        "--players", type=int, choices=CLASSIC_PLAYERS, help="play the classic game at this table"
    )
    args = parse_deal_arguments(parser, argv)
    names = variant_names(parser, args) or ["site", "plain-sampling"]
    if args.workers < 0:
        parser.error("--workers must be 0 (in this process) or more")
    start = time.perf_counter()
    played = run_variants(
        names, args.against, args.deals, args.seed, args.budget, args.workers, args.players
    )
    print(report(played, args.against, args.seed, args.budget, args.players))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s) per variant")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
