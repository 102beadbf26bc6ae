"""Declarations: finding, comparing, announcing, showing, and the pilotta."""

import itertools

import pytest

from games.engine import (
    Announce,
    Card,
    Declaration,
    Play,
    Reason,
    RoundState,
    Show,
    Suit,
    compare_declarations,
    declaration_winner,
    find_declarations,
    parse_action,
    parse_cards,
)

from .helpers import play, play_out, play_round

HEARTS = Suit.HEARTS


def found(hand: str) -> list[tuple[str, str, int]]:
    return [
        (d.kind, " ".join(str(c) for c in d.cards), d.value)
        for d in find_declarations(parse_cards(hand))
    ]


def one(hand: str) -> Declaration:
    (declaration,) = find_declarations(parse_cards(hand))
    return declaration


def test_runs_of_3_4_and_5_score_20_50_100() -> None:
    assert found("7S 8S 9S") == [("run", "9S 8S 7S", 20)]
    assert found("TS JS QS KS") == [("run", "KS QS JS TS", 50)]
    assert found("9D TD JD QD KD") == [("run", "KD QD JD TD 9D", 100)]


def test_runs_follow_the_natural_order_whatever_the_trump() -> None:
    # A K Q J 10 9 8 7: 9 10 J is a run, J 9 A (trump order) is not.
    assert found("9H TH JH") == [("run", "JH TH 9H", 20)]
    assert found("JH 9H AH") == []
    assert found("AC 7C 8C") == []


@pytest.mark.parametrize("length", [6, 7, 8])
def test_long_runs_count_once_at_full_length_for_100(length: int) -> None:
    hand = " ".join(r + "C" for r in "789TJQKA"[:length])
    ((kind, cards, value),) = found(hand)
    assert (kind, len(cards.split()), value) == ("run", length, 100)


def test_two_runs_in_one_suit_are_separate() -> None:
    assert found("7S 8S 9S JS QS KS") == [("run", "9S 8S 7S", 20), ("run", "KS QS JS", 20)]


def test_fours_of_a_kind_score_by_rank() -> None:
    values = {r: found(" ".join(r + s for s in "CDHS")) for r in "JA9TKQ87"}
    assert values["J"] == [("four", "JS JH JD JC", 200)]
    assert values["9"] == [("four", "9S 9H 9D 9C", 150)]
    for rank in "ATKQ":
        assert values[rank][0][2] == 100
    assert values["8"] == []
    assert values["7"] == []


def test_a_card_may_be_in_a_run_and_a_four() -> None:
    assert found("KC KD KH KS QS JS") == [("run", "KS QS JS", 20), ("four", "KS KH KD KC", 100)]


def test_the_announcement_reveals_kind_length_and_value_only() -> None:
    assert one("TS JS QS KS").announcement == ("run", 4, 50)
    assert one("JC JD JH JS").announcement == ("four", 4, 200)


def test_higher_value_wins() -> None:
    assert compare_declarations(one("JC JD JH JS"), one("9C 9D 9H 9S"), HEARTS) == 1
    assert compare_declarations(one("7S 8S 9S"), one("7D 8D 9D TD"), HEARTS) == -1


def test_four_kings_beat_a_quinte() -> None:
    kings, quinte = one("KC KD KH KS"), one("9H TH JH QH KH".replace("KH", "8H"))
    assert quinte.value == kings.value == 100
    assert compare_declarations(kings, quinte, HEARTS) == 1
    assert declaration_winner([[quinte], [kings]], HEARTS) == 1


def test_equal_fours_rank_aces_tens_kings_queens() -> None:
    order = [one(" ".join(r + s for s in "CDHS")) for r in "ATKQ"]
    for higher, lower in itertools.pairwise(order):
        assert compare_declarations(higher, lower, HEARTS) == 1


def test_longer_run_then_higher_top_card() -> None:
    six, five = one("7C 8C 9C TC JC QC"), one("TD JD QD KD AD")
    assert compare_declarations(six, five, HEARTS) == 1
    assert compare_declarations(one("TD JD QD KD"), one("9C TC JC QC"), HEARTS) == 1


def test_equal_quartes_to_the_king_the_trump_one_wins() -> None:
    hearts, spades = one("TH JH QH KH"), one("TS JS QS KS")
    assert compare_declarations(hearts, spades, HEARTS) == 1
    assert declaration_winner([[spades], [hearts]], HEARTS) == 1


def test_equal_runs_outside_trumps_void_each_other() -> None:
    clubs, spades = one("TC JC QC KC"), one("TS JS QS KS")
    assert compare_declarations(clubs, spades, HEARTS) == 0
    assert declaration_winner([[clubs], [spades]], HEARTS) is None


def test_a_teams_own_equal_runs_are_ranked_by_trump_first() -> None:
    clubs, hearts, spades = one("TC JC QC KC"), one("TH JH QH KH"), one("TS JS QS KS")
    assert declaration_winner([[clubs, hearts], [spades]], HEARTS) == 0


def test_tierce_and_quarte_lose_to_a_quinte() -> None:
    team0 = [one("7C 8C 9C"), one("7D 8D 9D TD")]
    team1 = [one("7S 8S 9S TS JS")]
    assert declaration_winner([team0, team1], HEARTS) == 1


def test_a_team_with_no_declaration_loses_to_any() -> None:
    assert declaration_winner([[], [one("7C 8C 9C")]], HEARTS) == 1
    assert declaration_winner([[one("7C 8C 9C")], []], HEARTS) == 0
    assert declaration_winner([[], []], HEARTS) is None


# Announce and show through the API.  Hearts are trumps; every hand holds a declaration:
# seat 0 the clubs 9 to A (100), seat 1 the spades J to A (50), seat 2 the spades 7 to 10 (50),
# seat 3 the diamonds 8 to K (100).
HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]


def started() -> RoundState:
    return play_round(dealer=3, hands=HANDS, actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"])


def reason(state: RoundState, step: str) -> Reason | None:
    seat, text = step.split(" ", 1)
    return state.why_illegal(int(seat), parse_action(text))


def test_announce_is_offered_in_trick_1_and_keeps_the_turn() -> None:
    state = started()
    assert state.legal_actions()[0] == Announce()
    assert reason(state, "0 show") is Reason.CANNOT_SHOW
    state = play(state, "announce")
    assert state.to_act == 0
    assert Announce() not in state.legal_actions()
    assert reason(state, "0 announce") is Reason.CANNOT_ANNOUNCE
    assert state.announcements(0) == (("run", 6, 100),)
    assert state.observation(1).announcements[0] == (("run", 6, 100),)


def test_announce_needs_a_declaration_in_the_hand() -> None:
    hands = ["7C 9C JC KC 7D 9D JD KD", "8C TC QC AC 8D TD QD AD"]
    hands += ["7H 9H JH KH 7S 9S JS KS", "8H TH QH AH 8S TS QS AS"]
    state = play_round(dealer=3, hands=hands, actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"])
    assert Announce() not in state.legal_actions()
    assert reason(state, "0 announce") is Reason.CANNOT_ANNOUNCE


def test_show_is_offered_in_trick_2_to_who_announced() -> None:
    state = play(started(), "announce AC 7C TH JH")  # seat 3 wins and leads trick 2
    assert reason(state, "3 announce") is Reason.CANNOT_ANNOUNCE
    assert reason(state, "3 show") is Reason.CANNOT_SHOW
    state = play(state, "KH")
    assert state.legal_actions()[0] == Show()
    assert state.shown(0) == ()
    state = play(state, "show")
    assert state.to_act == 0
    assert reason(state, "0 show") is Reason.CANNOT_SHOW
    (shown,) = state.shown(0)
    assert shown.cards == parse_cards("AC KC QC JC TC 9C")
    assert state.observation(2).shown[0] == (shown,)


def test_declarations_not_shown_in_trick_2_are_lost() -> None:
    # Seats 0 and 1 announce; seat 1 plays trick 2 without showing; seat 0 shows.
    state = play(started(), "announce AC announce 7C TH JH KH show 9C 9H")
    assert reason(state, "1 show") is Reason.NOT_YOUR_TURN  # its turn in trick 2 has passed
    state = play_out(state)
    assert state.shown(1) == ()
    assert state.result is not None
    assert state.result.declarations == (100, 0)


def test_declarations_not_announced_in_trick_1_are_lost() -> None:
    state = play(started(), "AC 7C TH JH KH")
    assert reason(state, "0 show") is Reason.CANNOT_SHOW
    assert reason(state, "0 announce") is Reason.CANNOT_ANNOUNCE
    state = play_out(state)
    assert state.result is not None
    assert state.result.declarations == (0, 0)


def test_the_higher_top_card_wins_between_the_six_card_runs() -> None:
    state = play(started(), "announce AC 7C TH announce JH show KH show 9C 9H QH")
    state = play_out(state)
    assert [len(state.shown(s)) for s in range(4)] == [1, 0, 0, 1]
    assert state.result is not None
    assert state.result.declarations == (100, 0)


# The pilotta: seat 0 holds the King and Queen of hearts, the trumps.
PILOTTA_HANDS = [
    "JH 9H AH TH KH QH 7C 8C",
    "7H 7D 8D 9D TD 7S 8S 9S",
    "8H JD QD KD AD TS JS QS",
    "9C TC JC QC KC AC KS AS",
]
KING, QUEEN = Card.parse("KH"), Card.parse("QH")


def pilotta_round() -> RoundState:
    actions = ["0 bid 80 H", "1 pass", "2 pass", "3 pass"]
    return play_round(dealer=3, hands=PILOTTA_HANDS, actions=actions)


def test_pilotta_and_repilotta_score_20() -> None:
    state = play(pilotta_round(), "+KH 7H 8H 9C +QH")
    assert state.pilotta_calls == ((0, KING), (0, QUEEN))
    state = play_out(state)
    assert state.result is not None
    assert state.result.pilotta == (20, 0)


def test_the_call_may_start_with_the_queen() -> None:
    state = play_out(play(pilotta_round(), "+QH 7H 8H 9C +KH"))
    assert state.result is not None
    assert state.result.pilotta == (20, 0)


def test_a_missed_repilotta_loses_the_20() -> None:
    state = play_out(play(pilotta_round(), "+KH 7H 8H 9C QH"))
    assert state.result is not None
    assert state.result.pilotta == (0, 0)


def test_a_call_on_the_second_card_alone_is_refused() -> None:
    state = play(pilotta_round(), "KH 7H 8H 9C")
    assert state.why_illegal(0, Play(QUEEN, pilotta=True)) is Reason.BAD_PILOTTA_CALL
    assert state.why_illegal(0, Play(QUEEN)) is None


@pytest.mark.parametrize("card", ["JH", "7C", "AH"])
def test_a_call_on_another_card_is_refused(card: str) -> None:
    action = Play(Card.parse(card), pilotta=True)
    assert pilotta_round().why_illegal(0, action) is Reason.BAD_PILOTTA_CALL


def test_only_the_player_dealt_both_may_call() -> None:
    state = play(pilotta_round(), "JH 7H 8H")
    assert state.why_illegal(3, Play(Card.parse("KS"), pilotta=True)) is Reason.BAD_PILOTTA_CALL
    # King and Queen of trumps in two hands: no pilotta for anyone.
    split = play(started(), "AC 7C TH JH")
    assert split.why_illegal(3, Play(Card.parse("KH"), pilotta=True)) is Reason.BAD_PILOTTA_CALL


def test_a_card_rule_outranks_a_bad_call() -> None:
    state = play(pilotta_round(), "+KH 7H")
    assert state.why_illegal(2, Play(Card.parse("JD"), pilotta=True)) is Reason.MUST_FOLLOW_SUIT


def test_a_false_flag_is_a_plain_play() -> None:
    state = pilotta_round()
    assert state.apply(0, Play(KING, pilotta=False)) == state.apply(0, Play(KING))
