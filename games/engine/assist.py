"""Moves that only ever help their player: announce, show and the pilotta call.

The computer players make them always; a room's assist makes them for a person. Both ask here,
so that the two never disagree.
"""

from __future__ import annotations

from .actions import PILOTTA_PLAYS, Action, Announce, Play, Show
from .cards import Card, Rank
from .observation import Observation


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


def assisted_actions(observation: Observation, action: Action) -> tuple[Action, ...]:
    """Return what the assist makes of a chosen card: announce or show first, then the card
    with the pilotta call when it is legal; any other action stays as it is.

    Announce and show change nothing that the pilotta call depends on, so one observation
    decides all the steps.
    """
    if not isinstance(action, Play):
        return (action,)
    helpers = tuple(a for a in observation.legal_actions if isinstance(a, Announce | Show))
    return (*helpers, with_pilotta_call(observation, action))
