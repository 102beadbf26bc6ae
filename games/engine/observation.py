"""Per-seat observations: exactly what one seat (or a spectator) may know of a round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Action
from .cards import Card, Seat
from .declarations import Announcement, Declaration
from .phase import Phase
from .play import OpenTrick, Trick
from .ruleset import Ruleset
from .scoring import Contract, RoundResult

if TYPE_CHECKING:
    from .state import RoundState


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of a round; it holds no reference to the state or to hidden cards.

    ``seat`` is None for a spectator, whose ``hand`` is empty. ``announcements`` and
    ``shown`` are by seat; ``legal_actions`` is filled only when this seat is to act.
    """

    seat: Seat | None
    ruleset: Ruleset
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: tuple[Card, ...]
    auction: tuple[tuple[Seat, Action], ...]
    contract: Contract | None
    current_trick: OpenTrick | None
    tricks: tuple[Trick, ...]
    card_counts: tuple[int, ...]
    announcements: tuple[tuple[Announcement, ...], ...]
    shown: tuple[tuple[Declaration, ...], ...]
    pilotta_calls: tuple[tuple[Seat, Card], ...]
    legal_actions: tuple[Action, ...]
    result: RoundResult | None


def observe(state: RoundState, seat: Seat | None) -> Observation:
    """Build the observation of ``seat`` (None: a spectator)."""
    to_act = state.to_act
    seats = range(4)
    return Observation(
        seat=seat,
        ruleset=state.ruleset,
        dealer=state.dealer,
        phase=state.phase,
        to_act=to_act,
        hand=() if seat is None else state.hand(seat),
        auction=state.auction,
        contract=state.contract,
        current_trick=state.current_trick,
        tricks=state.tricks,
        card_counts=tuple(len(state.hand(s)) for s in seats),
        announcements=tuple(state.announcements(s) for s in seats),
        shown=tuple(state.shown(s) for s in seats),
        pilotta_calls=state.pilotta_calls,
        legal_actions=tuple(state.legal_actions()) if seat is not None and seat == to_act else (),
        result=state.result,
    )
