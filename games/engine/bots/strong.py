"""The strong bot: determinized open-hand search for the cards, the evaluator for the auction."""

from __future__ import annotations

import random
import time

from ..actions import PLAYS, Action, Play
from ..fast import PlayPosition
from ..observation import Observation
from .common import obligatory_action, with_pilotta_call
from .evaluator import calibrated_estimate
from .heuristic import MEDIUM, auction_action
from .knowledge import read_knowledge
from .sampling import sample_consistent
from .solver_jit import shared_solver

DEFAULT_BUDGET = 0.5  # seconds per card decision
MIN_SAMPLES = 1
MAX_SAMPLES = 200


def choose_strong(observation: Observation, rng: random.Random, budget: float | None) -> Action:
    """Return the strong bot's action for the seat to act."""
    forced = obligatory_action(observation)
    if forced is not None:
        return forced
    if observation.contract is None:
        return auction_action(observation, MEDIUM, calibrated_estimate)
    plays = [a for a in observation.legal_actions if isinstance(a, Play)]
    if len(plays) == 1:
        return with_pilotta_call(observation, plays[0])
    card = search_card(observation, rng, DEFAULT_BUDGET if budget is None else budget)
    return with_pilotta_call(observation, PLAYS[card])


def search_card(observation: Observation, rng: random.Random, budget: float) -> int:
    """Return the card with the best total of exact values over sampled deals."""
    deadline = time.perf_counter() + budget
    k = read_knowledge(observation)
    solver = shared_solver()
    totals: dict[int, int] = {}
    samples = 0
    while samples < MIN_SAMPLES or (samples < MAX_SAMPLES and time.perf_counter() < deadline):
        hands = sample_consistent(k, observation, rng)
        pos = PlayPosition(hands, k.trick, k.leader, k.trump)
        for card, value in solver.move_values(pos).items():
            totals[card] = totals.get(card, 0) + value
        samples += 1
    return max(totals, key=lambda card: totals[card])
