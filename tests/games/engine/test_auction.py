"""The palaristi auction: bids, passes, close and re-close."""

import pytest

from games.engine import (
    Bid,
    Close,
    Contract,
    IllegalActionError,
    Pass,
    Phase,
    Reason,
    Reclose,
    RoundState,
    Suit,
    parse_action,
)

from .helpers import act

HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]


def new(dealer: int = 3) -> RoundState:
    return RoundState.new(dealer=dealer, hands=HANDS)


def reason(state: RoundState, step: str) -> Reason | None:
    seat, text = step.split(" ", 1)
    return state.why_illegal(int(seat), parse_action(text))


def test_the_dealers_right_speaks_first_and_turns_go_in_play_order() -> None:
    state = new(dealer=1)
    assert state.phase is Phase.AUCTION
    assert state.to_act == 2
    assert act(state, "2 pass").to_act == 3
    assert act(state, "2 pass", "3 pass").to_act == 0


def test_opening_offers_every_bid_and_pass_but_no_close() -> None:
    legal = new().legal_actions()
    assert len(legal) == 33 * 4 + 1
    assert Pass() in legal
    assert Bid(80, Suit.CLUBS) in legal
    assert Bid(400, Suit.SPADES) in legal
    assert Close() not in legal
    assert Reclose() not in legal


@pytest.mark.parametrize("value", [70, 85, 410, 0, -10, 1000])
def test_bids_are_tens_from_80_to_400(value: int) -> None:
    assert new().why_illegal(0, Bid(value, Suit.HEARTS)) is Reason.BID_OUT_OF_RANGE


def test_each_bid_must_be_higher_and_may_jump() -> None:
    state = act(new(), "0 bid 80 H")
    assert reason(state, "1 bid 80 S") is Reason.BID_TOO_LOW
    assert reason(state, "1 bid 70 S") is Reason.BID_OUT_OF_RANGE
    assert act(state, "1 bid 250 S").high_bid == (1, Bid(250, Suit.SPADES))
    assert min(a.value for a in state.legal_actions() if isinstance(a, Bid)) == 90


def test_a_player_may_overbid_the_partner_in_any_suit() -> None:
    state = act(new(), "0 bid 80 H", "1 pass", "2 bid 90 H", "3 pass", "0 bid 100 C")
    assert state.high_bid == (0, Bid(100, Suit.CLUBS))


def test_a_pass_is_not_final() -> None:
    state = act(new(), "0 pass", "1 bid 80 S", "2 pass", "3 pass", "0 bid 90 H")
    assert state.high_bid == (0, Bid(90, Suit.HEARTS))


def test_three_passes_after_the_last_bid_end_the_auction() -> None:
    state = act(new(), "0 pass", "1 bid 80 S", "2 pass", "3 pass")
    assert state.phase is Phase.AUCTION
    state = act(state, "0 pass")
    assert state.phase is Phase.PLAY
    assert state.contract == Contract(team=1, seat=1, value=80, trump=Suit.SPADES, multiplier=1)


def test_four_passes_before_any_bid_cancel_the_round() -> None:
    state = act(new(), "0 pass", "1 pass", "2 pass")
    assert state.phase is Phase.AUCTION
    state = act(state, "3 pass")
    assert state.phase is Phase.CANCELLED
    assert (state.to_act, state.contract, state.result) == (None, None, None)
    assert state.legal_actions() == []
    assert state.why_illegal(0, Pass()) is Reason.ROUND_OVER
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Pass())
    assert caught.value.reason is Reason.ROUND_OVER


def test_closing_needs_the_other_teams_highest_bid() -> None:
    assert reason(new(), "0 close") is Reason.CANNOT_CLOSE
    state = act(new(), "0 bid 80 H")
    assert reason(state, "1 close") is None
    assert Close() in state.legal_actions()
    state = act(state, "1 pass")
    assert reason(state, "2 close") is Reason.CANNOT_CLOSE
    assert Close() not in state.legal_actions()


def test_after_a_close_nobody_bids_and_nobody_closes_again() -> None:
    state = act(new(), "0 bid 80 H", "1 close")
    assert state.multiplier == 2
    assert reason(state, "2 bid 90 H") is Reason.BID_AFTER_CLOSE
    assert reason(state, "2 close") is Reason.CANNOT_CLOSE
    assert not any(isinstance(a, Bid) for a in state.legal_actions())
    state = act(state, "2 pass")
    assert reason(state, "3 close") is Reason.CANNOT_CLOSE
    assert reason(state, "3 bid 100 S") is Reason.BID_AFTER_CLOSE


def test_three_passes_after_a_close_end_the_auction_closed() -> None:
    state = act(new(), "0 bid 80 H", "1 close", "2 pass", "3 pass", "0 pass")
    assert state.phase is Phase.PLAY
    assert state.contract == Contract(team=0, seat=0, value=80, trump=Suit.HEARTS, multiplier=2)


def test_only_the_bidding_team_recloses_after_a_close() -> None:
    state = act(new(), "0 bid 80 H")
    assert reason(state, "1 reclose") is Reason.CANNOT_RECLOSE
    state = act(state, "1 close")
    assert reason(state, "2 reclose") is None
    assert Reclose() in state.legal_actions()
    state = act(state, "2 pass")
    assert reason(state, "3 reclose") is Reason.CANNOT_RECLOSE
    assert Reclose() not in state.legal_actions()


def test_a_reclose_ends_the_auction_at_once() -> None:
    state = act(new(), "0 bid 80 H", "1 close", "2 pass", "3 pass", "0 reclose")
    assert state.phase is Phase.PLAY
    assert state.contract == Contract(team=0, seat=0, value=80, trump=Suit.HEARTS, multiplier=4)


def test_the_dealers_right_leads_whoever_won_the_auction() -> None:
    state = act(new(dealer=3), "0 pass", "1 pass", "2 bid 80 H", "3 pass", "0 pass", "1 pass")
    assert state.contract is not None
    assert state.contract.seat == 2
    assert state.to_act == 0


def test_acting_out_of_turn_or_phase_is_refused() -> None:
    state = new()
    assert reason(state, "1 pass") is Reason.NOT_YOUR_TURN
    assert reason(state, "0 play AC") is Reason.WRONG_PHASE
    assert reason(state, "0 announce") is Reason.WRONG_PHASE
    with pytest.raises(IllegalActionError) as caught:
        state.apply(2, Pass())
    assert caught.value.reason is Reason.NOT_YOUR_TURN


def test_apply_leaves_the_old_state_unchanged() -> None:
    state = new()
    after = act(state, "0 bid 80 H")
    assert state.history == ()
    assert state.to_act == 0
    assert state.high_bid is None
    assert after.history == ((0, Bid(80, Suit.HEARTS)),)
