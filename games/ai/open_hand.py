"""The open-hand level: the strong bot's search run on the real deal, for measurement only.

It is the ceiling of any card play that maximises what the strong bot maximises (its team's
sheet margin, card points breaking ties): the same solver, the same objective,
but on the one deal that was really dealt instead of on deals sampled from what a seat saw.
Comparing the strong bot with it says how much of the reachable card play the sampling leaves
on the table.

It cheats, so it is kept off the site's path on purpose. ``choose_action`` takes an
``Observation``, which holds no hidden card by design, and its ``LEVELS`` (and the rooms'
``ROOM_LEVELS``) do not name this level. ``choose_open`` takes the whole ``RoundState``
instead; only the measuring tools (``arena``, ``ladder``) call it.

The auction, the taking and the forced moves are the strong bot's, from the seat's observation
alone, so that a comparison with the strong bot differs in card play only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from games.engine import RoundState
from games.engine.actions import PLAYS, Action, Play
from games.engine.assist import obligatory_action, with_pilotta_call
from games.engine.cards import Seat, cards_mask, team_of
from games.engine.observation import Observation

from .knowledge import read_knowledge
from .sheet import sample_scorer
from .solver import remaining_points
from .solver_jit import shared_solver
from .strong import DEFAULT_BUDGET, choose_strong, sampled_position, search_card

#: The name the measuring tools give this level; never one of ``LEVELS``.
OPEN = "open"
#: The strong bot with open-hand leads for the contract's side: for measurement only, like OPEN.
OPEN_LEADS = "open-leads"
#: The strong bot with open-hand cards in defence: for measurement only, like OPEN.
OPEN_DEFENCE = "open-defence"
#: The strong bot that sees its partner's hand: for measurement only, like OPEN.
OPEN_PARTNER = "open-partner"


def choose_open(
    state: RoundState, seat: Seat, rng: random.Random, budget: float | None = None
) -> Action:
    """Return the open-hand action of ``seat``, the seat to act, seeing every hand of ``state``.

    ``budget`` only reaches the strong bot's decisions (the auction); the card play solves the
    real deal exactly, however long that takes.
    """
    if state.to_act != seat:
        raise ValueError("the open-hand level acts only for the seat to act")
    observation = state.observation(seat)
    if observation.contract is None:
        return choose_strong(observation, rng, budget)  # the auction is the strong bot's
    forced = obligatory_action(observation)
    if forced is not None:
        return forced
    plays = [a for a in observation.legal_actions if isinstance(a, Play)]
    if len(plays) == 1:
        return with_pilotta_call(observation, plays[0])
    card = open_card(state, observation)
    return with_pilotta_call(observation, PLAYS[card])


def open_card(state: RoundState, observation: Observation) -> int:
    """Return the card with the best sheet margin on the real deal.

    Card points break ties, as in the strong bot's search, then the lowest card.
    """
    margins, values = open_values(state, observation)
    return max(values, key=lambda card: (margins[card], values[card]))


def open_values(
    state: RoundState, observation: Observation
) -> tuple[dict[int, float], dict[int, int]]:
    """Return each legal card's sheet margin and card points on the real deal of ``state``."""
    k = read_knowledge(observation)
    hands = tuple(cards_mask(state.hand(seat)) for seat in range(state.players))
    pos = sampled_position(k, hands)
    values = shared_solver().move_values(pos)
    scorer = sample_scorer(k, observation, hands, remaining_points(pos))
    return {card: scorer.margin(value) for card, value in values.items()}, values


def choose_open_leads(
    state: RoundState, seat: Seat, rng: random.Random, budget: float | None = None
) -> Action:
    """Return the open-hand lead for the contract's side, the strong bot's action otherwise.

    The double-dummy regret of the strong bot's cards lies mostly in those leads. Playing them
    open-handed, and every other card as the strong bot does, measures how much of the gap to
    open-hand play any better choice of those leads could close.
    """
    observation = state.observation(seat)
    contract = observation.contract
    trick = observation.current_trick
    leads = trick is None or not trick.cards
    if contract is not None and leads and team_of(seat) == contract.team:
        return choose_open(state, seat, rng, budget)
    return choose_strong(observation, rng, budget)


def choose_open_defence(
    state: RoundState, seat: Seat, rng: random.Random, budget: float | None = None
) -> Action:
    """Return the open-hand card for the defence, the strong bot's action otherwise.

    With ``choose_open_leads`` it splits what the strong bot leaves to open-hand play between
    the contract side's leads, the defence and, what remains, the contract side's other cards.
    """
    observation = state.observation(seat)
    contract = observation.contract
    if contract is not None and team_of(seat) != contract.team:
        return choose_open(state, seat, rng, budget)
    return choose_strong(observation, rng, budget)


def choose_open_partner(
    state: RoundState, seat: Seat, rng: random.Random, budget: float | None = None
) -> Action:
    """Return the strong bot's action for a seat that sees its partner's hand.

    The strong bot's search, sampling only the opponents' hands: the most that signals
    between partners, or a reading of the partner's cards, could add to the strong bot's.
    """
    observation = state.observation(seat)
    plays = [a for a in observation.legal_actions if isinstance(a, Play)]
    if (
        observation.contract is None
        or observation.players != 4
        or len(plays) < 2
        or obligatory_action(observation) is not None
    ):
        return choose_strong(observation, rng, budget)
    k = read_knowledge(observation)
    partner = (seat + 2) % 4
    shown = cards_mask(state.hand(partner)) & k.unseen
    known = tuple(mask | shown if s == partner else mask for s, mask in enumerate(k.known))
    card = search_card(
        observation, rng, DEFAULT_BUDGET if budget is None else budget, replace(k, known=known)
    )
    return with_pilotta_call(observation, PLAYS[card])


#: The measuring tools' levels that see hidden cards, each with its choice of action.
OPEN_LEVELS: dict[str, Callable[[RoundState, Seat, random.Random, float | None], Action]] = {
    OPEN: choose_open,
    OPEN_LEADS: choose_open_leads,
    OPEN_DEFENCE: choose_open_defence,
    OPEN_PARTNER: choose_open_partner,
}
