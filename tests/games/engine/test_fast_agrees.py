"""The fast core agrees with the public engine on legal cards, trick winners and points."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Pass,
    Phase,
    Play,
    RoundState,
    Ruleset,
    deal,
    deal_classic,
    draw_cut,
    shuffled_deck,
)
from games.engine.fast import (
    LAST_TRICK_BONUS,
    SUIT_MASKS,
    Outcome,
    PlayPosition,
    iter_bits,
    legal,
    legal_mask,
    mask_of,
    partner_winning,
    play,
    playout,
    playout_from,
    random_deal,
    trick_points,
    trick_winner,
)
from games.engine.play import legal_mask as engine_legal_mask
from games.engine.play import partner_is_winning as engine_partner_is_winning


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


# --- the classic game of four: partner protection ---------------------------------------------


def classic_round_of_four(rng: random.Random) -> RoundState:
    """Deal a classic round of four and take it at random (take or name), so that it is played."""
    ruleset = Ruleset.classic(4)
    dealer = rng.randrange(4)
    dealt = deal_classic(
        shuffled_deck(rng, ruleset.deck), dealer=dealer, cut=draw_cut(rng), players=4
    )
    state = RoundState.new(
        dealer=dealer, hands=dealt.hands, ruleset=ruleset, turned=dealt.turned, stock=dealt.stock
    )
    while state.phase is Phase.AUCTION:
        assert state.to_act is not None
        choices = [a for a in state.legal_actions() if not isinstance(a, Pass)]
        action = rng.choice(choices) if rng.random() < 0.3 else Pass()
        state = state.apply(state.to_act, action)
    return state


def check_classic_round(seed: int) -> int:
    """Play a random classic round of four, checking the protected fast core at every card.

    Return how many cards were played under partner protection with a discard allowed.
    """
    rng = random.Random(seed)
    state = classic_round_of_four(rng)
    if state.phase is Phase.CANCELLED:
        return 0
    assert state.contract is not None
    trump = int(state.contract.trump)
    hands = [mask_of(card.index for card in hand) for hand in state.hands]
    pos = PlayPosition.start(hands, (state.dealer + 1) % 4, trump, protection=True)
    freed = 0
    while state.to_act is not None:
        seat = state.to_act
        trick = state.current_trick
        assert trick is not None
        cards = tuple(card.index for card in trick.cards)
        assert (pos.to_act, pos.leader, pos.trick) == (seat, trick.leader, cards)
        held = mask_of(card.index for card in state.hand(seat))
        assert pos.hands[seat] == held
        protected = engine_partner_is_winning(trick.cards, trick.leader, state.contract.trump)
        assert partner_winning(cards, trick.leader, trump) == protected
        reference = engine_legal_mask(
            held, trick.cards, state.contract.trump, partner_winning=protected
        )
        offered = {a.card.index for a in state.legal_actions() if isinstance(a, Play)}
        assert offered == set(iter_bits(reference))
        assert legal(pos) == reference
        assert legal_mask(held, cards, trump, partner_winning=protected) == reference
        if protected and reference & ~SUIT_MASKS[trump] and reference & SUIT_MASKS[trump]:
            freed += 1
        action = rng.choice([a for a in state.legal_actions() if isinstance(a, Play)])
        state = state.apply(seat, action)
        pos = play(pos, action.card.index)
    assert pos.is_over
    assert state.result is not None
    assert state.result.card_points == pos.points
    return freed


def test_many_classic_rounds_of_four_agree() -> None:
    freed = sum(check_classic_round(seed) for seed in range(300))
    assert freed > 50  # the protected choice (trump or not) did come up


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**64))
def test_random_classic_rounds_of_four_agree(seed: int) -> None:
    check_classic_round(seed)


def test_protected_playouts_play_only_legal_cards() -> None:
    rng = random.Random(8)
    for _ in range(200):
        hands = random_deal(rng)
        leader, trump = rng.randrange(4), rng.randrange(4)
        trace: list[int] = []
        outcome = playout(hands, leader, trump, rng, trace=trace, protection=True)
        pos = PlayPosition.start(hands, leader, trump, protection=True)
        for card in trace:
            pos = play(pos, card)  # raises on an illegal card
        assert Outcome(pos.points, pos.tricks) == outcome


def test_protected_playouts_from_a_position_play_only_legal_cards() -> None:
    rng = random.Random(9)
    for _ in range(200):
        pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
        pos = pos._replace(protection=True)
        for _ in range(rng.randrange(12)):
            pos = play(pos, rng.choice(list(iter_bits(legal(pos)))))
        trace: list[int] = []
        outcome = playout_from(pos, rng, trace=trace)
        for card in trace:
            pos = play(pos, card)
        assert Outcome(pos.points, pos.tricks) == outcome


def test_protection_frees_a_discard_only_under_a_winning_partner() -> None:
    hearts = 2
    hand = mask_of([8 * hearts + 4, 3])  # the Jack of trumps and a club
    # Seat 0 led a spade Ace, seat 1 followed low: seat 2's partner holds the trick.
    trick = (8 * 3 + 7, 8 * 3 + 0)
    assert legal_mask(hand, trick, hearts) == mask_of([8 * hearts + 4])
    assert legal_mask(hand, trick, hearts, partner_winning=True) == hand
    pos = PlayPosition((0, 0, hand, 0), trick, 0, hearts, protection=True)
    assert legal(pos) == hand
    # Seat 1 ruffed: seat 2's partner no longer wins, so seat 2 must over-trump.
    ruffed = (8 * 3 + 7, 8 * hearts + 0)
    assert legal(pos._replace(trick=ruffed)) == mask_of([8 * hearts + 4])


# --- the classic game of two ------------------------------------------------------------------


def check_two_player_round(seed: int) -> None:
    """Play a random classic round of two, checking the two-seat fast core at every card."""
    rng = random.Random(seed)
    ruleset = Ruleset.classic(2)
    dealer = rng.randrange(2)
    dealt = deal_classic(
        shuffled_deck(rng, ruleset.deck), dealer=dealer, cut=draw_cut(rng, 24), players=2
    )
    state = RoundState.new(
        dealer=dealer, hands=dealt.hands, ruleset=ruleset, turned=dealt.turned, stock=dealt.stock
    )
    while state.phase is Phase.AUCTION:
        assert state.to_act is not None
        choices = [a for a in state.legal_actions() if not isinstance(a, Pass)]
        action = rng.choice(choices) if rng.random() < 0.4 else Pass()
        state = state.apply(state.to_act, action)
    if state.phase is Phase.CANCELLED:
        return
    assert state.contract is not None
    trump = int(state.contract.trump)
    hands = [mask_of(card.index for card in hand) for hand in state.hands]
    pos = PlayPosition.start(hands, (dealer + 1) % 2, trump, players=2)
    while state.to_act is not None:
        seat = state.to_act
        trick = state.current_trick
        assert trick is not None
        assert (pos.to_act, pos.leader) == (seat, trick.leader)
        assert pos.trick == tuple(card.index for card in trick.cards)
        offered = {a.card.index for a in state.legal_actions() if isinstance(a, Play)}
        assert offered == set(iter_bits(legal(pos)))
        action = rng.choice([a for a in state.legal_actions() if isinstance(a, Play)])
        state = state.apply(seat, action)
        pos = play(pos, action.card.index)
        if not pos.trick:
            assert state.tricks[-1].winner == pos.leader
    assert pos.is_over
    assert state.result is not None
    assert state.result.card_points == pos.points


def test_many_classic_rounds_of_two_agree() -> None:
    for seed in range(300):
        check_two_player_round(seed)
