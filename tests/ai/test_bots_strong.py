"""The strong bot: samples consistent with what was seen, legal and complete play."""

from __future__ import annotations

import random
import time

import pytest

from games.ai import choose_action, strong, warm_up
from games.ai.knowledge import read_knowledge
from games.ai.sampling import matches_announcements, sample_consistent, sample_hands
from games.ai.sheet import sample_scorer
from games.ai.strong import (
    auction_bidders,
    auction_weight,
    fallback_card,
    search_card,
)
from games.engine import Bid, Pass, Play, RoundState, Suit, parse_cards
from games.engine.cards import cards_mask
from games.engine.fast import PlayPosition
from games.engine.observation import Observation
from games.engine.phase import Phase
from tests.games.engine.helpers import assert_declarations_and_pilotta_taken

from .test_bots import new_round, play_out
from .test_bots_classic import checked_margins, points_left, sample_margins


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


def first_lead(seed: int, bid: int = 80) -> RoundState:
    """Return a round at its first card, after a bid (of 80) and three passes."""
    rng = random.Random(seed)
    state = new_round(rng)
    state = state.apply(state.to_act or 0, Bid(bid, Suit.HEARTS))
    for _ in range(3):
        state = state.apply(state.to_act or 0, Pass())
    while state.to_act is not None and not any(
        isinstance(action, Play) for action in state.legal_actions()
    ):
        state = state.apply(state.to_act, state.legal_actions()[0])
    return state


@pytest.mark.parametrize("budget", [0.0, 0.02, 0.1])
def test_a_decision_returns_within_its_budget(budget: float) -> None:
    warm_up()
    for seed in range(3):
        state = first_lead(seed)
        seat = state.to_act
        assert seat is not None
        observation = state.observation(seat)
        start = time.perf_counter()
        action = choose_action(observation, level="strong", rng=random.Random(seed), budget=budget)
        # One search slice and the sampling may run past the deadline, a few milliseconds.
        assert time.perf_counter() - start < budget + 0.15
        assert action in observation.legal_actions or (
            isinstance(action, Play) and Play(action.card) in observation.legal_actions
        )


def test_without_any_solved_sample_the_rules_of_thumb_choose() -> None:
    state = first_lead(4)
    seat = state.to_act
    assert seat is not None
    observation = state.observation(seat)
    k = read_knowledge(observation)
    card = search_card(observation, random.Random(0), 0.0)
    assert card == fallback_card(k, observation)


def test_a_deal_giving_the_bidder_its_trumps_weighs_more() -> None:
    state = first_lead(5)
    contract = state.contract
    assert contract is not None
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    me = (bidder + 1) % 4
    observation = state.observation(me)
    bidders = auction_bidders(observation)
    assert [b.seat for b in bidders] == [bidder]
    strong_hand = cards_mask(parse_cards("JH 9H AH TH AC AS AD KH"))
    weak_hand = cards_mask(parse_cards("7C 8C 7D 8D 7S 8S 9S QC"))
    hands_with = [0, 0, 0, 0]
    hands_with[bidder] = strong_hand
    hands_without = [0, 0, 0, 0]
    hands_without[bidder] = weak_hand
    heavy = auction_weight(bidders, (hands_with[0], hands_with[1], hands_with[2], hands_with[3]))
    light = auction_weight(
        bidders, (hands_without[0], hands_without[1], hands_without[2], hands_without[3])
    )
    assert heavy > 0.9 > 0.1 > light


# --- the search for the sheet -----------------------------------------------------------------


def test_the_sample_scorer_gives_the_sheet_of_the_real_deal() -> None:
    rng = random.Random(1)
    checked = sum(checked_margins(new_round(rng), rng) for _ in range(10))
    assert checked > 100


def test_the_sheet_margin_grows_with_the_points_taken() -> None:
    rng = random.Random(6)
    for state, seat in play_decisions(6, 6)[::4]:
        margins = sample_margins(state.observation(seat), rng)
        assert margins == sorted(margins)
        assert margins[0] < margins[-1]


class ScriptedSolver:
    """A solver whose sampled deals give each card the values of a script, in turn."""

    def __init__(self, script: list[dict[int, int]]) -> None:
        self.script = script
        self.calls = 0

    def move_values(self, pos: PlayPosition, deadline: float | None = None) -> dict[int, int]:
        values = self.script[self.calls % len(self.script)]
        self.calls += 1
        return values


def contract_lead() -> tuple[Observation, tuple[int, ...], int, int]:
    """Return the bidder's view of a contract of 100 at its first card, the hands, two cards."""
    state = first_lead(2, bid=100)
    seat = state.to_act
    assert seat is not None
    assert state.contract is not None
    assert state.contract.team == seat % 2
    observation = state.observation(seat)
    hands = tuple(cards_mask(state.hand(s)) for s in range(4))
    first, second = [a.card.index for a in observation.legal_actions if isinstance(a, Play)][:2]
    return observation, hands, first, second


def scripted_search(
    monkeypatch: pytest.MonkeyPatch,
    observation: Observation,
    hands: tuple[int, ...],
    script: list[dict[int, int]],
) -> int:
    """Return the strong bot's card when every sampled deal is ``hands`` valued by ``script``."""
    solver = ScriptedSolver(script)
    monkeypatch.setattr(strong, "shared_solver", lambda: solver)
    monkeypatch.setattr(strong, "sample_consistent", lambda *args: hands)
    card = search_card(observation, random.Random(0), 0.5)
    assert solver.calls == strong.MAX_SAMPLES
    return card


def test_the_strong_bot_plays_for_the_contract_not_the_card_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card sure to make the contract beats one with more points that fails it half the time."""
    observation, hands, gamble, safe = contract_lead()
    script = [{gamble: 160, safe: 105}, {gamble: 60, safe: 105}]
    k = read_knowledge(observation)
    scorer = sample_scorer(k, observation, hands, points_left(k, hands))
    assert sum(v[gamble] for v in script) > sum(v[safe] for v in script)
    assert sum(scorer.margin(v[gamble]) for v in script) < sum(
        scorer.margin(v[safe]) for v in script
    )
    assert scripted_search(monkeypatch, observation, hands, script) == safe


def test_card_points_break_ties_between_cards_of_equal_margin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    observation, hands, first, second = contract_lead()
    # Both fail the contract of 100, whatever they take: the sheet cannot tell them apart.
    assert scripted_search(monkeypatch, observation, hands, [{first: 20, second: 30}]) == second
