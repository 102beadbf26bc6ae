"""Classic declarations and pilotta: the comparison, ties, no trick, 24 cards."""

import pytest

from games.engine import (
    Announce,
    Card,
    Declaration,
    Play,
    Reason,
    RoundState,
    Show,
    find_declarations,
    parse_cards,
)
from games.engine.declarations import classic_declaration_winner

from .classic_helpers import classic_round, new_classic, take
from .helpers import play


def one(hand: str) -> Declaration:
    (declaration,) = find_declarations(parse_cards(hand))
    return declaration


TIERCE_A = one("AC KC QC")
TIERCE_A_HEARTS = one("AH KH QH")
TIERCE_K = one("KS QS JS")
TIERCE_9 = one("9D TD JD")
QUARTE = one("7D 8D 9D TD")
QUINTE = one("9S TS JS QS KS")
QUINTE_HIGH = one("TH JH QH KH AH")
SIX = one("8C 9C TC JC QC KC")
FOUR_JACKS = one("JC JD JH JS")
FOUR_NINES = one("9C 9D 9H 9S")
FOUR_ACES = one("AC AD AH AS")
FOUR_TENS = one("TC TD TH TS")
FOUR_KINGS = one("KC KD KH KS")
FOUR_QUEENS = one("QC QD QH QS")


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        (QUARTE, TIERCE_A),  # value first
        (QUINTE, QUARTE),
        (FOUR_KINGS, QUINTE_HIGH),  # equal value: a four beats a run
        (FOUR_KINGS, SIX),
        (FOUR_ACES, FOUR_TENS),  # fours of equal value: A > 10 > K > Q
        (FOUR_TENS, FOUR_KINGS),
        (FOUR_KINGS, FOUR_QUEENS),
        (FOUR_NINES, FOUR_ACES),  # 150 over 100
        (FOUR_JACKS, FOUR_NINES),  # 200 over 150
        (SIX, QUINTE_HIGH),  # runs of equal value: the longer
        (QUINTE_HIGH, QUINTE),  # then the higher top card
        (TIERCE_A, TIERCE_K),
        (TIERCE_K, TIERCE_9),
    ],
)
def test_the_classic_comparison_order(better: Declaration, worse: Declaration) -> None:
    assert classic_declaration_winner([[better], [worse]]) == 0
    assert classic_declaration_winner([[worse], [better]]) == 1
    assert classic_declaration_winner([[worse], [better], []]) == 1
    assert classic_declaration_winner([[], [worse], [better]]) == 2


def test_equal_best_runs_cancel_every_declaration_trumps_or_not() -> None:
    # No trump in the comparison: A K Q of hearts ties A K Q of clubs whatever the trump.
    assert classic_declaration_winner([[TIERCE_A_HEARTS, TIERCE_9], [TIERCE_A]]) is None
    assert classic_declaration_winner([[TIERCE_A], [TIERCE_A_HEARTS], [QUARTE]]) == 2
    # Two of three players share the best: the third scores nothing either.
    assert classic_declaration_winner([[TIERCE_A], [TIERCE_A_HEARTS], [TIERCE_9]]) is None
    assert classic_declaration_winner([[QUINTE], [TIERCE_K], [one("9H TH JH QH KH")]]) is None


def test_a_side_with_the_best_declaration_alone_wins_and_nothing_shown_is_none() -> None:
    assert classic_declaration_winner([[], []]) is None
    assert classic_declaration_winner([[], [], []]) is None
    assert classic_declaration_winner([[TIERCE_9], []]) == 0
    assert classic_declaration_winner([[TIERCE_9, TIERCE_A], [TIERCE_K]]) == 0


def test_runs_with_24_cards_go_from_the_ace_down_to_the_nine() -> None:
    assert [(d.kind, d.length, d.value) for d in find_declarations(parse_cards("9S TS JS"))] == [
        ("run", 3, 20)
    ]
    (six,) = find_declarations(parse_cards("AH KH QH JH TH 9H"))
    assert (six.length, six.value, str(six.top)) == (6, 100, "AH")
    assert find_declarations(parse_cards("9C 9D 9H 9S"))[0].value == 150


def finish(state: RoundState) -> RoundState:
    """Play on: announce and show whenever offered, call pilotta when allowed, else the
    first legal card."""
    while (seat := state.to_act) is not None:
        legal = state.legal_actions()
        if Announce() in legal:
            state = state.apply(seat, Announce())
        elif Show() in legal:
            state = state.apply(seat, Show())
        else:
            card = next(a.card for a in legal if isinstance(a, Play))
            called = Play(card, pilotta=True)
            state = state.apply(
                seat, called if state.why_illegal(seat, called) is None else Play(card)
            )
    return state


def tricks_by_side(state: RoundState) -> list[int]:
    won = [0] * state.ruleset.sides
    for trick in state.tricks:
        won[state.ruleset.side_of(trick.winner)] += 1
    return won


# Four players, dealer 3, seat 0 takes the turned 9H. Seat 0 holds A K Q of trumps, seat 2
# J 10 9 of spades; seat 1 holds A K Q of clubs.
TIE_FOUR = [
    "AH KH QH 7C 8D 9H 7S 8S",
    "AC KC QC 7H 8H 9D TD 7D",
    "9S TS JS KS 8C TC JD KD",
    "9C JC QD AD JH TH QS AS",
]


def test_equal_best_runs_of_two_teams_cancel_all_declarations_in_trumps_too() -> None:
    state = finish(classic_round(dealer=3, hands=TIE_FOUR, taker=0))
    assert [len(state.shown(seat)) for seat in range(4)] == [1, 1, 1, 0]
    assert all(tricks_by_side(state))
    assert state.result is not None
    assert state.result.declarations == (0, 0)
    assert state.result.pilotta == (20, 0)


# Three players, dealer 2, seat 0 takes the turned 9H: seats 0 and 1 hold A K Q tierces,
# seat 2 a J 10 9.
TIE_THREE = [
    "AH KH QH TC AS 9H QD JD",
    "AC KC QC KS QS JH AD 9D",
    "JS TS 9S TH JC 9C KD TD",
]


def test_equal_best_runs_of_two_of_three_players_cancel_the_third_players_too() -> None:
    state = classic_round(dealer=2, hands=TIE_THREE, taker=0)
    # Seat 1 wins the first trick with the Ace of clubs, seat 0 the second with the Ace of
    # spades: both take a trick and keep their tierces until the comparison.
    state = play(state, "announce TC announce AC announce JC")
    state = play(state, "show KS show 9S show AS")
    state = finish(state)
    assert [len(state.shown(seat)) for seat in range(3)] == [1, 1, 1]
    assert all(tricks_by_side(state))
    assert state.result is not None
    assert state.result.declarations == (0, 0, 0)


# Dealer 3; seat 1 takes the turned KH, which completes its King and Queen of trumps, but
# seat 0's team takes every trick. Seat 0 holds J 10 9 8 of trumps (50), seat 2 two K Q J
# tierces (20 each), seat 3 J 10 9 8 of spades (50).
CAPOT = [
    "JH 9H AH TH 8H AC AD KS",
    "7C 8C 7D 8D 7S KH QH 7H",
    "KC QC JC KD QD JD AS QS",
    "JS TS 9S 8S TD 9D TC 9C",
]
CAPOT_PLAY = (
    "announce JH +KH announce QS announce 8S "
    "show 9H +QH show JD show 9S "
    "AH 7H QD TS TH 7S KD JS 8H 7D QC 9D AC 7C JC TC AD 8D KC TD KS 8C AS 9C"
)


def capot() -> RoundState:
    return play(classic_round(dealer=3, hands=CAPOT, taker=1), CAPOT_PLAY)


def test_the_pilotta_is_the_king_and_queen_after_the_completion_turned_card_included() -> None:
    state = classic_round(dealer=3, hands=CAPOT, taker=1)
    assert Card.parse("KH") not in state.first_hands[1]
    assert state.why_illegal(0, Play(Card.parse("JH"), pilotta=True)) is Reason.BAD_PILOTTA_CALL
    state = play(state, "JH +KH")
    assert state.pilotta_calls == ((1, Card.parse("KH")),)


def test_a_team_without_a_trick_loses_its_declarations_before_the_comparison() -> None:
    state = capot()
    # Seat 3 showed a quarte that would tie seat 0's; without a trick it is removed first,
    # so team 0 scores its quarte and both tierces.
    assert state.shown(3) == find_declarations(parse_cards(CAPOT[3]))
    assert [d.value for d in state.shown(0)] == [50]
    assert [d.value for d in state.shown(2)] == [20, 20]
    assert tricks_by_side(state) == [8, 0]
    assert state.result is not None
    assert state.result.declarations == (90, 0)


def test_a_team_without_a_trick_keeps_its_pilotta_even_against_a_capot() -> None:
    result = capot().result
    assert result is not None
    assert result.pilotta == (0, 20)
    assert result.capot == 0
    assert result.made is False
    assert result.card_points == (162, 0)
    assert result.total == (162 + 100 + 90, 20)
    assert result.score == (352, 20)


def test_a_missed_call_loses_the_pilotta() -> None:
    state = play(classic_round(dealer=3, hands=CAPOT, taker=1), "JH KH")
    assert state.pilotta_calls == ()
    # A call on the Queen after an uncalled King is refused.
    state = play(state, "QS 8S 9H")
    assert state.why_illegal(1, Play(Card.parse("QH"), pilotta=True)) is Reason.BAD_PILOTTA_CALL


def test_the_pilotta_of_a_named_suit() -> None:
    # Round 2: seat 2 names diamonds; the completion brings it the turned King of hearts and
    # two spades, and it holds the King and Queen of diamonds.
    state = take(new_classic(dealer=3, hands=CAPOT, taker=1), 2, name="D")
    assert state.hand(2) == parse_cards("KC QC JC KD QD KH AS QS")
    state = play(state, "AD")
    assert [str(a.card) for a in state.legal_actions() if isinstance(a, Play)] == ["JD"]
    assert state.why_illegal(1, Play(Card.parse("JD"), pilotta=True)) is Reason.BAD_PILOTTA_CALL
    state = play(state, "JD +KD")
    assert state.pilotta_calls == ((2, Card.parse("KD")),)
