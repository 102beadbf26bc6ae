"""Where the strong bot's cards lose to open-hand play: ``python -m games.ai.regret``.

The strong bot plays the medium heuristic's cards, both bidding with the strong auction, on the
ladder's fixed-seed duplicate deals (its S - H match). At each of the strong bot's card decisions
that offer a choice, every legal card is valued on the real deal as the open-hand level values
it: the solver's points, scored as the sheet scores them. A decision's regret is the best card's
sheet margin minus the chosen card's. It is a double-dummy figure: it says where the sampled
search and the real deal part ways, not what the choice cost against the heuristic's play.

The regret is summed per round played, by trick, by the card's place in the trick (0 leads) and
by side (the contract's side or the defence), with the decisions that decide the contract (a
regret of 30 sheet points or more) counted apart. Being measured decision by decision, it shows a
lever's effect on far fewer deals than the arena's margins.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine import RoundState, Seat
from games.engine.actions import Play

from .arena import (
    add_deal_arguments,
    deal_seeds,
    map_deals,
    palaristi_deal,
    parse_deal_arguments,
)
from .ladder import HEURISTIC, STRONG
from .open_hand import open_values

#: A regret this large turns a contract made into one failed (or the reverse), or loses a capot.
DECIDING = 30


@dataclass(frozen=True, slots=True)
class Decision:
    """One card decision of the strong bot and its double-dummy regret in sheet points."""

    trick: int
    place: int
    taker: bool
    regret: int


def decision_regret(state: RoundState, seat: Seat, play: Play) -> Decision:
    """Return the regret of ``seat`` playing ``play`` in ``state``."""
    observation = state.observation(seat)
    margins, _ = open_values(state, observation)
    trick = observation.current_trick
    assert observation.contract is not None
    return Decision(
        trick=len(observation.tricks),
        place=0 if trick is None else len(trick.cards),
        taker=int(observation.contract.team) == seat % 2,
        regret=max(margins.values()) - margins[play.card.index],
    )


def deal_decisions(job: tuple[int, float | None]) -> list[Decision]:
    """Play a deal twice, teams swapped, and return the strong bot's decisions with a choice."""
    seed, budget = job
    dealer, hands = palaristi_deal(seed)
    decisions = []
    for strong_team in (0, 1):
        state = RoundState.new(dealer=dealer, hands=hands)
        rng = random.Random(seed * 2 + strong_team)
        while state.to_act is not None:
            seat = state.to_act
            player = STRONG if seat % 2 == strong_team else HEURISTIC
            action = player.act(state, seat, rng, budget)
            if player is STRONG and isinstance(action, Play) and has_choice(state, seat):
                decisions.append(decision_regret(state, seat, action))
            state = state.apply(seat, action)
    return decisions


def has_choice(state: RoundState, seat: Seat) -> bool:
    """Say whether ``seat`` may play more than one card."""
    legal = state.observation(seat).legal_actions
    return sum(isinstance(action, Play) for action in legal) > 1


def run_regret(deals: int, seed: int, budget: float | None, workers: int) -> list[list[Decision]]:
    """Return the strong bot's decisions deal by deal, in ``workers`` processes if more than one."""
    return map_deals(deal_decisions, [(s, budget) for s in deal_seeds(seed, deals)], workers)


def _per_round(decisions: Iterable[Decision], rounds: int, key: str) -> str:
    totals: dict[object, list[int]] = defaultdict(lambda: [0, 0])
    for decision in decisions:
        total = totals[getattr(decision, key)]
        total[0] += 1
        total[1] += decision.regret
    parts = [
        f"{name}: {total[1] / rounds:.2f} ({total[0]} decisions)"
        for name, total in sorted(totals.items(), key=lambda item: str(item[0]))
    ]
    return ", ".join(parts)


def report(by_deal: Sequence[Sequence[Decision]], seed: int) -> str:
    """Write the regret per round played, whole and split."""
    rounds = 2 * len(by_deal)
    decisions = [decision for deal_decisions in by_deal for decision in deal_decisions]
    total = sum(decision.regret for decision in decisions)
    deciding = [decision for decision in decisions if decision.regret >= DECIDING]
    return "\n".join(
        [
            f"{len(by_deal)} duplicate deals (strong vs medium cards, strong auction), seed {seed}",
            f"double-dummy regret per round: {total / rounds:.2f} sheet points "
            f"over {len(decisions)} decisions with a choice",
            f"deciding (regret >= {DECIDING}): {sum(d.regret for d in deciding) / rounds:.2f} "
            f"per round, {len(deciding)} decisions",
            f"by trick: {_per_round(decisions, rounds, 'trick')}",
            f"by place in the trick: {_per_round(decisions, rounds, 'place')}",
            f"by side (True: the contract's): {_per_round(decisions, rounds, 'taker')}",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the regret measure from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.regret", description=__doc__)
    add_deal_arguments(parser, deals=100)
    args = parse_deal_arguments(parser, argv)
    start = time.perf_counter()
    by_deal = run_regret(args.deals, args.seed, args.budget, args.workers)
    print(report(by_deal, args.seed))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
