"""The fast core agrees with the public engine on legal cards, trick winners and points."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Phase, Play, RoundState, deal, draw_cut, shuffled_deck
from games.engine.fast import (
    LAST_TRICK_BONUS,
    Outcome,
    PlayPosition,
    iter_bits,
    legal,
    legal_mask,
    mask_of,
    play,
    trick_points,
    trick_winner,
)


def check_random_round(seed: int) -> None:
    """Play a random round through the public API, checking the fast core at every card."""
    rng = random.Random(seed)
    dealer = rng.randrange(4)
    state = RoundState.new(
        dealer=dealer, hands=deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    )
    pos: PlayPosition | None = None
    while state.to_act is not None:
        seat = state.to_act
        if state.phase is Phase.PLAY:
            assert state.contract is not None
            trump = int(state.contract.trump)
            if pos is None:
                hands = [mask_of(card.index for card in hand) for hand in state.hands]
                pos = PlayPosition.start(hands, leader=(dealer + 1) % 4, trump=trump)
            check_position(state, pos, trump)
        action = rng.choice(state.legal_actions())
        state = state.apply(seat, action)
        if isinstance(action, Play):
            assert pos is not None
            completes_trick = len(pos.trick) == 3
            pos = play(pos, action.card.index)
            if completes_trick:
                check_last_trick(state, pos)
    if state.phase is Phase.CANCELLED:
        assert pos is None
        return
    assert state.phase is Phase.FINISHED
    assert pos is not None
    assert pos.is_over
    assert state.result is not None
    assert state.result.card_points == pos.points
    assert state.result.capot == Outcome(pos.points, pos.tricks).capot


def check_position(state: RoundState, pos: PlayPosition, trump: int) -> None:
    """Check that the fast position mirrors the state and offers the same cards."""
    seat = pos.to_act
    assert seat == state.to_act
    trick = state.current_trick
    assert trick is not None
    cards = tuple(card.index for card in trick.cards)
    assert (trick.leader, cards) == (pos.leader, pos.trick)
    held = mask_of(card.index for card in state.hand(seat))
    assert held == pos.hands[seat]
    offered = {action.card.index for action in state.legal_actions() if isinstance(action, Play)}
    assert offered == set(iter_bits(legal_mask(held, cards, trump)))
    assert offered == set(iter_bits(legal(pos)))


def check_last_trick(state: RoundState, pos: PlayPosition) -> None:
    """Check the trick the public engine just completed against the fast core."""
    done = state.tricks[-1]
    cards = [card.index for card in done.cards]
    bonus = LAST_TRICK_BONUS if len(state.tricks) == 8 else 0
    assert done.winner == trick_winner(cards, done.leader, pos.trump) == pos.leader
    assert done.points == trick_points(cards, pos.trump) + bonus
    team_points = [0, 0]
    for trick in state.tricks:
        team_points[trick.winner % 2] += trick.points
    assert tuple(team_points) == pos.points


def test_many_random_rounds_agree() -> None:
    for seed in range(300):
        check_random_round(seed)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64))
def test_random_rounds_agree(seed: int) -> None:
    check_random_round(seed)
