"""How much of the reachable card play the strong bot gets: ``python -m games.ai.ladder``.

Duplicate matches of the arena are played on the same deals (the palaristi game, four
players, the deals fixed by ``--seed``), each a deal's figure being the first side's sheet
points minus the second's, averaged over the deal's two plays:

* S - H: the strong bot's card play against the medium heuristic's, both bidding with the
  strong auction, so that only the card play differs;
* open - H: the open-hand level's card play (the strong bot's solver and objective on the real
  deal: the ceiling of this kind of card play) against the medium heuristic's, both bidding
  with the strong auction;
* the auction's worth: the strong auction against the medium auction, both playing the strong
  bot's cards;
* leads - H, played only when asked for (``--match leads``): the strong bot with open-hand
  leads for the contract's side (``OPEN_LEADS``) against the medium heuristic's cards. With
  ``strong`` and ``open`` it gives the gap that perfect leads would close, and its margin over
  S - H deal by deal. On 600 deals of seed 1, open-hand leads closed 75% of the gap (95% CI
  70% .. 81%) where the strong bot closed 54% (48% .. 60%): leads - S was +2.46 sheet points
  per deal (+1.73 .. +3.20), some half of what the strong bot leaves to open-hand play;
* defence - H, played only when asked for (``--match defence``): the strong bot with
  open-hand cards in defence (``OPEN_DEFENCE``), the same way. On the first 300 of those deals,
  defence - S was +2.24 (+1.21 .. +3.27) and the gap closed 69% (62% .. 76%) where the strong
  bot closed 50% (41% .. 59%): the defence holds a share as large as the leads, though the
  double-dummy regret per decision (``regret``) finds three times less there;
* partner - H, played only when asked for (``--match partner``): the strong bot seeing its
  partner's hand (``OPEN_PARTNER``), sampling the opponents' hands only, the same way: the most
  that signals between partners, or a reading of the partner's cards, could win. On the first
  300 deals of seed 1, partner - S was +2.97 (+1.77 .. +4.17) and partner - H +9.27
  (+8.04 .. +10.50), where open - H was +11.90 on the same deals: the partner's hand alone is
  worth more than the open-hand leads or the open-hand defence, some half of what the strong
  bot leaves to open-hand play.

The gap closed is (S - H) / (open - H), the ratio of the two mean margins. Its interval is a
percentile bootstrap over deals: the deals are drawn again with replacement, each drawn deal
bringing both of its margins (which are paired, being played on the same cards), and the
ratio is recomputed for each draw.

``--match`` plays some of the matches only (the gap closed needs both ``strong`` and ``open``),
for a quicker look at one figure.

The same seed deals the same cards and throws the same dice. The strong bot thinks for a time
budget, so how many deals it samples depends on the machine's speed; its figures repeat
exactly only where the sample cap is reached within the budget.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .arena import (
    DealOutcome,
    Player,
    Timings,
    add_deal_arguments,
    confidence_interval,
    deal_seeds,
    map_deals,
    parse_deal_arguments,
    percentiles,
    play_deal,
)
from .open_hand import OPEN, OPEN_DEFENCE, OPEN_LEADS, OPEN_PARTNER

#: The medium heuristic's card play, the strong auction.
HEURISTIC = Player("strong", "medium")
#: The strong bot.
STRONG = Player("strong", "strong")
#: The open-hand card play, the strong auction.
OPEN_HAND = Player("strong", OPEN)
#: The strong bot's card play with open-hand leads for the contract's side, the strong auction.
OPEN_LEADS_HAND = Player("strong", OPEN_LEADS)
#: The strong bot's card play with open-hand cards in defence, the strong auction.
OPEN_DEFENCE_HAND = Player("strong", OPEN_DEFENCE)
#: The strong bot's card play seeing its partner's hand, the strong auction.
OPEN_PARTNER_HAND = Player("strong", OPEN_PARTNER)
#: The strong bot's card play with the medium auction.
MEDIUM_AUCTION = Player("medium", "strong")

#: The matches, first side against second, by name.
MATCHES: dict[str, tuple[Player, Player]] = {
    "strong": (STRONG, HEURISTIC),
    "open": (OPEN_HAND, HEURISTIC),
    "auction": (STRONG, MEDIUM_AUCTION),
    "leads": (OPEN_LEADS_HAND, HEURISTIC),
    "defence": (OPEN_DEFENCE_HAND, HEURISTIC),
    "partner": (OPEN_PARTNER_HAND, HEURISTIC),
}
#: The matches played when none is asked for.
DEFAULT_MATCHES = ("strong", "open", "auction")
RESAMPLES = 2000


@dataclass(frozen=True)
class Ladder:
    """The outcomes of each match, deal by deal in the same order of deals."""

    deals: int
    seed: int
    budget: float | None
    outcomes: dict[str, list[DealOutcome]]

    def margins(self, match: str) -> list[float]:
        """Return the first side's margin on each deal of ``match``."""
        return [outcome.margin for outcome in self.outcomes[match]]

    def timings(self, match: str, side: str) -> Timings:
        """Return the decision times of one side ("a" or "b") over a match."""
        total = Timings()
        for outcome in self.outcomes[match]:
            total.extend(outcome.timings[side])
        return total


def run_ladder(
    deals: int,
    seed: int,
    budget: float | None,
    workers: int,
    matches: Sequence[str] = DEFAULT_MATCHES,
) -> Ladder:
    """Play ``matches`` (``DEFAULT_MATCHES`` unless told) on the same ``deals`` deals."""
    names = [name for name in MATCHES if name in matches]
    seeds = deal_seeds(seed, deals)
    # Deal by deal, the matches in turn, one job at a time: the matches take unequal times
    # (the auction's has the strong bot on both sides), and none is left to the end.
    jobs = [(*MATCHES[name], s, budget) for s in seeds for name in names]
    played = map_deals(play_deal, jobs, workers, chunksize=1)
    outcomes = {name: played[index :: len(names)] for index, name in enumerate(names)}
    return Ladder(deals, seed, budget, outcomes)


def gap_closed(
    part: Sequence[float], whole: Sequence[float], seed: int, resamples: int = RESAMPLES
) -> tuple[float, float, float]:
    """Return mean(part) / mean(whole) and its 95% percentile-bootstrap interval over deals.

    ``part[i]`` and ``whole[i]`` are the same deal's margins and are drawn together. A draw
    whose ``whole`` sums to zero has no ratio and is left out.
    """
    if len(part) != len(whole) or not part:
        raise ValueError("the gap needs the same deals, at least one, in both matches")
    numerator = np.asarray(part, dtype=float)
    denominator = np.asarray(whole, dtype=float)
    total = denominator.sum()
    ratio = float(numerator.sum() / total) if total else float("nan")
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(part), size=(resamples, len(part)))
    tops = numerator[picks].sum(axis=1)
    bottoms = denominator[picks].sum(axis=1)
    kept = bottoms != 0
    if not kept.any():
        return ratio, float("nan"), float("nan")
    ratios = tops[kept] / bottoms[kept]
    low, high = np.percentile(ratios, [2.5, 97.5])
    return ratio, float(low), float(high)


def _figure(label: str, values: Sequence[float]) -> str:
    mean, low, high = confidence_interval(values)
    return f"{label}: {mean:+.2f}  (95% CI {low:+.2f} .. {high:+.2f})"


def _part_figures(ladder: Ladder, part: str, label: str) -> list[str]:
    """Write a part of the play made open-handed: against H, against S, and its gap closed."""
    played = ladder.outcomes
    lines = [_figure(f"{part} - H ({label} vs medium cards)", ladder.margins(part))]
    if "strong" in played:
        margins = zip(ladder.margins(part), ladder.margins("strong"), strict=True)
        lines.append(_figure(f"{part} - S (paired, deal by deal)", [a - b for a, b in margins]))
    if "open" in played:
        ratio, low, high = gap_closed(ladder.margins(part), ladder.margins("open"), ladder.seed)
        lines.append(f"gap closed with {label}: {ratio:.0%}  (95% CI {low:.0%} .. {high:.0%})")
    return lines


def report(ladder: Ladder) -> str:
    """Write the figures of the matches played; the gap closed needs both S - H and open - H."""
    budget = "default" if ladder.budget is None else f"{ladder.budget:g} s"
    played = ladder.outcomes
    lines = [
        f"{ladder.deals} duplicate deals (palaristi game, 4 players), seed {ladder.seed}, "
        f"budget per move: {budget}",
        "sheet points per deal, 95% CI by the normal approximation",
    ]
    if "strong" in played:
        lines.append(
            _figure("S - H     (strong vs medium cards, strong auction)", ladder.margins("strong"))
        )
    if "open" in played:
        lines.append(
            _figure("open - H  (open-hand vs medium cards, strong auction)", ladder.margins("open"))
        )
    if "strong" in played and "open" in played:
        ratio, low, high = gap_closed(ladder.margins("strong"), ladder.margins("open"), ladder.seed)
        lines.append(
            f"gap closed (S - H) / (open - H): {ratio:.0%}  (95% CI {low:.0%} .. {high:.0%}, "
            f"percentile bootstrap over deals, {RESAMPLES} resamples)"
        )
    parts = (
        ("leads", "open-hand leads"),
        ("defence", "open-hand defence"),
        ("partner", "the partner's hand seen"),
    )
    for part, label in parts:
        if part in played:
            lines.extend(_part_figures(ladder, part, label))
    if "auction" in played:
        lines.append(
            _figure("auction   (strong vs medium auction, strong cards)", ladder.margins("auction"))
        )
    if "strong" in played:
        lines.append(f"S    play: {percentiles(ladder.timings('strong', 'a').play)}")
    if "open" in played:
        lines.append(f"open play: {percentiles(ladder.timings('open', 'a').play)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ladder from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.ladder", description=__doc__)
    add_deal_arguments(parser, deals=100)
    parser.add_argument(
        "--match", choices=tuple(MATCHES), action="append", help="play this match only"
    )
    args = parse_deal_arguments(parser, argv)
    start = time.perf_counter()
    matches = args.match or DEFAULT_MATCHES
    ladder = run_ladder(args.deals, args.seed, args.budget, args.workers, matches)
    print(report(ladder))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
