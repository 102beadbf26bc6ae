"""The classic auction: take the turned suit in round 1, name another in round 2."""

import random

import pytest

from games.engine import (
    Action,
    Bid,
    Close,
    Contract,
    IllegalActionError,
    MalformedActionError,
    MatchError,
    MatchState,
    Name,
    Pass,
    Phase,
    Reason,
    Reclose,
    RoundState,
    Ruleset,
    Suit,
    Take,
    action_from_dict,
    action_to_dict,
    parse_action,
)

from .classic_helpers import new_classic, random_classic_deal
from .helpers import play_round
from .test_classic_dealing import FOUR, THREE, TWO, TWO_UNUSED

TAKE, PASS = Take(), Pass()


def four() -> RoundState:
    """Dealer 3, turned TH: seat 0 speaks first."""
    return new_classic(dealer=3, hands=FOUR, taker=0)


def deal_for(players: int) -> RoundState:
    hands = {4: FOUR, 3: THREE, 2: TWO}[players]
    unused = TWO_UNUSED if players == 2 else ""
    return new_classic(dealer=players - 1, hands=hands, taker=0, unused=unused)


def run(state: RoundState, *actions: Action) -> RoundState:
    """Apply each action by the seat to act."""
    for action in actions:
        assert state.to_act is not None
        state = state.apply(state.to_act, action)
    return state


def test_round_1_offers_take_and_pass_from_the_dealers_right() -> None:
    state = four()
    assert (state.phase, state.auction_round, state.to_act) == (Phase.AUCTION, 1, 0)
    assert state.legal_actions() == [TAKE, PASS]
    assert state.contract is None


def test_the_first_take_ends_the_auction_with_the_turned_suit() -> None:
    state = run(four(), PASS, TAKE)
    assert state.contract == Contract(team=1, seat=1, value=0, trump=Suit.HEARTS, multiplier=1)
    assert (state.phase, state.auction_round, state.to_act) == (Phase.PLAY, None, 0)
    assert state.auction == ((0, PASS), (1, TAKE))
    assert state.multiplier == 1
    assert state.high_bid is None


def test_the_dealer_speaks_last_in_round_1_and_may_take() -> None:
    state = run(four(), PASS, PASS, PASS)
    assert (state.to_act, state.auction_round) == (3, 1)
    state = state.apply(3, TAKE)
    assert state.contract is not None
    assert (state.contract.team, state.contract.seat, state.contract.trump) == (1, 3, Suit.HEARTS)


@pytest.mark.parametrize(("players", "taker"), [(3, 0), (3, 1), (3, 2), (2, 0), (2, 1)])
def test_without_partners_the_side_is_the_taker(players: int, taker: int) -> None:
    state = deal_for(players)
    while state.to_act != taker:
        state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
    state = state.apply(taker, TAKE)
    assert state.contract == Contract(
        team=taker, seat=taker, value=0, trump=Suit.HEARTS, multiplier=1
    )
    assert state.to_act == 0  # dealer + 1 leads


def test_after_everyone_passes_round_2_starts_from_the_dealers_right() -> None:
    state = run(four(), PASS, PASS, PASS, PASS)
    assert (state.phase, state.auction_round, state.to_act) == (Phase.AUCTION, 2, 0)
    assert state.legal_actions() == [
        Name(Suit.CLUBS), Name(Suit.DIAMONDS), Name(Suit.SPADES), PASS,
    ]  # fmt: skip


def test_round_2_names_a_suit_the_player_does_not_hold() -> None:
    # Seat 1 holds no club before or after the completion, and may still name clubs.
    state = run(four(), PASS, PASS, PASS, PASS, PASS)
    assert not any(card.suit == Suit.CLUBS for card in state.hand(1))
    state = state.apply(1, Name(Suit.CLUBS))
    assert state.contract == Contract(team=1, seat=1, value=0, trump=Suit.CLUBS, multiplier=1)
    assert state.phase is Phase.PLAY
    assert not any(card.suit == Suit.CLUBS for card in state.hand(1))
    # The taker still receives the turned card, though hearts are not trumps.
    assert state.turned in state.hand(1)


def test_the_first_name_ends_round_2() -> None:
    state = run(four(), PASS, PASS, PASS, PASS, PASS, PASS, Name(Suit.DIAMONDS))
    assert state.contract is not None
    assert (state.contract.seat, state.contract.team, state.contract.trump) == (
        2, 0, Suit.DIAMONDS,
    )  # fmt: skip
    assert state.to_act == 0


def test_the_turned_suit_cannot_be_named() -> None:
    state = run(four(), PASS, PASS, PASS, PASS)
    assert state.why_illegal(0, Name(Suit.HEARTS)) is Reason.NAME_TURNED_SUIT
    with pytest.raises(IllegalActionError) as caught:
        state.apply(0, Name(Suit.HEARTS))
    assert caught.value.reason is Reason.NAME_TURNED_SUIT


def test_take_is_for_round_1_and_name_for_round_2() -> None:
    first = four()
    for suit in Suit:
        assert first.why_illegal(0, Name(suit)) is Reason.CANNOT_NAME
    second = run(first, PASS, PASS, PASS, PASS)
    assert second.why_illegal(0, TAKE) is Reason.CANNOT_TAKE
    with pytest.raises(IllegalActionError):
        second.apply(0, TAKE)


@pytest.mark.parametrize("action", [Bid(80, Suit.HEARTS), Close(), Reclose()])
def test_bids_and_closes_are_not_in_the_classic_game(action: Action) -> None:
    first = four()
    assert first.why_illegal(0, action) is Reason.NOT_IN_THIS_GAME
    second = run(first, PASS, PASS, PASS, PASS)
    assert second.why_illegal(0, action) is Reason.NOT_IN_THIS_GAME
    playing = run(first, TAKE)
    assert playing.why_illegal(0, action) is Reason.WRONG_PHASE


@pytest.mark.parametrize("action", [TAKE, Name(Suit.SPADES)])
def test_taking_is_refused_in_the_palaristi_game(action: Action) -> None:
    # In the auction it belongs to the other game; during the play, to another phase.
    hands = [
        "AC KC QC JC TC 9C AD 7D",
        "7C 8C 7H 9H AS KS QS JS",
        "QH AH TH 8H 9S 8S 7S TS",
        "JH KH 8D 9D TD JD QD KD",
    ]
    state = play_round(dealer=3, hands=hands)
    assert state.why_illegal(0, action) is Reason.NOT_IN_THIS_GAME
    with pytest.raises(IllegalActionError):
        state.apply(0, action)
    bid = play_round(dealer=3, hands=hands, actions=["0 bid 80 H"])
    assert bid.why_illegal(1, action) is Reason.NOT_IN_THIS_GAME
    auction = ["0 bid 80 H", "1 pass", "2 pass", "3 pass"]
    playing = play_round(dealer=3, hands=hands, actions=auction)
    assert playing.why_illegal(0, action) is Reason.WRONG_PHASE
    assert action not in bid.legal_actions()


def test_only_the_seat_to_act_may_speak() -> None:
    state = four()
    assert state.why_illegal(1, TAKE) is Reason.NOT_YOUR_TURN
    assert state.why_illegal(3, PASS) is Reason.NOT_YOUR_TURN


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_rounds_of_passes_cancel_the_round(players: int) -> None:
    state = deal_for(players)
    for _ in range(2 * players - 1):
        state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
    assert (state.phase, state.auction_round, state.to_act) == (Phase.AUCTION, 2, players - 1)
    state = state.apply(players - 1, PASS)
    assert (state.phase, state.auction_round, state.to_act) == (Phase.CANCELLED, None, None)
    assert (state.contract, state.result, state.legal_actions()) == (None, None, [])
    assert state.why_illegal(0, PASS) is Reason.ROUND_OVER
    # Nobody took: the hands were never completed.
    assert [len(hand) for hand in state.hands] == [5] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_cancelled_round_scores_nothing_and_the_next_dealer_deals(players: int) -> None:
    ruleset = Ruleset.classic(players)
    match = MatchState.new(ruleset=ruleset, first_dealer=players - 1)
    state = match.deal_round(random.Random(1))
    for _ in range(2 * players):
        state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
    match = match.with_round(state)
    assert match.scores == ((0,) * ruleset.sides,)
    assert match.totals == (0,) * ruleset.sides
    assert match.winner is None
    assert match.next_dealer == 0  # (n - 1) + 1, modulo n
    following = match.deal_round(random.Random(2))
    assert (following.dealer, following.to_act) == (0, 1)


def test_the_deal_moves_round_the_table_modulo_the_number_of_players() -> None:
    match = MatchState.new(ruleset=Ruleset.classic(3), first_dealer=1)
    dealers = []
    rng = random.Random(5)
    for _ in range(5):
        state = random_classic_deal(rng, 3, match.next_dealer)
        dealers.append(state.dealer)
        assert state.to_act == (state.dealer + 1) % 3
        for _ in range(6):
            state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
        match = match.with_round(state)
    assert dealers == [1, 2, 0, 1, 2]
    with pytest.raises(MatchError):
        match.with_round(random_classic_deal(rng, 3, 1))


def test_round_1_goes_round_from_the_dealers_right_with_three_players() -> None:
    state = new_classic(dealer=1, hands=THREE, taker=0)
    order = []
    for _ in range(3):
        order.append(state.to_act)
        state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
    assert order == [2, 0, 1]
    assert (state.auction_round, state.to_act) == (2, 2)


def test_taking_actions_as_text_and_records() -> None:
    assert parse_action("take") == TAKE
    assert parse_action("name S") == Name(Suit.SPADES)
    assert (str(TAKE), str(Name(Suit.CLUBS))) == ("take", "name C")
    assert action_to_dict(2, TAKE) == {"seat": 2, "action": "take"}
    assert action_to_dict(1, Name(Suit.DIAMONDS)) == {"seat": 1, "action": "name", "trump": "D"}
    assert action_from_dict({"seat": 1, "action": "name", "trump": "D"}) == (1, Name(Suit.DIAMONDS))
    assert action_from_dict({"seat": 0, "action": "take"}) == (0, TAKE)


@pytest.mark.parametrize("text", ["take S", "name", "name X", "name S H", "name s", "names S"])
def test_malformed_taking_text_is_refused(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)
