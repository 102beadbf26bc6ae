"""Computer players: ``choose_action`` picks a move for a seat from its observation alone."""

from __future__ import annotations

import random

from games.engine.actions import Action
from games.engine.observation import Observation

from .evaluator import bidding_model
from .heuristic import EASY, MEDIUM, choose_heuristic
from .random_bot import choose_random

# The strong level's search is compiled with numba, which the other levels never need: it is
# imported on the strong level's first use, so that a process serving only cheap moves neither
# loads numba nor depends on its compile cache.

LEVELS = ("random", "easy", "medium", "strong")
#: The levels a room may offer.
ROOM_LEVELS = ("easy", "medium", "strong")


def choose_action(
    observation: Observation, *, level: str, rng: random.Random, budget: float | None = None
) -> Action:
    """Return the action of the seat to act at ``level``, thinking about ``budget`` seconds.

    Every game is served: the palaristi game, and the classic game with 2, 3 or 4 players (the
    strong level searches the cards at every table; with three, against the other two as one).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    if observation.seat is None or observation.seat != observation.to_act:
        raise ValueError("a bot acts only for the seat to act, from that seat's observation")
    if not observation.legal_actions:
        raise ValueError("the observation offers no legal action")
    if level == "random":
        return choose_random(observation, rng)
    if level == "easy":
        return choose_heuristic(observation, rng, EASY)
    if level == "medium":
        return choose_heuristic(observation, rng, MEDIUM)
    from .strong import choose_strong

    return choose_strong(observation, rng, budget)


def warm_up() -> None:
    """Prepare the bots (compiled code, tables) so that the first move is fast."""
    from .solver_jit import compile_solver

    compile_solver()
    bidding_model()


__all__ = ["LEVELS", "ROOM_LEVELS", "choose_action", "warm_up"]
