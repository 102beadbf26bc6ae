"""Trick play: legal cards checked in order, trick winners, the last trick."""

import pytest

from games.engine import (
    Bid,
    IllegalActionError,
    Phase,
    Play,
    Reason,
    RoundState,
    Suit,
    card_points,
    parse_action,
    parse_cards,
)
from games.engine.play import winning_position

from .helpers import act, play, play_out, play_round

# Hearts are trumps; dealer 3, so seat 0 speaks first and leads.
HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]
AUCTION = ["0 bid 80 H", "1 pass", "2 pass", "3 pass"]


def started() -> RoundState:
    return play_round(dealer=3, hands=HANDS, actions=AUCTION)


def reason(state: RoundState, step: str) -> Reason | None:
    seat, text = step.split(" ", 1)
    return state.why_illegal(int(seat), parse_action(text))


def legal_cards(state: RoundState) -> set[str]:
    return {str(a.card) for a in state.legal_actions() if isinstance(a, Play)}


def test_the_leader_may_play_any_card() -> None:
    state = started()
    assert state.phase is Phase.PLAY
    assert state.to_act == 0
    assert legal_cards(state) == set(HANDS[0].split())


def test_a_card_not_held_is_refused() -> None:
    assert reason(started(), "0 play JH") is Reason.CARD_NOT_IN_HAND
    state = play(started(), "AC 7C")
    assert reason(state, "2 play 7C") is Reason.CARD_NOT_IN_HAND


def test_holding_the_led_suit_you_must_follow_it() -> None:
    state = play(started(), "AC")
    assert reason(state, "1 play AS") is Reason.MUST_FOLLOW_SUIT
    assert reason(state, "1 play 9H") is Reason.MUST_FOLLOW_SUIT
    assert legal_cards(state) == {"7C", "8C"}


def test_void_you_must_trump_even_when_your_partner_is_winning() -> None:
    state = play(started(), "AC 7C")  # seat 0's ace is winning for seat 2's team
    assert reason(state, "2 play 9S") is Reason.MUST_TRUMP
    assert legal_cards(state) == {"QH", "AH", "TH", "8H"}


def test_void_over_a_trump_you_must_overtrump_when_you_can() -> None:
    state = play(started(), "AC 7C TH")
    assert reason(state, "3 play KH") is Reason.MUST_OVERTRUMP
    assert reason(state, "3 play 8D") is Reason.MUST_OVERTRUMP
    assert legal_cards(state) == {"JH"}


def test_void_under_a_higher_trump_you_must_still_undertrump() -> None:
    state = play(started(), "AC 7C TH JH 8D 7D 9H")
    assert reason(state, "2 play 9S") is Reason.MUST_UNDERTRUMP
    assert legal_cards(state) == {"QH", "AH", "8H"}


def test_void_of_trumps_too_any_card_goes() -> None:
    state = play(started(), "AC 7C TH JH KH")
    assert legal_cards(state) == {"KC", "QC", "JC", "TC", "9C", "AD", "7D"}


def test_trump_led_you_must_beat_the_highest_trump_if_you_can() -> None:
    state = play(started(), "AC 7C TH JH KH 9C")
    assert reason(state, "1 play 7H") is Reason.MUST_BEAT_TRUMP
    assert reason(state, "1 play AS") is Reason.MUST_FOLLOW_SUIT
    assert legal_cards(state) == {"9H"}


def test_trump_led_and_unable_to_beat_you_play_any_trump() -> None:
    state = play(started(), "AC 7C TH JH KH 9C 9H")
    assert legal_cards(state) == {"QH", "AH", "8H"}
    assert reason(state, "2 play 9S") is Reason.MUST_FOLLOW_SUIT


def test_the_winner_takes_the_points_and_leads_the_next_trick() -> None:
    state = play(started(), "AC 7C TH JH")
    (trick,) = state.tricks
    assert (trick.leader, trick.winner, trick.points) == (0, 3, 11 + 0 + 10 + 20)
    assert trick.cards == parse_cards("AC 7C TH JH")
    assert trick.led_suit is Suit.CLUBS
    assert state.to_act == 3
    assert state.current_trick is not None
    assert state.current_trick.cards == ()
    assert state.hand(0) == parse_cards("KC QC JC TC 9C AD 7D")


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_led_suit() -> None:
    hearts = Suit.HEARTS
    assert winning_position(parse_cards("9C AD TC 7S"), hearts) == 2
    assert winning_position(parse_cards("9C AC 7H TC"), hearts) == 2
    assert winning_position(parse_cards("7H 9H AH JH"), hearts) == 3
    assert winning_position(parse_cards("8H 9H AH TH"), hearts) == 1
    assert winning_position(parse_cards("TC AD AS KC"), hearts) == 0


def test_the_last_trick_adds_10_and_the_round_totals_162() -> None:
    state = play_out(started())
    assert state.phase is Phase.FINISHED
    assert state.to_act is None
    assert len(state.tricks) == 8
    last = state.tricks[-1]
    assert last.points == 10 + sum(card_points(card, Suit.HEARTS) for card in last.cards)
    assert sum(t.points for t in state.tricks) == 162
    assert state.result is not None
    assert sum(state.result.card_points) == 162
    assert state.current_trick is None
    assert reason(state, "0 play AC") is Reason.ROUND_OVER


def test_bids_in_the_play_phase_are_refused() -> None:
    state = started()
    assert reason(state, "0 bid 90 H") is Reason.WRONG_PHASE
    assert reason(state, "0 pass") is Reason.WRONG_PHASE
    assert reason(state, "1 play 7C") is Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Bid(90, Suit.HEARTS))
    assert caught.value.reason is Reason.WRONG_PHASE


def test_an_illegal_card_leaves_the_state_unchanged() -> None:
    state = play(started(), "AC")
    before = (state.history, state.hand(1), state.to_act)
    with pytest.raises(IllegalActionError):
        act(state, "1 play AS")
    assert (state.history, state.hand(1), state.to_act) == before
