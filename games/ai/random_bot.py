"""The baseline bot: a legal action drawn uniformly."""

from __future__ import annotations

import random

from games.engine.actions import Action
from games.engine.observation import Observation


def choose_random(observation: Observation, rng: random.Random) -> Action:
    """Return one of the legal actions, each equally likely."""
    return rng.choice(observation.legal_actions)
