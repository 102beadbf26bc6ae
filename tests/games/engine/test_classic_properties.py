"""Property tests over random classic rounds of 2, 3 and 4 players.

The legal cards and the score are checked against a plain reading of the classic rules written
out here, not against the engine's own helpers.
"""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DECK,
    Action,
    Announce,
    Bid,
    Card,
    Close,
    Declaration,
    IllegalActionError,
    Name,
    Pass,
    Phase,
    Play,
    Rank,
    Reclose,
    RoundState,
    Show,
    Suit,
    Take,
    card_points,
    round_from_record,
    round_to_record,
)

from .classic_helpers import PLAYER_COUNTS, random_classic_deal
from .helpers import random_action

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
EVERY_ACTION: list[Action] = [
    Bid(80, Suit.HEARTS),
    Pass(),
    Close(),
    Reclose(),
    Take(),
    *(Name(suit) for suit in Suit),
    Announce(),
    Show(),
    *(Play(card) for card in DECK),
    *(Play(card, pilotta=True) for card in DECK),
]

# The trick order, strongest first.
TRUMP_STRENGTH = "J9AT KQ87".replace(" ", "")
SIDE_STRENGTH = "AT KQJ987".replace(" ", "")


def strength(card: Card, led: Suit, trump: Suit) -> int:
    """Return a card's strength on a trick: trumps over the led suit over the rest."""
    rank = str(card)[0]
    if card.suit == trump:
        return 100 - TRUMP_STRENGTH.index(rank)
    if card.suit == led:
        return 50 - SIDE_STRENGTH.index(rank)
    return 0


def trick_winner(cards: list[Card], leader: int, trump: Suit, players: int) -> int:
    led = cards[0].suit
    best = max(range(len(cards)), key=lambda i: strength(cards[i], led, trump))
    return (leader + best) % players


def reference_legal(
    hand: list[Card], trick: list[Card], leader: int, trump: Suit, players: int
) -> set[Card]:
    """The cards that following suit, trumping and partner protection allow, read literally."""
    if not trick:
        return set(hand)
    led = trick[0].suit
    trumps_on_trick = [c for c in trick if c.suit == trump]
    top = max(trumps_on_trick, key=lambda c: strength(c, led, trump), default=None)

    def beats(card: Card) -> bool:
        return top is None or strength(card, led, trump) > strength(top, led, trump)

    following = [c for c in hand if c.suit == led]
    if following:
        if led != trump:
            return set(following)
        higher = [c for c in following if beats(c)]
        return set(higher or following)
    trumps = [c for c in hand if c.suit == trump]
    if not trumps:
        return set(hand)
    higher = [c for c in trumps if beats(c)]
    seat = (leader + len(trick)) % players
    if players == 4 and trick_winner(trick, leader, trump, 4) == (seat + 2) % 4:
        if top is None:
            return set(hand)
        return {c for c in hand if c.suit != trump} | set(higher or trumps)
    return set(higher or trumps)


def play_checked(seed: int, players: int) -> RoundState:
    """Play a random round, checking the legal cards against the classic rules at every card."""
    rng = random.Random(seed)
    state = random_classic_deal(rng, players, rng.randrange(players))
    while (seat := state.to_act) is not None:
        if state.phase is Phase.PLAY:
            open_trick = state.current_trick
            assert open_trick is not None
            assert state.contract is not None
            expected = reference_legal(
                list(state.hand(seat)),
                list(open_trick.cards),
                open_trick.leader,
                state.contract.trump,
                players,
            )
            legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
            assert legal == expected
        state = state.apply(seat, random_action(state, rng))
    return state


def side_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def classic_key(declaration: Declaration) -> tuple[int, int, int, int]:
    if declaration.kind == "four":
        four_order = "QKTA9J"
        return (declaration.value, 1, four_order.index(str(declaration.rank)), 0)
    return (declaration.value, 0, declaration.length, int(declaration.rank))


def reference_score(state: RoundState) -> dict[str, object]:
    """Score a finished round as the classic rules say, from its tricks, shows and pilotta calls."""
    players = state.players
    sides = 2 if players == 4 else players
    contract = state.contract
    assert contract is not None
    cards = [0] * sides
    tricks = [0] * sides
    for trick in state.tricks:
        won = side_of(trick.winner, players)
        tricks[won] += 1
        cards[won] += sum(card_points(card, contract.trump) for card in trick.cards)
    cards[side_of(state.tricks[-1].winner, players)] += 10
    shown: list[list[Declaration]] = [[] for _ in range(sides)]
    for seat in range(players):
        if tricks[side_of(seat, players)]:
            shown[side_of(seat, players)].extend(state.shown(seat))
    best = [max((classic_key(d) for d in side), default=None) for side in shown]
    keys = [key for key in best if key is not None]
    declarations = [0] * sides
    if keys and keys.count(max(keys)) == 1:
        winner = best.index(max(keys))
        declarations[winner] = sum(d.value for d in shown[winner])
    pilotta = [0] * sides
    pair = {Card(contract.trump, Rank.KING), Card(contract.trump, Rank.QUEEN)}
    calls = state.pilotta_calls
    if len(calls) == 2 and {card for _, card in calls} == pair:
        pilotta[side_of(calls[0][0], players)] = 20
    capot = next((side for side in range(sides) if tricks[side] == 8), None)
    total = [
        cards[s] + (100 if s == capot else 0) + declarations[s] + pilotta[s] for s in range(sides)
    ]
    taker = contract.team
    made = tricks[taker] == 8 or (tricks[taker] > 0 and total[taker] >= max(total))
    score = [pilotta[s] if s == taker and not made else total[s] for s in range(sides)]
    return {
        "card_points": tuple(cards),
        "declarations": tuple(declarations),
        "pilotta": tuple(pilotta),
        "made": made,
        "capot": capot,
        "total": tuple(total),
        "score": tuple(score),
    }


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_only_the_cards_of_section_9_are_legal(players: int, seed: int) -> None:
    play_checked(seed, players)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_every_card_dealt_is_played_once_in_8_tricks(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = random_classic_deal(rng, players, rng.randrange(players))
    dealt = {card for hand in state.hands for card in hand}
    assert len(dealt) == 5 * players
    while (seat := state.to_act) is not None:
        state = state.apply(seat, random_action(state, rng))
    if state.phase is Phase.CANCELLED:
        assert (state.result, state.tricks, state.contract) == (None, (), None)
        return
    completed = [card for hand in state.hands for card in hand]
    assert len(completed) == len(set(completed)) == 8 * players
    played = [card for trick in state.tricks for card in trick.cards]
    assert sorted(played) == sorted(completed)
    assert len(state.tricks) == 8
    assert all(len(trick.cards) == players for trick in state.tricks)
    assert all(state.hand(seat) == () for seat in range(players))
    assert state.turned in completed
    if players == 2:
        assert set(state.stock[5:]).isdisjoint(played)
    else:
        assert sorted(played) == sorted(state.ruleset.deck)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_the_points_are_162_or_the_dealt_cards_and_the_score_follows_section_9(
    players: int, seed: int
) -> None:
    state = play_checked(seed, players)
    result = state.result
    if result is None:
        assert state.phase is Phase.CANCELLED
        return
    assert state.contract is not None
    trump = state.contract.trump
    points = sum(trick.points for trick in state.tricks)
    if players == 2:
        dealt = [card for hand in state.hands for card in hand]
        assert points == sum(card_points(card, trump) for card in dealt) + 10
    else:
        assert points == 162
    assert sum(result.card_points) == points
    expected = reference_score(state)
    actual = {key: getattr(result, key) for key in expected}
    assert actual == expected
    assert result.raw == result.score
    assert result.total is not None
    assert len(result.score) == state.ruleset.sides


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=50, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=60))
def test_a_record_replays_to_the_identical_state(players: int, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    start = random_classic_deal(rng, players, rng.randrange(players))
    state = start
    while (seat := state.to_act) is not None:
        state = state.apply(seat, random_action(state, rng))
    partial = start
    for seat, action in state.history[:cut]:
        partial = partial.apply(seat, action)
    for original in (state, partial):
        replayed = round_from_record(json.loads(json.dumps(round_to_record(original))))
        assert replayed == original
        assert replayed.hands == original.hands
        assert replayed.result == original.result
        assert replayed.legal_actions() == original.legal_actions()
        for seat in range(players):
            assert replayed.observation(seat) == original.observation(seat)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_only_legal_actions_are_accepted(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = random_classic_deal(rng, players, rng.randrange(players))
    while state.to_act is not None:
        legal = set(state.legal_actions())
        for _ in range(6):
            seat, action = rng.randrange(players + 1), rng.choice(EVERY_ACTION)
            plain = Play(action.card) if isinstance(action, Play) else action
            allowed = state.why_illegal(seat, action) is None
            if allowed:
                assert seat == state.to_act
                assert plain in legal
                continue
            if not isinstance(action, Play) or not action.pilotta:
                assert seat != state.to_act or action not in legal
            before = (state.history, state.phase, state.to_act, state.legal_actions())
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)
            assert before == (state.history, state.phase, state.to_act, state.legal_actions())
        state = state.apply(state.to_act, random_action(state, rng))
