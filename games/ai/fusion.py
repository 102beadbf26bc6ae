"""What choosing the next lead deal by deal adds to a lead's value: ``python -m games.ai.fusion``.

The sampled search values a lead as if, in every sampled deal, the seat's later cards were
chosen knowing that deal (strategy fusion). Reasoning postponed a trick (``postponed``) chooses
the seat's next lead, after a trick it wins, once for all the deals in which that trick went the
same way. The strong bot plays the medium bot on the arena's duplicate deals with its leads
postponed; at each lead measured, the figures are the sampled search's best lead's margin per
sampled deal minus its postponed margin (what fusion at the next lead added to its value), and
whether the postponed choice differs. Small figures say the leads' loss to open-hand play comes
from the hidden cards themselves, not from choosing the next lead with them in view.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from . import strong
from .arena import (
    add_deal_arguments,
    confidence_interval,
    deal_seeds,
    map_deals,
    parse_deal_arguments,
    play_deal,
)
from .compare import applied
from .postponed import PostponedLeads


@dataclass(frozen=True, slots=True)
class LeadFusion:
    """One lead measured: its sampled deals, the best lead's fusion and a changed choice."""

    deals: int
    fusion: float  # sheet points per sampled deal
    changed: bool
    deals_per_trick: float | None  # where the seat leads again: sampled deals per trick seen


def lead_fusion(postponed: PostponedLeads, best: int, chosen: int | None) -> LeadFusion | None:
    """Return the figures of one lead, None when no sampled deal was measured in time."""
    deals = postponed.deals
    if deals == 0:
        return None
    outcomes = postponed.outcomes[best][:deals]
    sampled = sum(outcome.margin for outcome in outcomes)
    again = [outcome.trick for outcome in outcomes if outcome.next_leads is not None]
    return LeadFusion(
        deals=deals,
        fusion=(sampled - postponed.value(best)) / deals,
        changed=chosen is not None and chosen != best,
        deals_per_trick=len(again) / len(set(again)) if again else None,
    )


def deal_fusion(job: tuple[int, float | None, bool, bool]) -> list[LeadFusion]:
    """Play a duplicate deal with postponed leads and return the figures of each lead."""
    seed, budget, coarse, defence = job
    found: list[LeadFusion] = []

    def watch(postponed: PostponedLeads, best: int, chosen: int | None) -> None:
        figures = lead_fusion(postponed, best, chosen)
        if figures is not None:
            found.append(figures)

    settings = {"POSTPONED_LEADS": True, "POSTPONED_COARSE": coarse, "POSTPONED_DEFENCE": defence}
    with applied(settings):
        strong.POSTPONED_WATCH = watch
        try:
            play_deal(("strong", "medium", seed, budget))
        finally:
            strong.POSTPONED_WATCH = None
    return found


def report(leads: Sequence[LeadFusion], deals: int, seed: int, coarse: bool, defence: bool) -> str:
    """Write the figures over every lead measured."""
    sides = "the contract's side and the defence" if defence else "the contract's side"
    told = "their counting cards" if coarse else "every card"
    lines = [
        f"{deals} duplicate deals, seed {seed}, the strong bot against medium, leads of {sides} "
        f"postponed a trick, tricks told apart by {told}"
    ]
    if not leads:
        return "\n".join([*lines, "no lead measured"])
    changed = sum(lead.changed for lead in leads)
    mean, low, high = confidence_interval([lead.fusion for lead in leads])
    above = sum(lead.fusion > 0 for lead in leads)
    largest = max(lead.fusion for lead in leads)
    measured = statistics.median(lead.deals for lead in leads)
    per_trick = [lead.deals_per_trick for lead in leads if lead.deals_per_trick is not None]
    lines += [
        f"leads measured: {len(leads)}, the postponed choice differs at {changed} "
        f"({100 * changed / len(leads):.1f}%)",
        f"fusion at the next lead, the sampled best lead's sheet points per sampled deal: "
        f"{mean:+.3f} (95% CI {low:+.3f} .. {high:+.3f}), max {largest:+.2f}, "
        f"above zero at {above}",
        f"sampled deals measured per lead: median {measured:.0f}",
    ]
    if per_trick:
        lines.append(
            f"where the seat leads again, sampled deals per trick seen: "
            f"mean {statistics.fmean(per_trick):.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measure from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.fusion", description=__doc__)
    add_deal_arguments(parser, deals=50)
    parser.add_argument("--coarse", action="store_true", help="tell tricks by counting cards")
    parser.add_argument("--defence", action="store_true", help="postpone the defence's leads too")
    args = parse_deal_arguments(parser, argv)
    start = time.perf_counter()
    jobs = [(s, args.budget, args.coarse, args.defence) for s in deal_seeds(args.seed, args.deals)]
    by_deal = map_deals(deal_fusion, jobs, args.workers)
    leads = [lead for deal in by_deal for lead in deal]
    print(report(leads, args.deals, args.seed, args.coarse, args.defence))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
