"""Scoring a round and the Rule of 6, by formula and by whole rounds."""

import pytest

from games.engine import Contract, Declaration, Phase, Suit, find_declarations, parse_cards
from games.engine.scoring import round_to_sheet, score_round

from .helpers import play_round

HEARTS = Suit.HEARTS
NONE: tuple[list[Declaration], list[Declaration]] = ([], [])


def contract(value: int = 80, multiplier: int = 1, team: int = 0) -> Contract:
    return Contract(team=team, seat=team, value=value, trump=HEARTS, multiplier=multiplier)


def decl(hand: str) -> Declaration:
    (declaration,) = find_declarations(parse_cards(hand))
    return declaration


QUARTE = decl("7C 8C 9C TC")
TIERCE = decl("7D 8D 9D")


@pytest.mark.parametrize(
    ("raw", "bidders", "sheet"),
    [
        ((287, 43), 0, (29, 4)),
        ((180, 62), 0, (18, 6)),
        ((85, 77), 0, (8, 8)),
        ((126, 36), 0, (13, 3)),
        ((126, 36), 1, (12, 4)),
        ((322, 0), 0, (32, 0)),
        ((0, 262), 0, (0, 26)),
        ((16, 146), 1, (1, 15)),
        ((146, 16), 0, (15, 1)),
        ((76, 86), 0, (8, 8)),
        ((76, 84), 1, (8, 8)),
    ],
)
def test_the_rule_of_6(raw: tuple[int, int], bidders: int, sheet: tuple[int, int]) -> None:
    assert round_to_sheet(raw, bidders) == sheet


def test_made_unclosed_adds_the_bid_to_the_bidders() -> None:
    result = score_round(contract(80), (97, 65), (5, 3), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (True, (177, 65), (18, 6))
    assert result.capot is None


def test_made_at_exactly_the_bid() -> None:
    result = score_round(contract(90), (90, 72), (4, 4), NONE, (0, 0))
    assert (result.made, result.raw) == (True, (180, 72))


def test_failed_unclosed_gives_the_defenders_everything() -> None:
    result = score_round(contract(100), (90, 72), (4, 4), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (False, (0, 262), (0, 26))


def test_declarations_count_towards_the_contract() -> None:
    result = score_round(contract(100), (85, 77), (4, 4), ([QUARTE], []), (0, 0))
    assert (result.made, result.declarations, result.raw) == (True, (50, 0), (235, 77))


def test_the_pilotta_counts_towards_the_contract() -> None:
    result = score_round(contract(100), (85, 77), (4, 4), NONE, (20, 0))
    assert (result.made, result.pilotta, result.raw) == (True, (20, 0), (205, 77))


def test_failed_bidders_pilotta_goes_to_the_defenders() -> None:
    result = score_round(contract(120), (80, 82), (3, 5), NONE, (20, 0))
    assert (result.made, result.raw) == (False, (0, 302))


def test_the_defenders_keep_their_winning_declarations_in_a_made_round() -> None:
    kings, quinte = decl("KC KD KH KS"), decl("7S 8S 9S TS JS")
    result = score_round(contract(80), (100, 62), (5, 3), ([quinte], [kings]), (0, 0))
    assert (result.declarations, result.raw, result.score) == ((0, 100), (180, 162), (18, 16))


def test_closed_and_made_scores_322_to_0() -> None:
    result = score_round(contract(80, 2), (97, 65), (5, 3), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (True, (322, 0), (32, 0))


def test_closed_and_failed_gives_the_defenders_twice_the_bid_and_all() -> None:
    result = score_round(contract(80, 2), (70, 92), (3, 5), NONE, (0, 0))
    assert (result.made, result.raw) == (False, (0, 322))


def test_in_a_closed_round_the_loser_scores_zero_pilotta_included() -> None:
    result = score_round(contract(80, 2), (100, 62), (5, 3), NONE, (0, 20))
    assert result.raw == (342, 0)


def test_reclosed_and_made() -> None:
    result = score_round(contract(80, 4), (97, 65), (5, 3), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (True, (482, 0), (48, 0))


def test_reclosed_and_failed_with_the_defenders_declarations() -> None:
    result = score_round(contract(80, 4), (60, 102), (2, 6), ([TIERCE], [QUARTE]), (0, 0))
    assert (result.made, result.declarations, result.raw) == (False, (0, 50), (0, 532))


def test_capot_by_the_bidders_scores_250_plus_bid_plus_declarations() -> None:
    result = score_round(contract(80), (162, 0), (8, 0), ([QUARTE], []), (0, 0))
    assert (result.capot, result.made, result.raw) == (0, True, (380, 0))
    assert result.card_points == (162, 0)


def test_a_capot_makes_a_bid_its_points_alone_would_not_reach() -> None:
    result = score_round(contract(300), (162, 0), (8, 0), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (True, (550, 0), (55, 0))


def test_capot_by_the_defenders_with_bidders_losing_declarations_and_pilotta() -> None:
    # The bidders' quarte would beat the defenders' tierce, but without a trick it is removed.
    result = score_round(contract(80), (0, 162), (0, 8), ([QUARTE], [TIERCE]), (20, 0))
    assert result.capot == 1
    assert not result.made
    assert (result.declarations, result.pilotta, result.raw) == ((0, 20), (0, 0), (0, 350))


def test_capot_by_the_defenders_of_a_closed_game() -> None:
    result = score_round(contract(90, 2), (0, 162), (0, 8), NONE, (0, 0))
    assert result.raw == (0, 180 + 250)


def test_bidders_for_team_1_are_scored_from_their_side() -> None:
    result = score_round(contract(80, team=1), (65, 97), (3, 5), NONE, (0, 0))
    assert (result.made, result.raw, result.score) == (True, (65, 177), (6, 18))


# Whole rounds through the API, with explicit hands.


def test_80_closed_and_made_97_to_65_scores_322_to_0() -> None:
    state = play_round(
        dealer=3,
        hands=[
            "JH TH QC KH JC JD AD 7H",
            "7C 9D KD 8S KC 7D 8C QD",
            "9S 8H QH 9H TD JS AS 7S",
            "TS AH 9C KS 8D TC AC QS",
        ],
        actions=["0 bid 80 H", "1 close", "2 pass", "3 pass", "0 pass"],
        cards="JH KC QH AH TH 7C 9H TS 9S KS 7H 8S QC 8C 8H 9C "
        "AS QS KH 9D JC 7D TD TC AC AD KD 7S 8D JD QD JS",
    )
    assert state.phase is Phase.FINISHED
    assert state.contract == contract(80, 2)
    result = state.result
    assert result is not None
    assert result.card_points == (97, 65)
    assert (result.declarations, result.pilotta, result.capot) == ((0, 0), (0, 0), None)
    assert (result.made, result.raw, result.score) == (True, (322, 0), (32, 0))


def test_a_pilotta_survives_four_jacks() -> None:
    # Seat 0 (bidders) shows four Jacks, seat 2 four Aces and a tierce; seat 1 holds the
    # King and Queen of trumps and calls both: the 20 stays with the defenders.
    state = play_round(
        dealer=3,
        hands=[
            "JH 7C JS TH JC QS 9S JD",
            "KS KC KH 8H 7S QC QH 9D",
            "AD QD 9H AC AH KD AS TD",
            "TC 8D 8S 8C 9C 7H 7D TS",
        ],
        actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"],
        cards="announce JC QC announce AC announce 8C show AD show 8D show JD 9D 9H 7H JH +QH "
        "JS 7S AS TS AH 8S TH 8H QD 7D QS +KH KS KD 9C 9S KC TD TC 7C",
    )
    result = state.result
    assert result is not None
    assert [d.value for s in (0, 2) for d in state.shown(s)] == [200, 20, 100]
    assert result.declarations == (320, 0)
    assert result.pilotta == (0, 20)
    assert result.card_points == (110, 52)
    assert (result.made, result.raw, result.score) == (True, (510, 72), (51, 7))


def test_bidders_without_a_trick_lose_declarations_and_pilotta_to_a_capot() -> None:
    state = play_round(
        dealer=3,
        hands=[
            "KC 9C QH KH 7D 9D QD 8D",
            "AS KS TS 7H QC AC 7S TD",
            "TH AD JC AH 9S KD JD 8C",
            "JH 9H 7C TC JS QS 8H 8S",
        ],
        actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"],
        cards="announce +QH 7H AH JH TC show KC AC 8C TD KD 8H 9D 9H +KH AS TH JS 9C KS 9S "
        "TS JC 8S QD QC JD 7C 7D 7S AD QS 8D",
    )
    result = state.result
    assert result is not None
    assert state.pilotta_calls == ((0, parse_cards("QH")[0]), (0, parse_cards("KH")[0]))
    assert [d.value for d in state.shown(0)] == [20]
    assert (result.capot, result.made) == (1, False)
    assert (result.declarations, result.pilotta) == ((0, 0), (0, 0))
    assert (result.card_points, result.raw, result.score) == ((0, 162), (0, 330), (0, 33))
