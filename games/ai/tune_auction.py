"""The strong auction's thresholds, measured: ``python -m games.ai.tune_auction``.

Each candidate changes one threshold of :class:`AuctionPolicy` and bids against the site's
policy on the same fixed-seed duplicate deals of the palaristi game, both sides playing their
cards at one level (``--cards``; the medium heuristic by default, fast enough for thousands of
deals). A deal's figure is the candidate's sheet points minus the site's, averaged over its two
plays. Where the threshold changes no decision the two plays cancel and the deal scores 0, so
the figures are sharper than an arena's of the same size.

With ``--against LEVEL`` the candidate and the site's policy each bid against that level's
auction instead (the same cards on every side), and a deal's figure is the candidate's margin
over the opponent minus the site's: how a threshold does against other bidders.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence

from . import LEVELS
from .arena import (
    Player,
    add_deal_arguments,
    confidence_interval,
    deal_seeds,
    map_deals,
    parse_deal_arguments,
    play_deal,
)
from .strong import DEFAULT_POLICY, AuctionPolicy

#: The values tried for each threshold, one threshold at a time.
CANDIDATES: dict[str, tuple[float, ...]] = {
    "close_chance": (0.1, 0.2, 0.4, 0.5),
    "reclose_chance": (0.6, 0.7, 0.9),
    "closer_strength": (0, 10, 30),
    "bid_offset": (-30, -25, -15, -10, 0),
    "partner_slack": (-5, 5, 15, 35, 45),
    "opponent_slack": (-5, 15, 25, 45),
}
CARD_LEVELS = ("medium", "strong")


def candidates(names: Sequence[str] = tuple(CANDIDATES)) -> list[AuctionPolicy]:
    """Return the site's policy with one threshold changed, for each value tried."""
    return [
        dataclasses.replace(DEFAULT_POLICY, **{name: value})
        for name in names
        for value in CANDIDATES[name]
    ]


def run_tuning(
    policies: Sequence[AuctionPolicy],
    deals: int,
    seed: int,
    cards: str,
    budget: float | None,
    workers: int,
    against: str | None = None,
) -> list[list[float]]:
    """Return each policy's margin over the site's policy on each of the same deals.

    Without ``against`` each policy bids against the site's; with it, each policy and the
    site's bid against the ``against`` auction, and the margins over it are compared.
    """
    seeds = deal_seeds(seed, deals)
    site = Player("strong", cards)
    opponent = site if against is None else Player(against, cards)
    sides = [Player("strong", cards, policy) for policy in policies]
    if against is not None:
        sides.append(site)
    jobs = [(side, opponent, s, budget) for side in sides for s in seeds]
    margins = [outcome.margin for outcome in map_deals(play_deal, jobs, workers)]
    by_side = [margins[index * deals : (index + 1) * deals] for index in range(len(sides))]
    if against is None:
        return by_side
    site_margins = by_side.pop()
    return [[m - s for m, s in zip(side, site_margins, strict=True)] for side in by_side]


def changed(policy: AuctionPolicy) -> str:
    """Name the threshold ``policy`` changes from the site's, with both values."""
    for field in dataclasses.fields(AuctionPolicy):
        value, site = getattr(policy, field.name), getattr(DEFAULT_POLICY, field.name)
        if value != site:
            return f"{field.name} {value:g} (site {site:g})"
    return "the site's policy"


def report(
    policies: Sequence[AuctionPolicy],
    margins_by_policy: Sequence[Sequence[float]],
    cards: str,
    against: str | None = None,
) -> str:
    """Write each candidate's margin over the site's policy, and how many deals it changed."""
    deals = len(margins_by_policy[0]) if margins_by_policy else 0
    opponent = "the site's policy" if against is None else f"the {against} auction"
    lines = [
        f"{deals} duplicate deals (palaristi game) against {opponent}, {cards} cards on every "
        "side; candidate's sheet points minus the site's per deal, 95% CI"
    ]
    for policy, margins in zip(policies, margins_by_policy, strict=True):
        mean, low, high = confidence_interval(margins)
        moved = sum(1 for margin in margins if margin)
        lines.append(
            f"{changed(policy):<32} {mean:+6.2f}  ({low:+.2f} .. {high:+.2f})  "
            f"{moved} deals not even"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tuning from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.tune_auction", description=__doc__)
    add_deal_arguments(parser, deals=1000)
    parser.add_argument("--cards", choices=CARD_LEVELS, default="medium", help="card play")
    parser.add_argument(
        "--only", choices=tuple(CANDIDATES), action="append", help="tune this threshold only"
    )
    parser.add_argument(
        "--against", choices=LEVELS, help="bid against this auction, not the site's policy"
    )
    args = parse_deal_arguments(parser, argv)
    start = time.perf_counter()
    policies = candidates(args.only or tuple(CANDIDATES))
    margins = run_tuning(
        policies, args.deals, args.seed, args.cards, args.budget, args.workers, args.against
    )
    print(report(policies, margins, args.cards, args.against))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
