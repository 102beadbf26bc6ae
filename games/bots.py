"""The one seam between the table and the computer players."""

import random
import threading

from games.engine import Action, Observation

_warm_lock = threading.Lock()
_warmed = False

# The players are imported on first use: they load numba, which a process that never runs a
# computer's move need not pay for at start-up.


def choose_action(
    observation: Observation, *, level: str, rng: random.Random, budget: float | None = None
) -> Action:
    """Ask the computer player of ``level`` for its action in this observation."""
    from games.ai import choose_action as ai_choose_action

    return ai_choose_action(observation, level=level, rng=rng, budget=budget)


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
