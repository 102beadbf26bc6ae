"""The bots in the classic game: every level legal at every table, taking, partner protection."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.ai import LEVELS, choose_action, strong, warm_up
from games.ai.arena import classic_round
from games.ai.compare import looseness
from games.ai.knowledge import Knowledge, read_knowledge
from games.ai.sampling import sample_hands
from games.ai.sheet import SampleScorer, sample_scorer
from games.engine import (
    Card,
    Name,
    Pass,
    Play,
    Rank,
    RoundState,
    Ruleset,
    Suit,
    Take,
    parse_cards,
)
from games.engine.cards import cards_mask
from games.engine.fast import POINTS, iter_bits
from games.engine.observation import Observation
from games.engine.phase import Phase

PLAYERS = [2, 3, 4]


def play_out(
    state: RoundState, levels: list[str], rng: random.Random, budget: float = 0.01
) -> RoundState:
    while state.to_act is not None:
        seat = state.to_act
        level = levels[seat % len(levels)]
        action = choose_action(state.observation(seat), level=level, rng=rng, budget=budget)
        state = state.apply(seat, action)
    return state


def played_rounds(players: int, level: str, count: int, seed: int) -> list[RoundState]:
    rng = random.Random(seed)
    return [play_out(classic_round(seed * 100 + i, players), [level], rng) for i in range(count)]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_classic_rounds(players: int, level: str) -> None:
    # RoundState.apply refuses an illegal action: finishing the rounds is the check.
    rounds = played_rounds(players, level, 3 if level == "strong" else 15, players)
    assert all(state.phase in (Phase.FINISHED, Phase.CANCELLED) for state in rounds)


@pytest.mark.parametrize("players", PLAYERS)
def test_mixed_levels_play_legal_classic_rounds(players: int) -> None:
    rng = random.Random(players)
    for i in range(10):
        levels = rng.sample(["random", "easy", "medium", "easy"], players % 4 or 2)
        play_out(classic_round(1000 + i, players), levels, rng)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_heuristic_takes_most_deals_but_passes_weak_hands(players: int, level: str) -> None:
    rounds = played_rounds(players, level, 30, 7)
    taken = sum(state.contract is not None for state in rounds)
    passes = sum(isinstance(action, Pass) for state in rounds for _, action in state.auction)
    assert taken >= 20
    if level == "medium":  # the easy level, looser, passes less
        assert passes >= 5


@pytest.mark.parametrize("players", PLAYERS)
def test_declarations_and_pilotta_are_always_taken(players: int) -> None:
    for state in played_rounds(players, "medium", 20, 3):
        contract = state.contract
        if contract is None:
            continue
        pair = {Card(contract.trump, Rank.KING), Card(contract.trump, Rank.QUEEN)}
        for seat in range(players):
            assert state.shown(seat) == state.declarations(seat)
            if pair <= set(state.hands[seat]):
                assert {card for _, card in state.pilotta_calls} == pair


# --- taking -----------------------------------------------------------------------------------


def taking_state(hand: str, turned: str, players: int = 4) -> RoundState:
    """Return a round, dealer the last seat, in which seat 0 (first to speak) holds ``hand``."""
    ruleset = Ruleset.classic(players)
    mine = parse_cards(hand)
    face = parse_cards(turned)[0]
    rest = [card for card in ruleset.deck if card not in mine and card != face]
    hands = [list(mine)] + [rest[5 * i : 5 * i + 5] for i in range(players - 1)]
    stock = rest[5 * (players - 1) :]
    return RoundState.new(
        dealer=players - 1, hands=hands, ruleset=ruleset, turned=face, stock=stock
    )


def decide(state: RoundState, level: str = "medium") -> object:
    seat = state.to_act
    assert seat is not None
    return choose_action(state.observation(seat), level=level, rng=random.Random(0))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_a_strong_hand_in_the_turned_suit_takes(players: int, level: str) -> None:
    assert decide(taking_state("9H AH TH AC AS", "JH", players), level) == Take()


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_a_weak_hand_passes(players: int, level: str) -> None:
    assert decide(taking_state("9C QD 9D KS 9S", "QH", players), level) == Pass()


def pass_round_one(state: RoundState) -> RoundState:
    while state.auction_round == 1:
        assert state.to_act is not None
        state = state.apply(state.to_act, Pass())
    return state


@pytest.mark.parametrize("players", PLAYERS)
def test_round_two_names_the_strong_suit(players: int) -> None:
    state = pass_round_one(taking_state("JS 9S AS TS AC", "7H" if players == 4 else "9H", players))
    assert decide(state) == Name(Suit.SPADES)


@pytest.mark.parametrize("players", PLAYERS)
def test_easy_takes_with_less_than_medium(players: int) -> None:
    # Over many random hands, the looser easy level takes more often.
    rng = random.Random(5)
    easy = medium = 0
    for _i in range(60):
        state = classic_round(rng.randrange(10**9), players)
        easy += isinstance(decide(state, "easy"), Take)
        medium += isinstance(decide(state, "medium"), Take)
        assert medium <= easy
    assert easy > medium


# --- partner protection -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_the_heuristic_never_trumps_over_a_winning_partner_unforced(seed: int) -> None:
    rng = random.Random(seed)
    state = classic_round(seed, 4)
    while state.to_act is not None:
        seat = state.to_act
        observation = state.observation(seat)
        action = choose_action(observation, level="medium", rng=rng)
        if state.phase == Phase.PLAY and isinstance(action, Play):
            k = read_knowledge(observation)
            trick = state.current_trick
            assert trick is not None
            assert state.contract is not None
            trump = state.contract.trump
            legal = [a.card for a in observation.legal_actions if isinstance(a, Play)]
            if trick.cards and any(c.suit != trump for c in legal):
                winner = k.seat_at(_winning_position(trick.cards, trump))
                void = trick.cards[0].suit != trump and all(
                    c.suit != trick.cards[0].suit for c in observation.hand
                )
                if winner == (seat + 2) % 4 and void:
                    assert action.card.suit != trump
        state = state.apply(seat, action)


def _winning_position(cards: tuple[Card, ...], trump: Suit) -> int:
    from games.engine.play import winning_position

    return winning_position(cards, trump)


# --- knowledge and samples --------------------------------------------------------------------


def play_decisions(players: int, seed: int, rounds: int) -> list[tuple[RoundState, int]]:
    rng = random.Random(seed)
    found = []
    for i in range(rounds):
        state = classic_round(seed * 1000 + i, players)
        while state.to_act is not None:
            seat = state.to_act
            if state.phase == Phase.PLAY:
                found.append((state, seat))
            level = "medium" if rng.random() < 0.7 else "random"
            state = state.apply(seat, choose_action(state.observation(seat), level=level, rng=rng))
    return found


@pytest.mark.parametrize("players", PLAYERS)
def test_what_a_seat_deduces_is_true_of_the_real_hands(players: int) -> None:
    for state, seat in play_decisions(players, 1, 25):
        k = read_knowledge(state.observation(seat))
        assert k.players == players
        for other in range(players):
            real = cards_mask(state.hand(other))
            assert real & k.forbidden[other] == 0
            assert k.known[other] & ~real == 0


def test_the_taker_is_known_to_hold_the_turned_card() -> None:
    for state, seat in play_decisions(3, 2, 5):
        assert state.contract is not None
        assert state.turned is not None
        k = read_knowledge(state.observation(seat))
        taker = state.contract.seat
        if taker != seat and state.turned in state.hand(taker):
            assert k.known[taker] >> state.turned.index & 1


@pytest.mark.parametrize("players", PLAYERS)
def test_samples_are_consistent_with_what_was_seen(players: int) -> None:
    rng = random.Random(2)
    for state, seat in play_decisions(players, 3, 6):
        k = read_knowledge(state.observation(seat))
        for _ in range(3):
            hands = sample_hands(k, rng)
            assert len(hands) == players
            assert hands[seat] == k.hand
            dealt = 0
            for other in range(players):
                assert hands[other].bit_count() == k.counts[other]
                assert hands[other] & k.forbidden[other] == 0
                assert k.known[other] & ~hands[other] == 0
                assert dealt & hands[other] == 0
                dealt |= hands[other]
            assert dealt & ~(k.hand | k.unseen) == 0
            if players == 2:  # eight cards stay unused
                assert (k.hand | k.unseen).bit_count() - dealt.bit_count() == 8


# --- the strong level -------------------------------------------------------------------------


def points_left(k: Knowledge, hands: tuple[int, ...]) -> int:
    """Return the card points still to be taken in a deal: hands, open trick, last 10."""
    held = sum(POINTS[k.trump][c] for hand in hands for c in iter_bits(hand))
    return held + sum(POINTS[k.trump][c] for c in k.trick) + 10


def checked_margins(state: RoundState, rng: random.Random) -> int:
    """Play ``state`` out with medium bots; check the sample scorer's margin at each card.

    At every decision among cards only, the scorer of the real deal, given the points the seat's
    side really took from there on, must give the engine's score: this side's minus the other
    side's, or with three players (given how the other two shared the rest) this seat's minus
    the mean of the other two's. Returns the decisions checked.
    """
    players = state.players
    decisions = []
    while state.to_act is not None:
        seat = state.to_act
        observation = state.observation(seat)
        if state.phase == Phase.PLAY and all(
            isinstance(a, Play) for a in observation.legal_actions
        ):
            decisions.append(
                (observation, tuple(cards_mask(state.hand(s)) for s in range(players)))
            )
        state = state.apply(seat, choose_action(observation, level="medium", rng=rng))
    result = state.result
    if result is None:
        return 0
    checked = 0
    sides = range(len(result.card_points))
    for observation, hands in decisions:
        k = read_knowledge(observation)
        me = k.side(k.seat)
        others = [s for s in sides if s != me]
        scorer = sample_scorer(k, observation, hands, points_left(k, hands))
        future = [result.card_points[s] - k.points[s] for s in sides]
        if any(future[s] == 0 and k.tricks_won[s] == 0 for s in sides):
            continue  # a side with no trick so far, and no points to come: approximated
        theirs = sum(result.score[s] for s in others) / len(others)
        if len(others) == 2:
            split = {s: future[s] for s in others}
            assert scorer.margin_of_split(future[me], split) == result.score[me] - theirs
        else:
            assert scorer.margin(future[me]) == result.score[me] - theirs
        checked += 1
    return checked


@pytest.mark.parametrize("players", PLAYERS)
def test_the_sample_scorer_gives_the_engine_score_on_the_real_deal(players: int) -> None:
    checked = sum(
        checked_margins(classic_round(400 + seed, players), random.Random(seed))
        for seed in range(12)
    )
    assert checked > 50


def sample_margins(observation: Observation, rng: random.Random) -> list[float]:
    """Return a sampled deal's margins for the seat to act, by the points it takes: 0, 1, ..."""
    k = read_knowledge(observation)
    hands = sample_hands(k, rng)
    left = points_left(k, hands)
    scorer = sample_scorer(k, observation, hands, left)
    return [scorer.margin(points) for points in range(left + 1)]


@pytest.mark.parametrize("players", [2, 4])
def test_the_sample_margin_grows_with_the_points_taken(players: int) -> None:
    rng = random.Random(6)
    for state, seat in play_decisions(players, 8, 6):
        margins = sample_margins(state.observation(seat), rng)
        assert margins == sorted(margins)


def test_with_three_players_taking_what_is_left_beats_taking_nothing() -> None:
    # One point more is not always better with three: taken from the third player, it may let
    # the taker make. All of what is left is always better than none of it.
    rng = random.Random(7)
    for state, seat in play_decisions(3, 8, 6):
        margins = sample_margins(state.observation(seat), rng)
        assert margins[-1] > margins[0]


def test_with_three_players_the_margin_is_the_mean_over_the_others_shares() -> None:
    state, seat = next(
        (state, seat)
        for state, seat in play_decisions(3, 9, 3)
        if state.contract is not None and state.contract.seat != seat
    )
    observation = state.observation(seat)
    k = read_knowledge(observation)
    hands = sample_hands(k, random.Random(3))
    left = points_left(k, hands)
    scorer = sample_scorer(k, observation, hands, left)
    assert state.contract is not None
    taker = state.contract.seat
    third = 3 - seat - taker
    for future in (0, 40, left // 2, left):
        rest = left - future
        shares = [(rest + 3) // 4, (rest + 1) // 2, (3 * rest + 3) // 4]  # the taker's, rounded up
        splits = [scorer.margin_of_split(future, {taker: t, third: rest - t}) for t in shares]
        assert scorer.margin(future) == pytest.approx(sum(splits) / 3)


def test_with_three_players_the_solver_sees_the_seat_to_act_as_seat_0() -> None:
    for state, seat in play_decisions(3, 10, 2)[::4]:
        k = read_knowledge(state.observation(seat))
        hands = tuple(cards_mask(state.hand(s)) for s in range(3))
        pos = strong.sampled_position(k, hands)
        assert pos.to_act == 0
        assert pos.hands[:3] == tuple(hands[(seat + turn) % 3] for turn in range(3))
        assert pos.hands[3] == 0
        assert pos.trick == k.trick


@pytest.mark.parametrize("players", PLAYERS)
def test_strong_searches_the_classic_game_by_its_score(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    scored: list[int] = []

    def spy(*args: Any) -> SampleScorer:
        scorer = sample_scorer(*args)
        scored.append(scorer.remaining)
        return scorer

    monkeypatch.setattr(strong, "sample_scorer", spy)
    warm_up()
    searched = 0
    for state, seat in play_decisions(players, 10, 2)[::3]:
        if len(state.tricks) < 3:
            continue  # early positions may need more than the budget for one sample
        observation = state.observation(seat)
        plays = [a for a in observation.legal_actions if isinstance(a, Play)]
        before = len(scored)
        action = choose_action(observation, level="strong", rng=random.Random(2), budget=0.2)
        assert action in observation.legal_actions or (
            isinstance(action, Play) and Play(action.card) in plays
        )
        if len(plays) > 1 and len(plays) == len(observation.legal_actions):
            assert len(scored) > before  # the search ran and scored its samples
            searched += 1
    assert searched > 0


@pytest.mark.parametrize("players", PLAYERS)
def test_strong_takes_as_the_medium_heuristic_made_looser(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = classic_round(77, players)
    assert state.to_act is not None
    observation = state.observation(state.to_act)
    assert Take() in observation.legal_actions

    def strong_action() -> object:
        return choose_action(observation, level="strong", rng=random.Random(1))

    medium = choose_action(observation, level="medium", rng=random.Random(1))
    monkeypatch.setattr(strong, "TAKE_LOOSENESS", looseness(0))
    assert strong_action() == medium
    # Only the looseness set for this table size counts.
    monkeypatch.setattr(strong, "TAKE_LOOSENESS", {**looseness(-500), players: 500})
    assert strong_action() == Take()
    monkeypatch.setattr(strong, "TAKE_LOOSENESS", {**looseness(500), players: -500})
    assert strong_action() == Pass()
