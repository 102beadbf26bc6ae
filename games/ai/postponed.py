"""The seat's next lead chosen once for the deals it cannot tell apart: reasoning postponed a trick.

Sampled deals solved one by one overrate a lead: each deal's value takes the seat to choose its
later cards knowing that deal's hands (strategy fusion). When the seat leads, the rest of the
trick is public, so after it the seat can tell apart only the deals where the trick went
differently. Here the other three cards of the trick are played as each deal's perfect play has
them; where the seat wins the trick, its next lead is the one card best over all the deals in
which the trick went the same way, not each deal's own best. A lead that needs a guess on the
next trick is then worth what the guess is worth on average.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine.fast import POINTS, PlayPosition, cards_of, legal, play, side_of

from .solver import remaining_points
from .solver_jit import CompiledSolver, SearchTimeout

Margin = Callable[[int], float]


@dataclass(slots=True)
class LeadOutcome:
    """One lead in one sampled deal: the trick it makes, and what the seat can do after it.

    ``next_leads`` holds, when the seat wins the trick and leads again, the sheet margin of each
    next lead; otherwise ``margin`` is the deal's margin with perfect play from the lead on.
    """

    trick: tuple[int, ...]
    margin: float
    next_leads: dict[int, float] | None = None


@dataclass(slots=True)
class PostponedLeads:
    """The candidate leads' outcomes, deal by deal, over the same deals for every candidate."""

    candidates: Sequence[int]
    outcomes: dict[int, list[LeadOutcome]] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        """Return the number of deals every candidate has an outcome in."""
        return min((len(self.outcomes.get(c, [])) for c in self.candidates), default=0)

    def value(self, card: int) -> float:
        """Return the total margin of leading ``card``, each next lead chosen per trick seen."""
        outcomes = self.outcomes[card][: self.deals]
        total = sum(o.margin for o in outcomes if o.next_leads is None)
        groups: dict[tuple[int, ...], list[dict[int, float]]] = defaultdict(list)
        for outcome in outcomes:
            if outcome.next_leads is not None:
                groups[outcome.trick].append(outcome.next_leads)
        for group in groups.values():
            leads = group[0].keys()
            total += max(sum(margins[lead] for margins in group) for lead in leads)
        return total


def principal_card(
    solver: CompiledSolver, pos: PlayPosition, value: int, deadline: float | None
) -> int:
    """Return a card of the seat to act that keeps team 0's points from ``pos`` at ``value``.

    ``value`` is the position's perfect-play value; each card is tested with one null-window
    search until one reaches it (a maximizer's card at least it, a minimizer's at most it).
    """
    maximizing = side_of(pos.to_act, pos.players) == 0
    for card in cards_of(legal(pos)):
        after = play(pos, card)
        target = value - (after.points[0] - pos.points[0])
        if maximizing:
            if solver.bounded_value(after, target - 1, target, deadline) >= target:
                return card
        elif solver.bounded_value(after, target, target + 1, deadline) <= target:
            return card
    raise AssertionError("no card reaches the position's value")


def lead_outcome(
    solver: CompiledSolver,
    pos: PlayPosition,
    card: int,
    future: int,
    margin: Margin,
    deadline: float | None,
    coarse: bool = False,
) -> LeadOutcome:
    """Return what leading ``card`` at ``pos`` makes in this deal.

    ``future`` is the points the seat's team takes from ``pos`` on after this lead, by perfect
    play (the sampled search's value), and ``margin`` turns those points into the sheet's.
    ``coarse``: the trick is told apart by its counting cards only (``trick_seen``).
    """
    seat = pos.to_act
    team = side_of(seat, pos.players)
    total = remaining_points(pos)
    after = play(pos, card)
    team0 = future if team == 0 else total - future
    while after.trick:
        rest = team0 - (after.points[0] - pos.points[0])
        after = play(after, principal_card(solver, after, rest, deadline))
    trick = trick_seen(pos, after_trick_cards(pos, after, card), coarse)
    if after.leader != seat or not any(after.hands):
        return LeadOutcome(trick, margin(future))
    won = after.points[team] - pos.points[team]
    next_values = solver.move_values(after, deadline)
    return LeadOutcome(
        trick,
        margin(future),
        {lead: margin(won + value) for lead, value in next_values.items()},
    )


def after_trick_cards(pos: PlayPosition, after: PlayPosition, lead: int) -> list[int]:
    """Return the trick's cards in play order: the lead and what left the other hands."""
    cards = [lead]
    for offset in range(1, pos.players):
        seat = (pos.to_act + offset) % pos.players
        cards.extend(cards_of(pos.hands[seat] & ~after.hands[seat]))
    return cards


def trick_seen(pos: PlayPosition, cards: Sequence[int], coarse: bool) -> tuple[int, ...]:
    """Return the trick as it tells deals apart: every card, or ``coarse``, the counting ones.

    A few dozen sampled deals rarely repeat a trick card for card, so most would each keep
    their own next lead and the postponing would change nothing. Coarse, a card worth no
    points stands for its suit only (``-1 - suit``): which small card fell seldom decides the
    next lead.
    """
    if not coarse:
        return tuple(cards)
    points = POINTS[pos.trump]
    return tuple(card if points[card] else -1 - (card >> 3) for card in cards)


def postponed_choice(postponed: PostponedLeads, fallback: Callable[[int], float]) -> int | None:
    """Return the candidate with the best postponed value, or None without a deal measured."""
    if postponed.deals == 0:
        return None
    return max(postponed.candidates, key=lambda c: (postponed.value(c), fallback(c)))


def measure_leads(
    solver: CompiledSolver,
    worlds: Sequence[tuple[PlayPosition, dict[int, int], Margin]],
    candidates: Sequence[int],
    deadline: float,
    coarse: bool = False,
) -> PostponedLeads:
    """Return the candidates' outcomes over ``worlds`` until ``deadline``.

    Each world is a sampled deal's position, its sampled search's values and its sheet margin;
    a world counts only when every candidate was measured in it, so all are compared on the
    same deals.
    """
    postponed = PostponedLeads(candidates, {c: [] for c in candidates})
    for pos, values, margin in worlds:
        if time.perf_counter() > deadline:
            break
        try:
            found = [
                lead_outcome(solver, pos, c, values[c], margin, deadline, coarse)
                for c in candidates
            ]
        except SearchTimeout:
            break
        for card, outcome in zip(candidates, found, strict=True):
            postponed.outcomes[card].append(outcome)
    return postponed
