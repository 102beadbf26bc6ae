"""The bots' entry point: legal moves only, from an observation only, declarations always."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
from enum import Enum
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, ModuleType

import pytest

from games.ai import LEVELS, choose_action, warm_up
from games.engine import (
    Bid,
    Card,
    Pass,
    Play,
    RoundState,
    Suit,
    deal,
    draw_cut,
    parse_cards,
    shuffled_deck,
)
from games.engine.observation import Observation
from tests.games.engine.helpers import assert_declarations_and_pilotta_taken

FAST_LEVELS = ["random", "easy", "medium"]


def new_round(rng: random.Random) -> RoundState:
    dealer = rng.randrange(4)
    hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
    return RoundState.new(dealer=dealer, hands=hands)


def hearts_round(hands: tuple[str, str, str, str], plays: str) -> RoundState:
    """Return a round dealt ``hands`` by seat, seat 0 bidding 80 in hearts and the others
    passing, after the cards ``plays`` from seat 0 on."""
    dealt = tuple(tuple(parse_cards(hand)) for hand in hands)
    state = RoundState.new(dealer=3, hands=dealt)
    state = state.apply(0, Bid(80, Suit.HEARTS))
    for _ in range(3):
        state = state.apply(state.to_act or 0, Pass())
    for seat, card in enumerate(parse_cards(plays)):
        state = state.apply(seat, Play(card))
    return state


def play_out(state: RoundState, level: str, rng: random.Random, budget: float = 0.01) -> RoundState:
    while state.to_act is not None:
        seat = state.to_act
        action = choose_action(state.observation(seat), level=level, rng=rng, budget=budget)
        state = state.apply(seat, action)
    return state


def test_warm_up_runs() -> None:
    warm_up()


@pytest.mark.parametrize("level", FAST_LEVELS)
def test_bots_only_play_legal_actions(level: str) -> None:
    rng = random.Random(7)
    for _ in range(40):
        play_out(new_round(rng), level, rng)


def test_unknown_level_is_refused() -> None:
    state = new_round(random.Random(1))
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(
            state.observation(state.to_act or 0), level="grandmaster", rng=random.Random()
        )


def test_a_seat_not_to_act_is_refused() -> None:
    state = new_round(random.Random(1))
    other = ((state.to_act or 0) + 1) % 4
    with pytest.raises(ValueError, match="seat to act"):
        choose_action(state.observation(other), level="random", rng=random.Random())


def test_levels_are_stable() -> None:
    assert LEVELS == ("random", "easy", "medium", "strong")


# --- a bot sees only its observation ----------------------------------------------------------

OPAQUE = (type, ModuleType, FunctionType, BuiltinFunctionType, Enum, str, int, float, bool)


def reachable_cards(root: object) -> set[Card]:
    """Return every Card reachable from ``root`` through object references."""
    found: set[Card] = set()
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, OPAQUE):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, RoundState), "an observation must not reach the round"
        if isinstance(obj, Card):
            found.add(obj)
            continue
        stack.extend(gc.get_referents(obj))
    return found


def public_cards(observation: Observation) -> set[Card]:
    """Return the cards the seat may know: its hand, the played cards, shown declarations."""
    cards = set(observation.hand)
    for trick in observation.tricks:
        cards.update(trick.cards)
    if observation.current_trick is not None:
        cards.update(observation.current_trick.cards)
    for declarations in observation.shown:
        for declaration in declarations:
            cards.update(declaration.cards)
    return cards


def test_observations_reach_no_hidden_card() -> None:
    rng = random.Random(3)
    for _ in range(10):
        state = new_round(rng)
        while state.to_act is not None:
            seat = state.to_act
            observation = state.observation(seat)
            reachable = reachable_cards(observation)
            assert set(observation.hand) <= reachable  # the walk does find cards
            assert reachable <= public_cards(observation)
            action = choose_action(observation, level="medium", rng=rng)
            state = state.apply(seat, action)


# --- announce, show and pilotta ---------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_announce_show_and_pilotta_are_always_made(level: str) -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 40:
        state = play_out(new_round(rng), level, rng)
        if state.contract is not None:
            assert_declarations_and_pilotta_taken(state)
            checked += 1


# --- heuristic bidding ------------------------------------------------------------------------


def first_action(hand: str, level: str = "medium") -> object:
    """Return the first bid of seat 1 holding ``hand`` (dealer 0), others holding the rest."""
    from games.engine import DECK, parse_cards

    mine = parse_cards(hand)
    rest = [card for card in DECK if card not in mine]
    hands = [rest[0:8], list(mine), rest[8:16], rest[16:24]]
    state = RoundState.new(dealer=0, hands=hands)
    return choose_action(state.observation(1), level=level, rng=random.Random(0))


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_a_strong_trump_hand_bids_in_its_suit(level: str) -> None:
    action = first_action("JH 9H AH TH KH AC AS 7D", level)
    assert isinstance(action, Bid)
    assert action.trump == Suit.HEARTS
    assert action.value >= 100


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_a_weak_hand_passes(level: str) -> None:
    assert first_action("7C 8C 9D 8D 7H 8S 9S QC", level) == Pass()


def test_the_cheap_levels_play_without_loading_the_compiled_search() -> None:
    # A fresh process: this one loaded numba long ago.
    script = (
        "import random, sys\n"
        "from games.ai import choose_action\n"
        "from tests.ai.test_bots import new_round\n"
        "rng = random.Random(3)\n"
        "for level in ('random', 'easy', 'medium'):\n"
        "    state = new_round(rng)\n"
        "    while state.to_act is not None:\n"
        "        seat = state.to_act\n"
        "        action = choose_action(state.observation(seat), level=level, rng=rng)\n"
        "        state = state.apply(seat, action)\n"
        "print(sorted(name for name in ('numba', 'games.ai.solver_jit') if name in sys.modules))\n"
    )
    assert printed_by_fresh_process(script) == "[]"


def printed_by_fresh_process(
    script: str, *, cwd: Path | None = None, env: dict[str, str] | None = None
) -> str:
    """Run ``script`` in a new Python process, with nothing loaded yet; return what it prints."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )
    return done.stdout.strip()
