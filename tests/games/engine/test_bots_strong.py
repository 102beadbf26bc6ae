"""The strong bot: samples consistent with what was seen, legal and complete play."""

from __future__ import annotations

import random

from games.engine import RoundState
from games.engine.bots import choose_action
from games.engine.bots.knowledge import read_knowledge
from games.engine.bots.sampling import matches_announcements, sample_consistent, sample_hands
from games.engine.cards import cards_mask
from games.engine.phase import Phase

from .test_bots import assert_declarations_and_pilotta_taken, new_round, play_out


def play_decisions(seed: int, rounds: int) -> list[tuple[RoundState, int]]:
    """Return the play-phase states met in rounds between medium bots, with the seat to act."""
    rng = random.Random(seed)
    found = []
    for _ in range(rounds):
        state = new_round(rng)
        while state.to_act is not None:
            seat = state.to_act
            if state.phase == Phase.PLAY:
                found.append((state, seat))
            action = choose_action(state.observation(seat), level="medium", rng=rng)
            state = state.apply(seat, action)
    return found


def test_what_a_seat_deduces_is_true_of_the_real_hands() -> None:
    for state, seat in play_decisions(1, 15):
        k = read_knowledge(state.observation(seat))
        for other in range(4):
            real = cards_mask(state.hand(other))
            assert real & k.forbidden[other] == 0
            assert k.known[other] & ~real == 0


def test_samples_are_consistent_with_voids_and_shown_cards() -> None:
    rng = random.Random(2)
    for state, seat in play_decisions(3, 6):
        observation = state.observation(seat)
        k = read_knowledge(observation)
        for _ in range(3):
            hands = sample_hands(k, rng)
            assert hands[seat] == k.hand
            assert hands[0] | hands[1] | hands[2] | hands[3] == k.hand | k.unseen
            assert sum(hand.bit_count() for hand in hands) == (k.hand | k.unseen).bit_count()
            for other in range(4):
                assert hands[other].bit_count() == k.counts[other]
                assert hands[other] & k.forbidden[other] == 0
                assert k.known[other] & ~hands[other] == 0


def test_samples_honour_announced_declarations_nearly_always() -> None:
    rng = random.Random(4)
    checked = honoured = 0
    for state, seat in play_decisions(5, 30):
        observation = state.observation(seat)
        k = read_knowledge(observation)
        if not any(observation.announcements[s] and not observation.shown[s] for s in range(4)):
            continue
        real = tuple(cards_mask(state.hand(s)) for s in range(4))
        assert matches_announcements(real, k, observation)
        honoured += matches_announcements(sample_consistent(k, observation, rng), k, observation)
        checked += 1
    assert checked > 20
    assert honoured >= 0.9 * checked


def test_strong_bot_plays_legal_and_complete_rounds() -> None:
    rng = random.Random(8)
    played = 0
    while played < 2:
        state = play_out(new_round(rng), "strong", rng, budget=0.001)
        if state.contract is not None:
            assert_declarations_and_pilotta_taken(state)
            played += 1
