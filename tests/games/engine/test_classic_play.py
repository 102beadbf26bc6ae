"""Classic play: legal cards, partner protection with four, tricks of n cards."""

import pytest

from games.engine import (
    Card,
    IllegalActionError,
    Phase,
    Play,
    Reason,
    RoundState,
    parse_cards,
)
from games.engine.cards import mask_cards
from games.engine.play import legal_mask, partner_is_winning

from .classic_helpers import classic_round
from .helpers import play
from .test_classic_dealing import FOUR, THREE

# Dealer 3, seat 0 leads. With seat 0 taking the turned TH, hearts are trumps:
#   seat 0: AC KC QC AD KD TH AS 7S    seat 1: 9H QH 7D 8D 9D TD JD QD
#   seat 2: JH 8H 9S TS JS QS KS 8S    seat 3: 7C 8C 9C TC JC AH KH 7H


def hearts() -> RoundState:
    return classic_round(dealer=3, hands=FOUR, taker=0)


def legal_cards(state: RoundState) -> set[str]:
    return {str(action.card) for action in state.legal_actions() if isinstance(action, Play)}


def why(state: RoundState, card: str) -> Reason | None:
    assert state.to_act is not None
    return state.why_illegal(state.to_act, Play(Card.parse(card)))


def held(state: RoundState) -> set[str]:
    assert state.to_act is not None
    return {str(card) for card in state.hand(state.to_act)}


def test_the_dealers_right_leads_any_card() -> None:
    state = hearts()
    assert (state.phase, state.to_act) == (Phase.PLAY, 0)
    assert legal_cards(state) == set(FOUR[0].split())


def test_a_player_holding_the_led_suit_must_follow_it() -> None:
    state = play(hearts(), "AD")
    assert legal_cards(state) == {"7D", "8D", "9D", "TD", "JD", "QD"}
    assert why(state, "9H") is Reason.MUST_FOLLOW_SUIT
    assert why(state, "AC") is Reason.CARD_NOT_IN_HAND


def test_on_a_led_trump_each_player_must_beat_the_highest_trump() -> None:
    state = play(hearts(), "TH")
    assert legal_cards(state) == {"9H"}
    assert why(state, "QH") is Reason.MUST_BEAT_TRUMP
    assert why(state, "7D") is Reason.MUST_FOLLOW_SUIT
    state = play(state, "9H")
    assert legal_cards(state) == {"JH"}
    assert why(state, "8H") is Reason.MUST_BEAT_TRUMP
    state = play(state, "JH")
    # Nothing beats the Jack: any trump, but a trump.
    assert legal_cards(state) == {"AH", "KH", "7H"}
    assert why(state, "7C") is Reason.MUST_FOLLOW_SUIT


def test_on_a_led_trump_a_player_must_beat_the_partners_trump_too() -> None:
    # Seat 0 names spades in round 2 and leads the Ace: seat 2 must beat its partner's trump.
    state = classic_round(dealer=3, hands=FOUR, taker=0, name="S")
    state = play(state, "AS")
    assert legal_cards(state) == held(state)  # seat 1 holds no trump: any card
    state = play(state, "7D")
    assert state.to_act == 2
    assert legal_cards(state) == {"9S", "JS"}
    assert why(state, "KS") is Reason.MUST_BEAT_TRUMP
    assert why(state, "8H") is Reason.MUST_FOLLOW_SUIT


def test_against_an_opponent_winning_with_the_led_suit_a_void_player_must_trump() -> None:
    state = play(hearts(), "AS")
    assert state.to_act == 1
    assert legal_cards(state) == {"9H", "QH"}
    assert why(state, "7D") is Reason.MUST_TRUMP


def test_partner_winning_with_a_trump_the_fourth_may_discard_or_undertrump_if_unable() -> None:
    # Seat 1 trumps the Ace of spades with the 9; seat 3 (its partner) cannot beat the 9.
    state = play(hearts(), "AS 9H 8S")
    assert state.to_act == 3
    assert legal_cards(state) == held(state)
    assert why(state, "7C") is None
    assert why(state, "7H") is None


def test_partner_winning_with_a_trump_the_fourth_must_overtrump_when_it_plays_a_trump() -> None:
    # Seat 1 trumps with the Queen; seat 3 holds the Ace and King, which beat it.
    state = play(hearts(), "AS QH 8S")
    assert legal_cards(state) == {"7C", "8C", "9C", "TC", "JC", "AH", "KH"}
    assert why(state, "7H") is Reason.MUST_OVERTRUMP
    state = play(state, "7C")  # a discard is allowed
    assert state.tricks[-1].winner == 1
    assert state.tricks[-1].cards == parse_cards("AS QH 8S 7C")


def test_partner_winning_with_the_led_suit_and_no_trump_any_card_is_legal() -> None:
    state = play(hearts(), "AD 7D")
    assert state.to_act == 2
    assert legal_cards(state) == held(state)
    assert why(state, "8S") is None
    assert why(state, "8H") is None


def test_opponent_winning_with_the_led_suit_the_fourth_must_trump() -> None:
    state = play(hearts(), "AD 7D 8S")
    assert state.to_act == 3
    assert legal_cards(state) == {"AH", "KH", "7H"}
    assert why(state, "7C") is Reason.MUST_TRUMP


def test_opponent_winning_with_a_trump_the_fourth_must_overtrump() -> None:
    state = play(hearts(), "AD 7D 8H")
    assert legal_cards(state) == {"AH", "KH"}
    assert why(state, "7H") is Reason.MUST_OVERTRUMP
    assert why(state, "7C") is Reason.MUST_OVERTRUMP


def test_opponent_winning_with_a_trump_the_fourth_must_still_undertrump() -> None:
    state = play(hearts(), "AD 7D JH")
    assert legal_cards(state) == {"AH", "KH", "7H"}
    assert why(state, "7C") is Reason.MUST_UNDERTRUMP


# Seat 1 takes the turned 9H; seat 0 leads a club, which nobody else holds.
UNDER = [
    "AC KC QC JC TC 9C 8C 7C",
    "7D 8D 9D TD JD 9H QD KD",
    "7S 8S 9S TS JS 7H QS KS",
    "JH 8H AH TH KH QH AD AS",
]
# The same, but seat 2 holds no trump (it has the Ace of spades) and seat 3 the Seven.
DISCARD = [*UNDER[:2], "7S 8S 9S TS JS AS QS KS", "JH 8H AH TH KH QH AD 7H"]


def test_after_the_partners_trump_and_an_undertrump_the_fourth_must_beat_or_discard() -> None:
    # The seed's case: partner trumped, the opponent before under-trumped.
    state = classic_round(dealer=3, hands=UNDER, taker=1)
    state = play(state, "AC")
    assert legal_cards(state) == {"9H"}  # seat 1, against seat 0's Ace: must trump
    state = play(state, "9H")
    assert legal_cards(state) == {"7H"}  # seat 2 cannot beat the 9: must undertrump
    assert why(state, "7S") is Reason.MUST_UNDERTRUMP
    state = play(state, "7H")
    # Seat 3: its partner's 9 wins; it may discard, or beat the 9 with the Jack, not undertrump.
    assert legal_cards(state) == {"JH", "AD", "AS"}
    for card in ("8H", "AH", "TH", "KH", "QH"):
        assert why(state, card) is Reason.MUST_OVERTRUMP
    assert play(state, "AD").tricks[0].winner == 1


def test_after_the_partners_trump_and_a_discard_the_fourth_may_discard() -> None:
    state = classic_round(dealer=3, hands=DISCARD, taker=1)
    state = play(state, "AC 9H")
    assert legal_cards(state) == held(state)  # seat 2 holds no trump
    state = play(state, "AS")
    assert legal_cards(state) == {"JH", "AD"}
    assert why(state, "7H") is Reason.MUST_OVERTRUMP
    state = play(state, "JH")
    assert state.tricks[0].winner == 3


# Three players, dealer 2, seat 0 takes the turned JH:
#   seat 0: AC TC KC AD TD JH AH 9S   seat 1: QC JC 9C KD QD 9H TH TS
#   seat 2: AS KS QS JS JD KH QH 9D


def test_three_players_have_no_partner_protection() -> None:
    state = classic_round(dealer=2, hands=THREE, taker=0)
    assert state.to_act == 0
    state = play(state, "AC")
    assert legal_cards(state) == {"QC", "JC", "9C"}
    state = play(state, "9C")
    # Seat 2 is void in clubs; the seat two places before it (seat 0) is no partner.
    assert legal_cards(state) == {"KH", "QH"}
    assert why(state, "9D") is Reason.MUST_TRUMP
    state = play(state, "QH")
    trick = state.tricks[0]
    assert (trick.leader, trick.winner, trick.points) == (0, 2, 11 + 0 + 3)
    assert trick.cards == parse_cards("AC 9C QH")
    assert [trick.seat_of(position, 3) for position in range(3)] == [0, 1, 2]
    assert state.to_act == 2  # the winner leads


def test_three_players_must_overtrump_or_undertrump() -> None:
    state = classic_round(dealer=2, hands=THREE, taker=0)
    # Seat 0 leads the 9 of spades, seat 1 follows, seat 2 wins with the Ace and leads the King.
    state = play(state, "9S TS AS KS")
    assert state.to_act == 0
    assert legal_cards(state) == {"JH", "AH"}  # void in spades: must trump
    # Over the Ace of trumps, seat 1's 9 beats it and its 10 does not: the 9 only.
    over = play(state, "AH")
    assert legal_cards(over) == {"9H"}
    assert why(over, "TH") is Reason.MUST_OVERTRUMP
    assert why(over, "QC") is Reason.MUST_OVERTRUMP
    # Over the Jack nothing beats: seat 1 must still play one of its lower trumps.
    under = play(state, "JH")
    assert legal_cards(under) == {"9H", "TH"}
    assert why(under, "QC") is Reason.MUST_UNDERTRUMP


# Two players, dealer 1: seat 0 takes the turned JH; seat 1 holds no spade.
TWO_VOID = ["AS KS QS JS TS JH 9S AH", "9C TC JC QC KC 9H TH AC"]
TWO_VOID_UNUSED = "9D TD JD QD KD AD KH QH"


def test_two_players_must_trump_a_led_side_suit() -> None:
    state = classic_round(dealer=1, hands=TWO_VOID, taker=0, unused=TWO_VOID_UNUSED)
    state = play(state, "AS")
    assert legal_cards(state) == {"9H", "TH"}
    assert why(state, "AC") is Reason.MUST_TRUMP
    state = play(state, "TH")
    assert (state.tricks[0].winner, state.tricks[0].points) == (1, 11 + 10)
    assert state.to_act == 1
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Play(Card.parse("AH")))
    assert caught.value.reason is Reason.NOT_YOUR_TURN


def test_a_round_has_8_tricks_of_n_cards_and_the_last_is_worth_10_more() -> None:
    state = classic_round(dealer=1, hands=TWO_VOID, taker=0, unused=TWO_VOID_UNUSED)
    while state.to_act is not None:
        action = next(a for a in state.legal_actions() if isinstance(a, Play))
        state = state.apply(state.to_act, action)
    assert state.phase is Phase.FINISHED
    assert len(state.tricks) == 8
    assert all(len(trick.cards) == 2 for trick in state.tricks)
    played = {card for trick in state.tricks for card in trick.cards}
    assert played == set(parse_cards(" ".join(TWO_VOID)))
    # Hearts trumps: seat 0's cards are worth 11+4+3+2+10+20+0+11 = 61, seat 1's
    # 0+10+2+3+4+14+10+11 = 54; the unused cards count for nothing.
    assert sum(trick.points for trick in state.tricks) == 61 + 54 + 10
    assert state.tricks[-1].points >= 10


def test_partner_is_winning_looks_at_the_seat_opposite() -> None:
    trump = Card.parse("JH").suit
    # Leader 0 leads, seat 1 plays: seat 2's partner (seat 0) is winning with the Ace.
    assert partner_is_winning(parse_cards("AC 7C"), 0, trump)
    assert not partner_is_winning(parse_cards("7C AC"), 0, trump)
    # Seat 3 to play after 0, 1, 2: partner seat 1 wins with a trump.
    assert partner_is_winning(parse_cards("AC 7H 8C"), 0, trump)
    assert not partner_is_winning((), 0, trump)
    # Second to play: the partner has not played.
    assert not partner_is_winning(parse_cards("AC"), 0, trump)


def test_the_legal_mask_with_and_without_partner_protection() -> None:
    trump = Card.parse("JH").suit
    hand = sum(card.mask for card in parse_cards("7C AH KH 7H"))
    trick = parse_cards("AS QH 8S")
    free = legal_mask(hand, trick, trump, partner_winning=True)
    bound = legal_mask(hand, trick, trump, partner_winning=False)
    assert set(map(str, mask_cards(free))) == {"7C", "AH", "KH"}
    assert set(map(str, mask_cards(bound))) == {"AH", "KH"}
