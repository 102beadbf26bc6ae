"""The strong bot: samples consistent with what was seen, legal and complete play."""

from __future__ import annotations

import math
import random
import time

import pytest

from games.ai import choose_action, strong, warm_up
from games.ai.arena import classic_round
from games.ai.compare import VARIANTS
from games.ai.knowledge import read_knowledge
from games.ai.sampling import matches_announcements, sample_consistent, sample_hands
from games.ai.sheet import sample_scorer
from games.ai.strong import (
    BidderView,
    PasserView,
    auction_bidders,
    auction_reading,
    auction_weight,
    fallback_card,
    opening_passers,
    passers_over_bids,
    sample_by_auction,
    search_card,
)
from games.engine import Bid, Close, Pass, Play, RoundState, Suit, parse_cards
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


STRONG_HAND = cards_mask(parse_cards("JH 9H AH TH AC AS AD KH"))
WEAK_HAND = cards_mask(parse_cards("7C 8C 7D 8D 7S 8S 9S QC"))


def giving(seat: int, hand: int) -> tuple[int, int, int, int]:
    """Return a deal where ``seat`` holds ``hand`` and the others nothing: enough to weigh."""
    hands = [0, 0, 0, 0]
    hands[seat] = hand
    return (hands[0], hands[1], hands[2], hands[3])


def test_a_deal_giving_the_bidder_its_trumps_weighs_more() -> None:
    state = first_lead(5)
    contract = state.contract
    assert contract is not None
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    me = (bidder + 1) % 4
    observation = state.observation(me)
    bidders = auction_bidders(observation)
    assert [b.seat for b in bidders] == [bidder]
    heavy = auction_weight(bidders, giving(bidder, STRONG_HAND))
    light = auction_weight(bidders, giving(bidder, WEAK_HAND))
    assert heavy > 0.9 > 0.1 > light


def strong_auctions(seed: int, rounds: int) -> list[RoundState]:
    """Return rounds just after an auction of four strong bots that ended in a contract."""
    rng = random.Random(seed)
    found = []
    for _ in range(rounds):
        state = new_round(rng)
        while state.contract is None and state.to_act is not None:
            seat = state.to_act
            action = choose_action(state.observation(seat), level="strong", rng=rng)
            state = state.apply(seat, action)
        if state.contract is not None:
            found.append(state)
    return found


@pytest.fixture
def reading_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read the auction while sampling, which the site's strong bot does not do by default."""
    monkeypatch.setattr(strong, "AUCTION_READING", True)


@pytest.mark.parametrize("variant", ["auction-reading", "auction-window"])
@pytest.mark.parametrize("kind", [BidderView, PasserView])
def test_the_real_deal_explains_the_strong_auction(
    monkeypatch: pytest.MonkeyPatch, variant: str, kind: type
) -> None:
    # The weights read bids and passes as the strong auction makes them, as a lower bound or as
    # a window: the deal really dealt should weigh at least a half for nearly every seat, or
    # sampling would discount the truth.
    for name, value in VARIANTS[variant].items():
        monkeypatch.setattr(strong, name, value)
    weights = real_deal_weights(kind)
    assert len(weights) > 60
    assert sum(weight >= 0.45 for weight in weights) >= 0.95 * len(weights)


def real_deal_weights(kind: type) -> list[float]:
    """Return the weight each reading of ``kind`` gives the real deal, in strong auctions."""
    weights = []
    for state in strong_auctions(7, 120):
        hands = tuple(cards_mask(state.hand(seat)) for seat in range(4))
        for seat in range(4):
            for view in auction_reading(state.observation(seat)):
                if isinstance(view, kind):
                    weights.append(auction_weight([view], (hands[0], hands[1], hands[2], hands[3])))
    return weights


def test_a_deal_giving_an_opening_passer_a_strong_hand_weighs_little() -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    me = (bidder + 1) % 4
    passers = opening_passers(state.observation(me))
    assert all(passer.seat != me for passer in passers)
    # ``first_lead`` opens with a bid: nobody passed before it.
    assert passers == []
    dealer = state.dealer
    passed_first = RoundState.new(dealer=dealer, hands=state.hands)
    opener = passed_first.to_act
    assert opener is not None
    passed_first = passed_first.apply(opener, Pass())
    second = passed_first.to_act
    assert second is not None
    passed_first = passed_first.apply(second, Bid(80, Suit.SPADES))
    observation = passed_first.observation((opener + 2) % 4)
    (passer,) = opening_passers(observation)
    assert passer.seat == opener
    heavy_hand = passer.likelihood(giving(opener, STRONG_HAND))
    light_hand = passer.likelihood(giving(opener, WEAK_HAND))
    assert heavy_hand < 0.01 < 0.99 < light_hand


@pytest.mark.usefixtures("reading_on")
def test_deals_are_drawn_as_likely_as_the_auction_makes_them() -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    observation = state.observation((bidder + 1) % 4)
    reading = auction_reading(observation)
    assert reading
    k = read_knowledge(observation)
    rng = random.Random(4)
    plain = [sample_consistent(k, observation, rng) for _ in range(300)]
    drawn = [sample_by_auction(k, observation, reading, rng, math.inf) for _ in range(300)]
    plain_weight = sum(auction_weight(reading, hands) for hands in plain) / len(plain)
    drawn_weight = sum(auction_weight(reading, hands) for hands in drawn) / len(drawn)
    assert drawn_weight > plain_weight + 0.1


def test_without_a_reading_the_draw_is_the_plain_sample() -> None:
    observation = first_lead(5).observation(0)
    k = read_knowledge(observation)
    plain = sample_consistent(k, observation, random.Random(9))
    assert sample_by_auction(k, observation, [], random.Random(9), math.inf) == plain


def test_a_reading_no_deal_fits_still_gives_a_consistent_deal() -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    observation = state.observation((bidder + 1) % 4)
    k = read_knowledge(observation)
    impossible = [BidderView(bidder, int(Suit.HEARTS), 500, leads=True, played=0)]
    hands = sample_by_auction(k, observation, impossible, random.Random(2), math.inf)
    assert all(hand & k.forbidden[seat] == 0 for seat, hand in enumerate(hands))
    assert hands[observation.seat or 0] == cards_mask(state.hand(observation.seat or 0))


def test_the_sites_strong_bot_does_not_read_the_auction_by_default() -> None:
    state = first_lead(5)
    assert all(auction_reading(state.observation(seat)) == [] for seat in range(4))


def test_the_defence_alone_reads_the_auction_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strong, "DEFENCE_AUCTION_READING", True)
    state = first_lead(5)
    contract = state.contract
    assert contract is not None
    for seat in range(4):
        read = auction_reading(state.observation(seat))
        if seat % 2 == contract.team:
            assert read == []
        else:
            # The contract's bid, at least, is read.
            assert contract.seat in {view.seat for view in read if isinstance(view, BidderView)}


@pytest.mark.usefixtures("reading_on")
def test_the_classic_taking_is_not_read_as_bids() -> None:
    for players in (2, 4):
        state = classic_round(3, players)
        seat = state.to_act
        assert seat is not None
        state = state.apply(seat, state.legal_actions()[0])
        for other in range(players):
            assert auction_reading(state.observation(other)) == []


@pytest.fixture
def window_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read the auction as the strong auction bids it: the ``auction-window`` variant."""
    for name, value in VARIANTS["auction-window"].items():
        monkeypatch.setattr(strong, name, value)


@pytest.mark.usefixtures("window_on")
def test_a_bid_far_under_the_hand_weighs_little_under_a_ceiling() -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    (view,) = auction_bidders(state.observation((bidder + 1) % 4))
    # Bidding 80 with eight top cards is not how the strong auction bids.
    assert view.likelihood(giving(bidder, STRONG_HAND)) < 0.01


def test_a_bid_far_under_the_hand_weighs_fully_without_a_ceiling(
    reading_on: None,
) -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    (view,) = auction_bidders(state.observation((bidder + 1) % 4))
    assert view.likelihood(giving(bidder, STRONG_HAND)) > 0.99


@pytest.mark.usefixtures("window_on")
def test_passes_over_an_opponents_bid_are_read_for_the_opponents_only() -> None:
    state = first_lead(5)
    bidder = next(seat for seat, action in state.auction if isinstance(action, Bid))
    left, partner, right = ((bidder + step) % 4 for step in (1, 2, 3))
    # The bidder's partner passed for its partner's sake; its hand is not read.
    read = {view.seat: view.over for view in passers_over_bids(state.observation(partner))}
    assert read == {left: 80, right: 80}
    # The seat to act never reads its own pass.
    assert [view.seat for view in passers_over_bids(state.observation(left))] == [right]
    (passer,) = passers_over_bids(state.observation(left))
    assert passer.likelihood(giving(right, STRONG_HAND)) < 0.01
    assert passer.likelihood(giving(right, WEAK_HAND)) > 0.99


@pytest.mark.usefixtures("window_on")
def test_a_pass_over_a_closed_bid_is_not_read() -> None:
    state = RoundState.new(dealer=0, hands=first_lead(5).hands)
    opener = state.to_act
    assert opener is not None
    state = state.apply(opener, Bid(80, Suit.SPADES))
    state = state.apply((opener + 1) % 4, Close())
    while state.contract is None:
        state = state.apply(state.to_act or 0, Pass())
    right = (opener + 3) % 4
    assert (right, Pass()) in state.auction
    # A pass once the bid is closed says nothing of the passer's suits: nobody may bid over it.
    assert passers_over_bids(state.observation(opener)) == []


def test_passes_over_bids_are_not_read_by_default() -> None:
    state = first_lead(5)
    assert all(passers_over_bids(state.observation(seat)) == [] for seat in range(4))


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
