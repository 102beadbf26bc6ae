"""Observations: what each seat may know, and nothing more."""

import dataclasses
import random
from typing import Any

from games.engine import (
    Action,
    Announce,
    Card,
    Observation,
    Phase,
    RoundState,
    deal,
    draw_cut,
    parse_cards,
    shuffled_deck,
)
from games.engine.actions import (
    ANNOUNCE,
    BIDS,
    CLOSE,
    PASS,
    PILOTTA_PLAYS,
    PLAYS,
    RECLOSE,
    SHOW,
)

from .helpers import play, play_round, random_action

HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]


def started() -> RoundState:
    return play_round(dealer=3, hands=HANDS, actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"])


def reachable(value: Any, seen: set[int] | None = None) -> list[Any]:
    """Walk every attribute, item and slot reachable from ``value``."""
    seen = set() if seen is None else seen
    if id(value) in seen or isinstance(value, str | int | float | bool | type(None)):
        return [value]
    seen.add(id(value))
    found = [value]
    if isinstance(value, Card):
        return found
    children: list[Any] = []
    if isinstance(value, dict):
        children = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple | set | frozenset):
        children = list(value)
    else:
        slots = [s for cls in type(value).__mro__ for s in getattr(cls, "__slots__", ())]
        children = [getattr(value, s) for s in slots if hasattr(value, s)]
        children += list(getattr(value, "__dict__", {}).values())
    for child in children:
        found += reachable(child, seen)
    return found


def visible_cards(observation: Observation) -> set[Card]:
    return {item for item in reachable(observation) if isinstance(item, Card)}


def test_a_seat_sees_its_own_hand_and_counts_of_the_others() -> None:
    observation = started().observation(1)
    assert observation.hand == parse_cards(HANDS[1])
    assert observation.card_counts == (8, 8, 8, 8)
    assert observation.phase is Phase.PLAY
    assert observation.to_act == 0
    assert observation.legal_actions == ()
    assert not any(isinstance(item, RoundState) for item in reachable(observation))


def test_the_seat_to_act_sees_its_legal_actions() -> None:
    observation = started().observation(0)
    assert observation.legal_actions[0] == Announce()
    assert len(observation.legal_actions) == 9


def test_hidden_cards_are_unreachable_from_an_observation() -> None:
    state = play(started(), "announce AC 7C TH")
    for seat in range(4):
        allowed = set(state.hand(seat)) | {Card.parse(c) for c in ("AC", "7C", "TH")}
        assert visible_cards(state.observation(seat)) <= allowed
    assert visible_cards(state.public_observation()) == {Card.parse(c) for c in ("AC", "7C", "TH")}


def test_an_announcement_shows_kind_length_and_value_only() -> None:
    state = play(started(), "announce")
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.announcements == ((("run", 6, 100),), (), (), ())
        assert observation.shown == ((), (), (), ())


def test_shown_declarations_reveal_their_cards() -> None:
    state = play(started(), "announce AC 7C TH JH KH show")
    spectator = state.public_observation()
    assert spectator.hand == ()
    assert spectator.seat is None
    assert visible_cards(spectator) >= set(parse_cards("KC QC JC TC 9C"))


def test_pilotta_calls_are_public() -> None:
    hands = ["JH 9H AH TH KH QH 7C 8C", "7H 7D 8D 9D TD 7S 8S 9S"]
    hands += ["8H JD QD KD AD TS JS QS", "9C TC JC QC KC AC KS AS"]
    state = play_round(dealer=3, hands=hands, actions=["0 bid 80 H", "1 pass", "2 pass", "3 pass"])
    state = play(state, "+KH")
    assert state.observation(2).pilotta_calls == ((0, Card.parse("KH")),)


def test_an_observation_is_a_frozen_value() -> None:
    observation = started().observation(2)
    assert dataclasses.is_dataclass(observation)
    assert observation == started().observation(2)


def test_an_observation_explains_refusals_exactly_as_the_state() -> None:
    """Observation.why_illegal agrees with the state on every action, at every step."""
    rng = random.Random(21)
    candidates: tuple[Action, ...] = (
        *BIDS,
        *PLAYS,
        *PILOTTA_PLAYS,
        PASS,
        CLOSE,
        RECLOSE,
        ANNOUNCE,
        SHOW,
    )
    for _ in range(10):
        dealer = rng.randrange(4)
        hands = deal(shuffled_deck(rng), dealer=dealer, cut=draw_cut(rng))
        state = RoundState.new(dealer=dealer, hands=hands)
        while state.to_act is not None:
            for seat in range(4):
                observation = state.observation(seat)
                for action in candidates:
                    assert observation.why_illegal(action) == state.why_illegal(seat, action)
            state = state.apply(state.to_act, random_action(state, rng))
        assert state.observation(0).why_illegal(PASS) == state.why_illegal(0, PASS)
