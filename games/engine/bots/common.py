"""Moves every bot makes the same way: announce, show and the pilotta call."""

from __future__ import annotations

from ..actions import PILOTTA_PLAYS, Action, Announce, Play, Show
from ..cards import Card, Rank
from ..observation import Observation


def obligatory_action(observation: Observation) -> Action | None:
    """Return announce or show when offered: both only ever gain points."""
    for action in observation.legal_actions:
        if isinstance(action, Announce | Show):
            return action
    return None


def with_pilotta_call(observation: Observation, action: Action) -> Action:
    """Add the pilotta flag to a play of the King or Queen of trumps when the call is legal."""
    if not isinstance(action, Play) or observation.contract is None:
        return action
    card = action.card
    trump = observation.contract.trump
    if card.suit != trump or card.rank not in (Rank.KING, Rank.QUEEN):
        return action
    other = Card(trump, Rank.QUEEN if card.rank == Rank.KING else Rank.KING)
    # Holding both: call on the first. Holding one: call only after calling the other.
    expected = () if other in observation.hand else ((observation.seat, other),)
    if observation.pilotta_calls != expected:
        return action
    return PILOTTA_PLAYS[card.index]
