"""Classic scoring: totals, made against every side, capot, raw points."""

from collections.abc import Sequence

import pytest

from games.engine import Contract, Declaration, Phase, Suit, find_declarations, parse_cards
from games.engine.scoring import score_classic

from .classic_helpers import classic_round
from .helpers import play, play_out
from .test_classic_dealing import FOUR, TWO, TWO_UNUSED


def taker(side: int) -> Contract:
    return Contract(team=side, seat=side, value=0, trump=Suit.HEARTS, multiplier=1)


def decl(hand: str) -> Declaration:
    (declaration,) = find_declarations(parse_cards(hand))
    return declaration


TIERCE = decl("9D TD JD")
QUARTE = decl("9C TC JC QC")


def nothing(sides: int) -> list[list[Declaration]]:
    return [[] for _ in range(sides)]


def score(
    side: int,
    cards: Sequence[int],
    tricks: Sequence[int],
    shown: Sequence[Sequence[Declaration]] | None = None,
    pilotta: Sequence[int] | None = None,
) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    """Return made, total and score of a classic round."""
    sides = len(cards)
    result = score_classic(
        taker(side),
        cards,
        tricks,
        nothing(sides) if shown is None else shown,
        (0,) * sides if pilotta is None else pilotta,
    )
    assert result.total is not None
    assert result.raw == result.score
    return result.made, result.total, result.score


def test_four_players_made_each_side_scores_its_own_total() -> None:
    assert score(0, (90, 72), (5, 3)) == (True, (90, 72), (90, 72))
    assert score(1, (72, 90), (3, 5)) == (True, (72, 90), (72, 90))


def test_raw_points_go_on_the_sheet_with_no_rule_of_6() -> None:
    result = score_classic(taker(0), (86, 76), (4, 4), nothing(2), (0, 0))
    assert (result.raw, result.score) == ((86, 76), (86, 76))
    result = score_classic(taker(1), (126, 36), (6, 2), nothing(2), (0, 0))
    assert (result.made, result.score) == (False, (126, 0))


def test_a_tie_with_the_defenders_is_made() -> None:
    assert score(0, (81, 81), (4, 4)) == (True, (81, 81), (81, 81))


def test_failed_the_taker_scores_only_its_pilotta() -> None:
    assert score(0, (80, 82), (4, 4)) == (False, (80, 82), (0, 82))
    made, total, sheet = score(0, (60, 102), (3, 5), pilotta=(20, 0))
    assert (made, total, sheet) == (False, (80, 102), (20, 102))


def test_declarations_and_pilotta_count_towards_the_contract() -> None:
    assert score(0, (76, 86), (4, 4), shown=[[TIERCE], []]) == (True, (96, 86), (96, 86))
    assert score(0, (76, 86), (4, 4), pilotta=(20, 0)) == (True, (96, 86), (96, 86))
    assert score(0, (76, 86), (4, 4), shown=[[], [TIERCE]]) == (False, (76, 106), (0, 106))


def test_a_failed_takers_declarations_are_reported_but_score_nothing() -> None:
    result = score_classic(taker(0), (40, 122), (2, 6), [[QUARTE], [TIERCE]], (0, 20))
    assert result.declarations == (50, 0)
    assert result.total == (90, 142)
    assert (result.made, result.score) == (False, (0, 142))


def test_three_players_made_needs_at_least_each_other_players_total() -> None:
    assert score(0, (60, 60, 42), (3, 3, 2)) == (True, (60, 60, 42), (60, 60, 42))
    assert score(0, (70, 50, 42), (4, 2, 2)) == (True, (70, 50, 42), (70, 50, 42))
    assert score(0, (50, 60, 52), (2, 3, 3)) == (False, (50, 60, 52), (0, 60, 52))
    assert score(2, (60, 60, 42), (3, 3, 2)) == (False, (60, 60, 42), (60, 60, 0))
    assert score(1, (50, 60, 52), (2, 3, 3)) == (True, (50, 60, 52), (50, 60, 52))
    assert score(1, (40, 61, 61), (2, 3, 3)) == (True, (40, 61, 61), (40, 61, 61))
    # Beating one of the others is not enough.
    assert score(1, (41, 60, 61), (2, 3, 3)) == (False, (41, 60, 61), (41, 0, 61))


def test_two_players_totals_vary_with_the_cards_dealt() -> None:
    assert score(0, (88, 45), (6, 2)) == (True, (88, 45), (88, 45))
    assert score(1, (88, 45), (6, 2)) == (False, (88, 45), (88, 0))


@pytest.mark.parametrize(
    ("side", "tricks", "total"),
    [
        (0, (8, 0), (262, 0)),
        (1, (0, 8), (0, 262)),
        (0, (8, 0, 0), (262, 0, 0)),
        (2, (0, 0, 8), (0, 0, 262)),
    ],
)
def test_a_capot_adds_100_to_the_side_that_took_every_trick(
    side: int, tricks: tuple[int, ...], total: tuple[int, ...]
) -> None:
    cards = tuple(162 if won == 8 else 0 for won in tricks)
    result = score_classic(taker(side), cards, tricks, nothing(len(tricks)), (0,) * len(tricks))
    assert (result.made, result.capot, result.total, result.score) == (True, side, total, total)
    assert result.card_points == cards  # without the bonus


def test_a_capot_against_the_taker_keeps_the_takers_pilotta() -> None:
    result = score_classic(taker(0), (0, 162), (0, 8), [[QUARTE], []], (20, 0))
    assert result.capot == 1
    assert result.declarations == (0, 0)  # no trick: the quarte is removed
    assert (result.made, result.total, result.score) == (False, (20, 262), (20, 262))
    result = score_classic(taker(1), (0, 0, 162), (0, 0, 8), nothing(3), (0, 20, 0))
    assert (result.made, result.total, result.score) == (False, (0, 20, 262), (0, 20, 262))


def test_a_taker_with_every_trick_makes_and_one_without_a_trick_fails() -> None:
    # Out-of-range figures, only to show the rule: tricks decide before any total.
    assert score(0, (10, 0), (8, 0), pilotta=(0, 20))[0] is True
    assert score(0, (0, 5, 5), (0, 4, 4), pilotta=(20, 0, 0)) == (
        False, (20, 5, 5), (20, 5, 5),
    )  # fmt: skip


def test_the_declarations_of_every_side_in_the_result() -> None:
    result = score_classic(taker(0), (50, 60, 52), (2, 3, 3), [[], [TIERCE], [QUARTE]], (0, 0, 0))
    assert result.declarations == (0, 0, 50)
    assert (result.made, result.total, result.score) == (False, (50, 60, 102), (0, 60, 102))


def test_a_whole_round_of_four_failed_by_the_taker() -> None:
    # Hearts, seat 0 takes; every seat plays its first legal card.
    state = play_out(classic_round(dealer=3, hands=FOUR, taker=0))
    assert [str(trick.winner) + ":" + str(trick.points) for trick in state.tricks] == [
        "2:37", "0:17", "0:4", "0:11", "3:14", "3:33", "3:7", "3:39",
    ]  # fmt: skip
    result = state.result
    assert result is not None
    assert (result.card_points, result.made, result.capot) == ((69, 93), False, None)
    assert (result.total, result.score, result.raw) == ((69, 93), (0, 93), (0, 93))


# Three players, dealer 2: seat 0 takes the turned QH and holds all six trumps.
CAPOT_THREE = [
    "JH 9H AH TH KH QH AC AS",
    "KC QC JC TC 9C KD QD JD",
    "AD TD 9D KS QS JS TS 9S",
]


def test_a_whole_round_of_three_won_capot_by_the_taker() -> None:
    state = classic_round(dealer=2, hands=CAPOT_THREE, taker=0)
    state = play(
        state,
        "JH 9C 9D 9H TC TD AH JC AD TH QC 9S +KH KC TS +QH JD JS AC QD QS AS KD KS",
    )
    assert state.phase is Phase.FINISHED
    assert all(trick.winner == 0 for trick in state.tricks)
    result = state.result
    assert result is not None
    assert (result.card_points, result.capot, result.made) == ((162, 0, 0), 0, True)
    # The two quintes of seats 1 and 2 were not shown; the pilotta was called.
    assert (result.declarations, result.pilotta) == ((0, 0, 0), (20, 0, 0))
    assert result.total == (162 + 100 + 20, 0, 0)
    assert result.score == (282, 0, 0)


def test_a_whole_round_of_two_counts_only_the_16_cards_dealt() -> None:
    state = classic_round(dealer=1, hands=TWO, taker=0, unused=TWO_UNUSED)
    state = play(state, "JH TH AH 9H QC AC TC JC KC 9C AD KD TD QD 9S TS")
    assert [trick.winner for trick in state.tricks] == [0, 1, 0, 0, 0, 0, 0, 1]
    result = state.result
    assert result is not None
    # Seat 0's cards are worth 77 and seat 1's 46: 123 + 10 for the last trick.
    assert result.card_points == (88, 45)
    assert (result.made, result.total, result.score) == (True, (88, 45), (88, 45))
