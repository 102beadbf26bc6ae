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

With ``--variant`` (settings of the strong bot named in ``compare.VARIANTS``), the positions of
those decisions are kept and each variant is asked again at every one of them, with the same
random draws at each position for every variant. A variant's figure is its regret per decision;
its paired figure is its regret minus the first variant's, position by position. The positions
stay those the site's bot reached, so the figure says which choices a setting changes, not
where its own play would have led. Collecting the positions is the slow part (the site's bot
plays every deal); ``--positions FILE`` keeps them in a file and reads them back on a later run
with the same deals, seed and budget, so that further variants are asked at the same positions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import pickle
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from games.engine import RoundState, Seat
from games.engine.actions import Play

from . import strong, warm_up
from .arena import (
    add_deal_arguments,
    confidence_interval,
    deal_seeds,
    map_deals,
    palaristi_deal,
    parse_deal_arguments,
    percentiles,
)
from .compare import VARIANTS, add_variant_argument, applied, init_variant_worker, variant_names
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
    regret: float


@dataclass(frozen=True, slots=True)
class Position:
    """A card decision of the strong bot: the state, every legal card's open-hand sheet margin
    and the decision as the bot played it."""

    state: RoundState
    seat: Seat
    margins: Mapping[int, float]
    decision: Decision


def decision_regret(state: RoundState, seat: Seat, play: Play) -> Decision:
    """Return the regret of ``seat`` playing ``play`` in ``state``."""
    return position(state, seat, play).decision


def position(state: RoundState, seat: Seat, play: Play) -> Position:
    """Return the decision of ``seat`` playing ``play`` in ``state``, with its position."""
    observation = state.observation(seat)
    margins, _ = open_values(state, observation)
    trick = observation.current_trick
    assert observation.contract is not None
    decision = Decision(
        trick=len(observation.tricks),
        place=0 if trick is None else len(trick.cards),
        taker=int(observation.contract.team) == seat % 2,
        regret=max(margins.values()) - margins[play.card.index],
    )
    return Position(state, seat, margins, decision)


def deal_positions(job: tuple[int, float | None]) -> list[Position]:
    """Play a deal twice, teams swapped, and return the strong bot's decisions with a choice."""
    seed, budget = job
    dealer, hands = palaristi_deal(seed)
    positions = []
    for strong_team in (0, 1):
        state = RoundState.new(dealer=dealer, hands=hands)
        rng = random.Random(seed * 2 + strong_team)
        while state.to_act is not None:
            seat = state.to_act
            player = STRONG if seat % 2 == strong_team else HEURISTIC
            action = player.act(state, seat, rng, budget)
            if player is STRONG and isinstance(action, Play) and has_choice(state, seat):
                positions.append(position(state, seat, action))
            state = state.apply(seat, action)
    return positions


def deal_decisions(job: tuple[int, float | None]) -> list[Decision]:
    """Return the strong bot's decisions with a choice in a deal played twice."""
    return [position.decision for position in deal_positions(job)]


def has_choice(state: RoundState, seat: Seat) -> bool:
    """Say whether ``seat`` may play more than one card."""
    legal = state.observation(seat).legal_actions
    return sum(isinstance(action, Play) for action in legal) > 1


def run_regret(deals: int, seed: int, budget: float | None, workers: int) -> list[list[Decision]]:
    """Return the strong bot's decisions deal by deal, in ``workers`` processes if more than one."""
    return map_deals(deal_decisions, [(s, budget) for s in deal_seeds(seed, deals)], workers)


def collect_positions(deals: int, seed: int, budget: float | None, workers: int) -> list[Position]:
    """Return the positions of the strong bot's decisions, deal by deal."""
    by_deal = map_deals(deal_positions, [(s, budget) for s in deal_seeds(seed, deals)], workers)
    return [position for positions in by_deal for position in positions]


@dataclass(frozen=True, slots=True)
class KeptPositions:
    """Positions kept in a file, with the run they were collected in."""

    deals: int
    seed: int
    budget: float | None
    positions: list[Position]


def kept_positions(
    path: Path | None, deals: int, seed: int, budget: float | None, workers: int
) -> list[Position]:
    """Return the positions of the run, read from ``path`` when it holds that run's.

    Otherwise they are collected, and kept in ``path`` if one is given. A file kept from other
    deals, seed or budget is collected over, never read as this run's.
    """
    if path is not None and path.exists():
        kept = pickle.loads(path.read_bytes())  # our own file, written below
        if isinstance(kept, KeptPositions) and (kept.deals, kept.seed, kept.budget) == (
            deals,
            seed,
            budget,
        ):
            return kept.positions
    positions = collect_positions(deals, seed, budget, workers)
    if path is not None:
        path.write_bytes(pickle.dumps(KeptPositions(deals, seed, budget, positions)))
    return positions


@dataclass(frozen=True, slots=True)
class Answer:
    """A variant's card at a position: its regret, and the seconds it took."""

    regret: float
    seconds: float


def ask(job: tuple[int, Position, float | None]) -> Answer:
    """Ask the strong bot, as its settings now stand, for its card at a position."""
    index, pos, budget = job
    observation = pos.state.observation(pos.seat)
    # The same draws at a position for every variant: the pairing then shows the setting alone.
    rng = random.Random(index)
    start = time.perf_counter()
    action = strong.choose_strong(observation, rng, budget)
    seconds = time.perf_counter() - start
    assert isinstance(action, Play)
    return Answer(max(pos.margins.values()) - pos.margins[action.card.index], seconds)


def ask_variants(
    positions: Sequence[Position], names: Sequence[str], budget: float | None, workers: int
) -> dict[str, list[Answer]]:
    """Ask each variant in turn at every position, in ``workers`` processes if more than one."""
    jobs = [(index, pos, budget) for index, pos in enumerate(positions)]
    answers = {}
    if workers <= 1:
        warm_up()
        for name in names:
            with applied(VARIANTS[name]):
                answers[name] = [ask(job) for job in jobs]
        return answers
    for name in names:
        with ProcessPoolExecutor(
            workers,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=init_variant_worker,
            initargs=(VARIANTS[name], strong.MAX_SAMPLES),
        ) as pool:
            answers[name] = list(pool.map(ask, jobs, chunksize=max(1, len(jobs) // workers // 8)))
    return answers


def variants_report(answers: Mapping[str, Sequence[Answer]], deals: int, seed: int) -> str:
    """Write each variant's regret per decision, and each later one's paired figure."""
    names = list(answers)
    first = [answer.regret for answer in answers[names[0]]]
    lines = [
        f"{len(first)} positions of the strong bot's decisions in {deals} duplicate deals, "
        f"seed {seed}; each variant asked at every one with the same draws",
        "double-dummy regret per decision in sheet points, 95% CI by the normal approximation",
    ]
    for name in names:
        regrets = [answer.regret for answer in answers[name]]
        deciding = sum(1 for regret in regrets if regret >= DECIDING)
        lines.append(
            f"{name:<18} {_figure(regrets)}, {deciding} deciding (>= {DECIDING}), "
            f"play {percentiles([answer.seconds for answer in answers[name]])}"
        )
        if name != names[0]:
            paired = [regret - base for regret, base in zip(regrets, first, strict=True)]
            moved = sum(1 for value in paired if value)
            lines.append(
                f"{name:<18} - {names[0]}: {_figure(paired, '+')}, {moved} positions differ"
            )
    return "\n".join(lines)


def _figure(values: Sequence[float], sign: str = "") -> str:
    mean, low, high = confidence_interval(values)
    return f"{mean:{sign}.3f}  ({low:{sign}.3f} .. {high:{sign}.3f})"


def _per_round(decisions: Iterable[Decision], rounds: int, key: str) -> str:
    counts: dict[object, int] = defaultdict(int)
    regrets: dict[object, float] = defaultdict(float)
    for decision in decisions:
        counts[getattr(decision, key)] += 1
        regrets[getattr(decision, key)] += decision.regret
    parts = [
        f"{name}: {regrets[name] / rounds:.2f} ({count} decisions)"
        for name, count in sorted(counts.items(), key=lambda item: str(item[0]))
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


#: The decisions ``--only`` may keep, and which of them each takes.
ONLY: dict[str, Callable[[Decision], bool]] = {
    "all": lambda decision: True,
    "leads": lambda decision: decision.place == 0,
    "contract-leads": lambda decision: decision.place == 0 and decision.taker,
}


def only(positions: Sequence[Position], kind: str) -> list[Position]:
    """Return the positions whose decisions are of ``kind`` (a key of ``ONLY``), in order."""
    keeps = ONLY[kind]
    return [pos for pos in positions if keeps(pos.decision)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the regret measure from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.regret", description=__doc__)
    add_deal_arguments(parser, deals=100)
    add_variant_argument(parser, "ask at the positions")
    parser.add_argument(
        "--positions", type=Path, help="keep the positions in this file, and read them back"
    )
    parser.add_argument(
        "--only",
        choices=list(ONLY),
        default="all",
        help="ask the variants at these decisions only (the contract side's leads lose the most)",
    )
    args = parse_deal_arguments(parser, argv)
    names = variant_names(parser, args)
    start = time.perf_counter()
    if names:
        kept = kept_positions(args.positions, args.deals, args.seed, args.budget, args.workers)
        positions = only(kept, args.only)
        answers = ask_variants(positions, names, args.budget, args.workers)
        print(variants_report(answers, args.deals, args.seed))
    else:
        by_deal = run_regret(args.deals, args.seed, args.budget, args.workers)
        print(report(by_deal, args.seed))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
