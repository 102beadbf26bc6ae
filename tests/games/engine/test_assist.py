"""The assist: announce, show and the pilotta call made for a player, as the bots make them."""

from __future__ import annotations

import random

from games.engine import Announce, Play, RoundState, Show, deal, draw_cut, shuffled_deck
from games.engine.assist import assisted_actions

from .helpers import assert_declarations_and_pilotta_taken


def play_with_assist(state: RoundState, rng: random.Random) -> RoundState:
    """Play a round where every seat picks a plain card and the assist adds the rest."""
    while state.to_act is not None:
        seat = state.to_act
        observation = state.observation(seat)
        chosen = rng.choice(observation.legal_actions)
        if isinstance(chosen, Announce | Show):
            chosen = next(a for a in observation.legal_actions if isinstance(a, Play))
        if isinstance(chosen, Play):
            chosen = Play(chosen.card)
        for step in assisted_actions(observation, chosen):
            state = state.apply(seat, step)
    return state


def test_non_play_actions_are_left_alone() -> None:
    state = RoundState.new(dealer=0, hands=deal(shuffled_deck(random.Random(3)), dealer=0, cut=5))
    observation = state.observation(1)
    for action in observation.legal_actions:
        assert assisted_actions(observation, action) == (action,)


def test_every_assisted_step_is_legal_and_nothing_is_missed() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(120):
        dealer = rng.randrange(4)
        hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
        # state.apply refuses any illegal step the assist would add.
        state = play_with_assist(RoundState.new(dealer=dealer, hands=hands), rng)
        if state.contract is not None:
            assert_declarations_and_pilotta_taken(state)
            checked += 1
    assert checked > 20
