"""Scoring a round (RULES.md §6) and the Rule of 6 for the score sheet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Suit, Team
from .declarations import Declaration, declaration_winner

Pair = tuple[int, int]

CARD_TOTAL = 162
LAST_TRICK_BONUS = 10
CAPOT_POINTS = 250
PILOTTA_POINTS = 20


@dataclass(frozen=True, slots=True)
class Contract:
    """The result of the auction: the last bid, its team and seat, and the multiplier."""

    team: Team
    seat: int
    value: int
    trump: Suit
    multiplier: int

    @property
    def defenders(self) -> Team:
        """Return the team defending against the contract."""
        return 1 - self.team


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The score of a finished round; each pair is (team 0, team 1).

    ``card_points`` is the real 162 split (last trick included), ``declarations`` and
    ``pilotta`` what each team scores for them, ``raw`` the points of §6 and ``score``
    the score-sheet figures after the Rule of 6.
    """

    card_points: Pair
    declarations: Pair
    pilotta: Pair
    made: bool
    capot: Team | None
    raw: Pair
    score: Pair


def round_to_sheet(raw: Pair, bidding_team: Team) -> Pair:
    """Divide raw points by 10 with the Rule of 6.

    A remainder of 1-5 rounds down, 6-9 up; when both remainders are 6 the bidders round
    up and the defenders down.
    """
    if raw[0] % 10 == 6 and raw[1] % 10 == 6:
        up = bidding_team
        return (raw[0] // 10 + (up == 0), raw[1] // 10 + (up == 1))
    return (_round_one(raw[0]), _round_one(raw[1]))


def _round_one(points: int) -> int:
    tens, remainder = divmod(points, 10)
    return tens + (remainder >= 6)


def _pair(team: Team, mine: int, theirs: int) -> Pair:
    return (mine, theirs) if team == 0 else (theirs, mine)


def score_round(
    contract: Contract,
    card_points: Pair,
    tricks_won: Pair,
    shown: Sequence[Sequence[Declaration]],
    pilotta: Pair,
) -> RoundResult:
    """Score a played round from its card points, tricks, shown declarations and pilotta.

    ``shown`` holds each team's declarations that were announced and shown in time;
    ``pilotta`` each team's pilotta points before the bidders' one-trick condition.
    """
    b, d = contract.team, contract.defenders
    if tricks_won[b] == 0:
        # Bidders without a trick lose their declarations and pilotta before the comparison.
        shown = [() if team == b else tuple(shown[team]) for team in (0, 1)]
        pilotta = _pair(b, 0, pilotta[d])
    winner = declaration_winner(shown, contract.trump)
    declarations = [0, 0]
    if winner is not None:
        declarations[winner] = sum(decl.value for decl in shown[winner])
    capot = next((team for team in (0, 1) if tricks_won[team] == 8), None)
    trick_points = list(card_points) if capot is None else list(_pair(capot, CAPOT_POINTS, 0))
    bonus = [declarations[t] + pilotta[t] for t in (0, 1)]
    made = capot == b or trick_points[b] + bonus[b] >= contract.value
    everything = trick_points[0] + trick_points[1] + bonus[0] + bonus[1]
    if contract.multiplier == 1 and made:
        raw = _pair(b, trick_points[b] + bonus[b] + contract.value, trick_points[d] + bonus[d])
    elif contract.multiplier == 1:
        raw = _pair(b, 0, contract.value + everything)
    else:
        winning_team = b if made else d
        raw = _pair(winning_team, contract.value * contract.multiplier + everything, 0)
    return RoundResult(
        card_points=(card_points[0], card_points[1]),
        declarations=(declarations[0], declarations[1]),
        pilotta=(pilotta[0], pilotta[1]),
        made=made,
        capot=capot,
        raw=raw,
        score=round_to_sheet(raw, b),
    )
