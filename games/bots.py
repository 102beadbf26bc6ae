"""The one seam between the table and the computer players."""

import random
import threading

from games.engine import Action, Observation

_warm_lock = threading.Lock()
_warmed = False


def choose_action(
    observation: Observation, *, level: str, rng: random.Random, budget: float | None = None
) -> Action:
    """Ask the computer player of ``level`` for its action in this observation."""
    try:
        from games.engine.bots import choose_action as engine_choose_action
    except ImportError:
        # Until the engine's players exist, every level plays a random legal action.
        return rng.choice(observation.legal_actions)
    return engine_choose_action(observation, level=level, rng=rng, budget=budget)


def warm_up() -> None:
    """Prepare the computer players once in this process, so that no player's move waits for it."""
    global _warmed
    # The lock makes a second caller wait for the first warm-up instead of compiling again.
    with _warm_lock:
        if _warmed:
            return
        try:
            from games.engine.bots import warm_up as engine_warm_up
        except ImportError:
            # Until the engine's players exist, the random stand-in needs no preparing.
            pass
        else:
            engine_warm_up()
        _warmed = True
