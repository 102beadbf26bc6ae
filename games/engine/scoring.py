"""Scoring a round, in the palaristi and the classic game, and the Rule of 6."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Suit, Team
from .declarations import Declaration, classic_declaration_winner, declaration_winner

Pair = tuple[int, int]

CARD_TOTAL = 162
LAST_TRICK_BONUS = 10
CAPOT_POINTS = 250
#: The classic game's capot: the side that takes every trick adds 100 to its card points.
CLASSIC_CAPOT_BONUS = 100
PILOTTA_POINTS = 20
TRICKS = 8


@dataclass(frozen=True, slots=True)
class Contract:
    """The result of the auction: the last bid, its team and seat, and the multiplier.

    In the classic game ``team`` is the taker's side (a team, or the taker alone), ``value``
    is 0 and ``multiplier`` 1: taking has neither.
    """

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
    """The score of a finished round, by side: (team 0, team 1) in the palaristi game.

    ``card_points`` is the real split of the cards and the last trick, ``declarations`` and
    ``pilotta`` what each side scores for them, ``raw`` the unrounded points and ``score`` the
    score-sheet figures after the Rule of 6. In the classic game, sides are teams of four or
    single players; ``total`` is each side's cards, capot bonus, declarations and pilotta,
    and ``raw`` equals ``score``: raw points go on the sheet.
    """

    card_points: tuple[int, ...]
    declarations: tuple[int, ...]
    pilotta: tuple[int, ...]
    made: bool
    capot: Team | None
    raw: tuple[int, ...]
    score: tuple[int, ...]
    total: tuple[int, ...] | None = None


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


def score_classic(
    contract: Contract,
    card_points: Sequence[int],
    tricks_won: Sequence[int],
    shown: Sequence[Sequence[Declaration]],
    pilotta: Sequence[int],
) -> RoundResult:
    """Score a classic round from each side's card points, tricks, declarations, pilotta.

    A side without a trick loses its declarations before the comparison but keeps its
    pilotta; the contract is made when the taker's side totals at least every other side.
    """
    sides = range(len(card_points))
    shown = [tuple(shown[side]) if tricks_won[side] else () for side in sides]
    winner = classic_declaration_winner(shown)
    declarations = [0] * len(card_points)
    if winner is not None:
        declarations[winner] = sum(decl.value for decl in shown[winner])
    capot = next((side for side in sides if tricks_won[side] == TRICKS), None)
    total = [
        card_points[side]
        + (CLASSIC_CAPOT_BONUS if side == capot else 0)
        + declarations[side]
        + pilotta[side]
        for side in sides
    ]
    taker = contract.team
    made = capot == taker or (
        tricks_won[taker] > 0 and all(total[taker] >= total[side] for side in sides)
    )
    score = [pilotta[side] if side == taker and not made else total[side] for side in sides]
    return RoundResult(
        card_points=tuple(card_points),
        declarations=tuple(declarations),
        pilotta=tuple(pilotta),
        made=made,
        capot=capot,
        raw=tuple(score),
        score=tuple(score),
        total=tuple(total),
    )
