"""Duplicate matches between two bot levels: ``python -m games.ai.arena --a X --b Y``.

A side is a level, or a ``Player`` that bids at one level and plays its cards at another (the
ladder's mixes). The open-hand level ``open`` sees every card: it is for measuring only, and is
asked through the whole round state (``choose_open``), never through an observation.

Each deal is played twice with the same cards and dealer, bot A holding team 0's seats the first
time and team 1's the second. A deal is one round (auction and play) scored on the score sheet; the
figure of a deal is A's sheet points minus B's, averaged over its two plays.

``--variant classic --players N`` plays the classic game (raw points, no score sheet). With four
players the deals are duplicated as above. With two or three, A takes one seat and B every other
one, and each deal is played once with A in each seat: a play's figure is A's points minus the
mean of the other seats' points, and a deal's the mean over its plays.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from games.ai import LEVELS, choose_action, strong, warm_up
from games.ai.open_hand import OPEN_LEVELS
from games.ai.strong import AuctionPolicy, choose_strong
from games.engine import (
    Action,
    Bid,
    Close,
    Name,
    Pass,
    Reclose,
    RoundState,
    Ruleset,
    Seat,
    Take,
    deal,
    deal_classic,
    draw_cut,
    shuffled_deck,
)
from games.engine.dealing import Hands

AUCTION_TYPES = (Bid, Pass, Close, Reclose, Take, Name)
VARIANTS = ("tsaka", "classic")
#: The levels the arena plays: the bots' levels and the open-handed ones.
ARENA_LEVELS = (*LEVELS, *OPEN_LEVELS)
Job = TypeVar("Job")
Result = TypeVar("Result")


@dataclass(frozen=True, slots=True)
class Player:
    """A side's play: the level of its auction (and taking) and the level of its card play.

    ``policy`` replaces the strong auction's thresholds, for tuning them.
    """

    auction: str
    cards: str
    policy: AuctionPolicy | None = None

    def __post_init__(self) -> None:
        for level in (self.auction, self.cards):
            if level not in ARENA_LEVELS:
                raise ValueError(f"unknown level {level!r}; expected one of {ARENA_LEVELS}")
        if self.policy is not None and self.auction != "strong":
            raise ValueError("an auction policy is the strong auction's")

    def __str__(self) -> str:
        auction = self.auction if self.policy is None else f"{self.auction} {self.policy}"
        if auction == self.cards:
            return self.cards
        return f"{self.cards} cards with the {auction} auction"

    def act(
        self, state: RoundState, seat: Seat, rng: random.Random, budget: float | None
    ) -> Action:
        """Return this side's action for ``seat``, the seat to act."""
        level = self.auction if state.contract is None else self.cards
        if self.policy is not None and level == "strong" and state.contract is None:
            return choose_strong(state.observation(seat), rng, budget, self.policy)
        if level in OPEN_LEVELS:
            return OPEN_LEVELS[level](state, seat, rng, budget)
        return choose_action(state.observation(seat), level=level, rng=rng, budget=budget)


Side = str | Player


def as_player(side: Side) -> Player:
    """Return the player of a side given as a level or as a player."""
    return side if isinstance(side, Player) else Player(side, side)


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
    """One deal: A's margin in each of its plays, and the timings of both bots."""

    margins: tuple[float, ...]
    timings: dict[str, Timings]

    @property
    def margin(self) -> float:
        """Return A's points minus B's, averaged over the plays."""
        return sum(self.margins) / len(self.margins)


def play_round(
    state: RoundState,
    players: Sequence[Side],
    rng: random.Random,
    budget: float | None,
    timings: Sequence[Timings],
) -> RoundState:
    """Play a round to its end, ``players[seat % len(players)]`` choosing for each seat.

    ``timings`` is indexed like ``players``: by team (two entries) or by seat.
    """
    sides = [as_player(side) for side in players]
    while state.to_act is not None:
        seat = state.to_act
        start = time.perf_counter()
        index = seat % len(sides)
        action = sides[index].act(state, seat, rng, budget)
        elapsed = time.perf_counter() - start
        record = timings[index]
        (record.bidding if isinstance(action, AUCTION_TYPES) else record.play).append(elapsed)
        state = state.apply(seat, action)
    return state


def sheet_margin(state: RoundState, team: int) -> int:
    """Return ``team``'s score-sheet points minus the other team's (0 for a cancelled round)."""
    result = state.result
    if result is None:
        return 0
    return result.score[team] - result.score[1 - team]


def palaristi_deal(seed: int) -> tuple[int, Hands]:
    """Return the dealer and the hands of the palaristi deal of ``seed`` (cards, cut, dealer)."""
    deck_rng = random.Random(seed)
    dealer = deck_rng.randrange(4)
    return dealer, deal(shuffled_deck(deck_rng), dealer=dealer, cut=draw_cut(deck_rng))


def play_deal(job: tuple[Side, Side, int, float | None]) -> DealOutcome:
    """Play one deal twice, teams swapped; the seed fixes cards, dealer and the bots' dice."""
    level_a, level_b, seed, budget = job
    dealer, hands = palaristi_deal(seed)
    timings = {"a": Timings(), "b": Timings()}
    margins = []
    for a_team in (0, 1):
        levels = [level_a, level_b] if a_team == 0 else [level_b, level_a]
        by_team = [timings["a"], timings["b"]] if a_team == 0 else [timings["b"], timings["a"]]
        state = RoundState.new(dealer=dealer, hands=hands)
        state = play_round(state, levels, random.Random(seed * 2 + a_team), budget, by_team)
        margins.append(sheet_margin(state, a_team))
    return DealOutcome((margins[0], margins[1]), timings)


def classic_round(seed: int, players: int) -> RoundState:
    """Return a classic round of ``players`` dealt from ``seed`` (cards, cut and dealer)."""
    ruleset = Ruleset.classic(players)
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    size = len(ruleset.deck)
    dealt = deal_classic(
        shuffled_deck(rng, ruleset.deck), dealer=dealer, cut=draw_cut(rng, size), players=players
    )
    return RoundState.new(
        dealer=dealer, hands=dealt.hands, ruleset=ruleset, turned=dealt.turned, stock=dealt.stock
    )


def side_margin(state: RoundState, a_side: int) -> float:
    """Return A's side points minus the mean of the other sides' (0 for a cancelled round)."""
    result = state.result
    if result is None:
        return 0.0
    others = [points for side, points in enumerate(result.score) if side != a_side]
    return result.score[a_side] - sum(others) / len(others)


def play_classic_deal(job: tuple[Side, Side, int, float | None, int]) -> DealOutcome:
    """Play one classic deal with A on each side in turn (a team of four, or a seat).

    With four players A holds a team (seats 0 and 2, then 1 and 3); with two or three it holds
    one seat and B all the others.
    """
    level_a, level_b, seed, budget, players = job
    start = classic_round(seed, players)
    timings = {"a": Timings(), "b": Timings()}
    margins = []
    seats = 2 if players == 4 else players  # levels and timings are by team with four players
    for a_side in range(seats):
        levels = [level_a if index == a_side else level_b for index in range(seats)]
        by_index = [timings["a"] if index == a_side else timings["b"] for index in range(seats)]
        rng = random.Random(seed * 8 + a_side)
        state = play_round(start, levels, rng, budget, by_index)
        margins.append(side_margin(state, a_side))
    return DealOutcome(tuple(margins), timings)


def _init_worker(max_samples: int) -> None:
    # A worker process starts afresh: it takes this process's sample cap, so that it thinks
    # exactly as this process would.
    strong.MAX_SAMPLES = max_samples
    warm_up()


def deal_seeds(seed: int, deals: int) -> list[int]:
    """Return the seeds of the ``deals`` deals of a run: the same for every match of one seed."""
    return [seed * 1_000_003 + i for i in range(deals)]


def run(
    level_a: Side,
    level_b: Side,
    deals: int,
    seed: int,
    budget: float | None,
    workers: int,
    *,
    variant: str = "tsaka",
    players: int = 4,
) -> list[DealOutcome]:
    """Play ``deals`` deals of ``variant``, in ``workers`` processes when more than one."""
    seeds = deal_seeds(seed, deals)
    if variant == "classic":
        jobs = [(level_a, level_b, s, budget, players) for s in seeds]
        return map_deals(play_classic_deal, jobs, workers)
    if players != 4:
        raise ValueError("the palaristi game is for four players")
    return map_deals(play_deal, [(level_a, level_b, s, budget) for s in seeds], workers)


def map_deals(
    play: Callable[[Job], Result],
    jobs: list[Job],
    workers: int,
    chunksize: int | None = None,
) -> list[Result]:
    """Play every job, in ``workers`` processes when more than one; the outcomes in job order.

    The jobs go to the processes ``chunksize`` at a time, by default an eighth of a process's
    share.
    """
    if workers <= 1:
        warm_up()
        return [play(job) for job in jobs]
    # Forking a process that runs threads (a test run, an embedding program) can copy a held
    # lock into the child and hang it: the workers start from a fork server instead.
    with ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_init_worker,
        initargs=(strong.MAX_SAMPLES,),
    ) as pool:
        chunks = chunksize or max(1, len(jobs) // (workers * 8))
        return list(pool.map(play, jobs, chunksize=chunks))


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
    level_a: Side,
    level_b: Side,
    budget: float | None,
    outcomes: Sequence[DealOutcome],
    *,
    variant: str = "tsaka",
    players: int = 4,
) -> str:
    """Write the arena's figures."""
    mean, low, high = confidence_interval([o.margin for o in outcomes])
    timings = {"a": Timings(), "b": Timings()}
    for outcome in outcomes:
        for key in timings:
            timings[key].extend(outcome.timings[key])
    if variant == "classic":
        game = f"classic game, {players} players, " + (
            "duplicate deals" if players == 4 else f"deals played with A in each of {players} seats"
        )
        figure = "A's points minus B's per deal"
    else:
        game, figure = "duplicate deals", "A's sheet points minus B's per deal"
    lines = [
        f"A = {level_a}, B = {level_b}, {len(outcomes)} {game}, "
        f"budget per move: {'default' if budget is None else f'{budget:g} s'}",
        f"{figure}: {mean:+.2f}  (95% CI {low:+.2f} .. {high:+.2f})",
    ]
    for key, level in (("a", level_a), ("b", level_b)):
        name = f"{level!s:>7}"
        lines.append(f"{key.upper()} {name} bidding: {percentiles(timings[key].bidding)}")
        lines.append(f"{key.upper()} {name} play:    {percentiles(timings[key].play)}")
    return "\n".join(lines)


def add_deal_arguments(parser: argparse.ArgumentParser, *, deals: int) -> None:
    """Add the options every measuring command shares: deals, seed, budget, workers."""
    parser.add_argument("--deals", type=int, default=deals, help="duplicate deals to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")


def parse_deal_arguments(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> argparse.Namespace:
    """Parse the command line, refusing a run of no deals."""
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line."""
    parser = argparse.ArgumentParser(prog="python -m games.ai.arena", description=__doc__)
    parser.add_argument("--a", required=True, choices=ARENA_LEVELS, help="the bot measured")
    parser.add_argument("--b", required=True, choices=ARENA_LEVELS, help="its opponent")
    add_deal_arguments(parser, deals=100)
    parser.add_argument("--variant", choices=VARIANTS, default="tsaka", help="the game")
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=4, help="seats (classic game)"
    )
    args = parse_deal_arguments(parser, argv)
    if args.variant != "classic" and args.players != 4:
        parser.error("the palaristi game is for four players")
    start = time.perf_counter()
    outcomes = run(
        args.a,
        args.b,
        args.deals,
        args.seed,
        args.budget,
        args.workers,
        variant=args.variant,
        players=args.players,
    )
    print(report(args.a, args.b, args.budget, outcomes, variant=args.variant, players=args.players))
    print(f"wall time {time.perf_counter() - start:.1f} s, {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
