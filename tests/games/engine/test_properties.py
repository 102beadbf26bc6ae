"""Property tests over random legal rounds: invariants that every round must keep."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DECK,
    Action,
    Announce,
    Bid,
    Card,
    Close,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Reclose,
    RoundState,
    Show,
    Suit,
    round_from_record,
    round_to_record,
)
from games.engine.actions import BIDS

from .helpers import random_action, random_round
from .test_observation import visible_cards

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
EVERY_ACTION: list[Action] = [
    *BIDS,
    Bid(70, Suit.HEARTS),
    Bid(85, Suit.CLUBS),
    Pass(),
    Close(),
    Reclose(),
    Announce(),
    Show(),
    *(Play(card) for card in DECK),
    *(Play(card, pilotta=True) for card in DECK),
]


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_every_card_is_played_once_and_the_points_total_162(seed: int) -> None:
    state = random_round(seed)
    if state.phase is Phase.CANCELLED:
        assert state.result is None
        assert state.tricks == ()
        return
    played = [card for trick in state.tricks for card in trick.cards]
    assert sorted(played) == list(DECK)
    assert all(state.hand(seat) == () for seat in range(4))
    assert sum(trick.points for trick in state.tricks) == 162
    assert state.result is not None
    assert sum(state.result.card_points) == 162


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_only_legal_actions_are_accepted(seed: int) -> None:
    rng = random.Random(seed)
    state = RoundState.new(dealer=rng.randrange(4), hands=_deal(rng))
    while state.to_act is not None:
        legal = set(state.legal_actions())
        for _ in range(6):
            seat, action = rng.randrange(4), rng.choice(EVERY_ACTION)
            plain = Play(action.card) if isinstance(action, Play) else action
            allowed = state.why_illegal(seat, action) is None
            if allowed:
                assert seat == state.to_act
                assert plain in legal
            elif not isinstance(action, Play) or not action.pilotta:
                assert seat != state.to_act or action not in legal
            if not allowed:
                before = (state.history, state.phase, state.to_act, state.legal_actions())
                try:
                    state.apply(seat, action)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{action} by {seat} was accepted")
                assert before == (state.history, state.phase, state.to_act, state.legal_actions())
        state = state.apply(state.to_act, random_action(state, rng))


def _deal(rng: random.Random) -> list[list[Card]]:
    cards = list(DECK)
    rng.shuffle(cards)
    return [cards[8 * s : 8 * s + 8] for s in range(4)]


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_an_observation_never_holds_another_seats_hidden_card(seed: int) -> None:
    rng = random.Random(seed)
    state = RoundState.new(dealer=rng.randrange(4), hands=_deal(rng))
    while True:
        public = {card for trick in state.tricks for card in trick.cards}
        if state.current_trick is not None:
            public |= set(state.current_trick.cards)
        public |= {card for seat in range(4) for d in state.shown(seat) for card in d.cards}
        for seat in range(4):
            assert visible_cards(state.observation(seat)) <= public | set(state.hand(seat))
        assert visible_cards(state.public_observation()) <= public
        if state.to_act is None:
            break
        state = state.apply(state.to_act, random_action(state, rng))


@settings(max_examples=100, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=60))
def test_a_record_replays_to_the_identical_state(seed: int, cut: int) -> None:
    state = random_round(seed)
    partial = RoundState.new(dealer=state.dealer, hands=state.hands)
    for seat, action in state.history[:cut]:
        partial = partial.apply(seat, action)
    for original in (state, partial):
        replayed = round_from_record(json.loads(json.dumps(round_to_record(original))))
        assert replayed == original
        assert replayed.result == original.result
        assert replayed.legal_actions() == original.legal_actions()
        assert replayed.observation(0) == original.observation(0)


@settings(max_examples=300, deadline=None)
@given(SEEDS)
def test_a_made_unclosed_round_without_capot_sums_to_16_plus_tens(seed: int) -> None:
    state = random_round(seed, modest=True)
    result, contract = state.result, state.contract
    if result is None or contract is None:
        return
    if not result.made or contract.multiplier != 1 or result.capot is not None:
        return
    expected = 16 + (contract.value + sum(result.declarations) + sum(result.pilotta)) // 10
    assert sum(result.score) == expected
