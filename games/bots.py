"""The one seam between the table and the computer players."""

import logging
import random
import threading

from games.engine import Action, Observation

logger = logging.getLogger(__name__)

_warm_lock = threading.Lock()
_warmed = False

# The players are imported on first use: they load numba, which a process that never runs a
# computer's move need not pay for at start-up.


def choose_action(
    observation: Observation, *, level: str, rng: random.Random, budget: float | None = None
) -> Action:
    """Ask the computer player of ``level`` for its action in this observation.

    The computer players are still learning the classic game: there, an answer the rules
    refuse (or a player that fails) gives way to a random legal action, so a table of the
    classic game never stalls on a computer's turn.
    """
    from games.ai import choose_action as ai_choose_action

    if not observation.ruleset.is_classic:
        return ai_choose_action(observation, level=level, rng=rng, budget=budget)
    try:
        action = ai_choose_action(observation, level=level, rng=rng, budget=budget)
    except Exception as error:
        logger.warning("the %s computer failed in the classic game: %r", level, error)
    else:
        if observation.why_illegal(action) is None:
            return action
    return ai_choose_action(observation, level="random", rng=rng)


def warm_up() -> None:
    """Prepare the computer players once in this process, so that no player's move waits for it."""
    global _warmed
    # The lock makes a second caller wait for the first warm-up instead of compiling again.
    with _warm_lock:
        if _warmed:
            return
        from games.ai import warm_up as ai_warm_up

        ai_warm_up()
        _warmed = True
