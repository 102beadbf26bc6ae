"""What each seat sees in the classic game: the turned card, never the stock."""

import random
import re

import pytest

from games.engine import DECK, Card, Observation, Phase, RoundState
from games.engine.actions import (
    ANNOUNCE,
    BIDS,
    CLOSE,
    NAMES,
    PASS,
    PILOTTA_PLAYS,
    PLAYS,
    RECLOSE,
    SHOW,
    TAKE,
    Action,
)

from .classic_helpers import PLAYER_COUNTS, classic_round, new_classic, random_classic_deal, take
from .helpers import play, random_action
from .test_classic_dealing import FOUR, TWO, TWO_UNUSED
from .test_observation import visible_cards

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])[789TJQKA][CDHS](?![0-9A-Za-z])")
CANDIDATES: tuple[Action, ...] = (
    *BIDS[:8],
    *PLAYS,
    *PILOTTA_PLAYS,
    PASS,
    CLOSE,
    RECLOSE,
    ANNOUNCE,
    SHOW,
    TAKE,
    *NAMES,
)


def cards_in(observation: Observation) -> set[Card]:
    """Every card an observation holds, as an object or written in its repr."""
    written = {Card.parse(text) for text in CARD_TEXT.findall(repr(observation))}
    return written | visible_cards(observation)


def public_cards(state: RoundState) -> set[Card]:
    """The cards every seat may know of: the turned card, those played and those shown."""
    public = {card for trick in state.tricks for card in trick.cards}
    if state.current_trick is not None:
        public |= set(state.current_trick.cards)
    public |= {card for seat in range(state.players) for d in state.shown(seat) for card in d.cards}
    assert state.turned is not None
    return public | {state.turned}


def assert_nothing_hidden_is_seen(state: RoundState) -> None:
    public = public_cards(state)
    for seat in range(state.players):
        seen = cards_in(state.observation(seat))
        assert seen <= public | set(state.hand(seat)), seat
    assert cards_in(state.public_observation()) <= public


def test_the_turned_card_is_public_and_the_stock_is_not() -> None:
    state = new_classic(dealer=3, hands=FOUR, taker=0)
    for seat in (0, 1, 2, 3, None):
        observation = state.public_observation() if seat is None else state.observation(seat)
        assert str(observation.turned) == "TH"
        assert observation.auction_round == 1
        assert observation.card_counts == (5, 5, 5, 5)
        assert observation.players == 4
        assert cards_in(observation).isdisjoint(state.stock)
    assert state.observation(0).legal_actions == (TAKE, PASS)
    assert state.observation(1).legal_actions == ()


def test_after_the_take_each_seat_sees_its_own_eight_and_the_taker_holds_the_turned_card() -> None:
    state = take(new_classic(dealer=3, hands=FOUR, taker=0), 2)
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.card_counts == (8, 8, 8, 8)
        assert observation.auction_round is None
        assert str(observation.turned) == "TH"
        assert observation.contract is not None
        assert observation.contract.seat == 2
    assert Card.parse("TH") in state.observation(2).hand
    assert_nothing_hidden_is_seen(state)
    # The stock's cards received by seat 3 are its own, and nobody else's to see.
    assert Card.parse("AH") in state.observation(3).hand
    assert Card.parse("AH") not in cards_in(state.observation(0))


def test_two_players_never_see_the_unused_cards() -> None:
    unused = {Card.parse(text) for text in TWO_UNUSED.split()}
    state = new_classic(dealer=1, hands=TWO, taker=0, unused=TWO_UNUSED)
    rng = random.Random(4)
    while True:
        for seat in (0, 1):
            assert cards_in(state.observation(seat)).isdisjoint(unused)
        assert cards_in(state.public_observation()).isdisjoint(unused)
        assert_nothing_hidden_is_seen(state)
        if state.to_act is None:
            break
        state = state.apply(state.to_act, random_action(state, rng))
    assert state.phase is Phase.FINISHED


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", range(6))
def test_no_observation_ever_holds_a_hidden_card(players: int, seed: int) -> None:
    rng = random.Random(seed * 10 + players)
    state = random_classic_deal(rng, players, rng.randrange(players))
    while True:
        assert_nothing_hidden_is_seen(state)
        if state.to_act is None:
            break
        state = state.apply(state.to_act, random_action(state, rng))
    if players == 2:
        unused = set(state.stock[5:])
        assert all(cards_in(state.observation(seat)).isdisjoint(unused) for seat in (0, 1))


def test_the_card_pattern_finds_cards_in_a_repr() -> None:
    state = play(classic_round(dealer=3, hands=FOUR, taker=0), "AC")
    found = cards_in(state.observation(1))
    assert {Card.parse(c) for c in ("AC", "TH", "9H", "QD")} <= found
    assert Card.parse("KC") not in found
    assert len(DECK) == 32


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_an_observation_explains_refusals_exactly_as_the_state(players: int) -> None:
    rng = random.Random(100 + players)
    for _ in range(3):
        state = random_classic_deal(rng, players, rng.randrange(players))
        while True:
            for seat in range(players):
                observation = state.observation(seat)
                for action in CANDIDATES:
                    assert observation.why_illegal(action) == state.why_illegal(seat, action), (
                        seat,
                        action,
                    )
            if state.to_act is None:
                break
            state = state.apply(state.to_act, random_action(state, rng))


def test_an_observation_explains_a_second_round_and_a_cancelled_one() -> None:
    state = new_classic(dealer=3, hands=FOUR, taker=0)
    for _ in range(8):
        for seat in range(4):
            observation = state.observation(seat)
            for action in CANDIDATES:
                assert observation.why_illegal(action) == state.why_illegal(seat, action)
        state = state.apply(state.to_act, PASS)  # type: ignore[arg-type]
    assert state.phase is Phase.CANCELLED
    assert state.observation(0).why_illegal(PASS) == state.why_illegal(0, PASS)
