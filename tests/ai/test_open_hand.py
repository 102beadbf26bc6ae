"""The open-hand level: legal play, the solver's value on the real deal, and kept off the site."""

from __future__ import annotations

import random

import pytest

from games import bots
from games.ai import LEVELS, ROOM_LEVELS, choose_action, open_hand
from games.ai.arena import Player, Timings, play_round
from games.ai.knowledge import Knowledge
from games.ai.open_hand import (
    OPEN,
    choose_open,
    choose_open_defence,
    choose_open_leads,
    choose_open_partner,
)
from games.ai.sampling import sample_hands
from games.ai.solver_jit import solve_jit
from games.ai.strong import choose_strong, search_card
from games.engine import RoundState
from games.engine.actions import Action
from games.engine.cards import cards_mask
from games.engine.fast import PlayPosition
from games.engine.observation import Observation
from games.engine.phase import Phase
from games.forms import PlayNowForm, RoomForm
from games.models import Room
from tests.games.engine.helpers import assert_declarations_and_pilotta_taken

from .test_bots import new_round


def play_open(state: RoundState, rng: random.Random) -> RoundState:
    """Play the round out with the open-hand level at every seat, checking each action."""
    while state.to_act is not None:
        seat = state.to_act
        action = choose_open(state, seat, rng)
        assert state.why_illegal(seat, action) is None, action
        state = state.apply(seat, action)
    return state


def test_the_open_level_plays_only_legal_actions() -> None:
    rng = random.Random(4)
    played = 0
    while played < 8:
        state = play_open(new_round(rng), rng)
        if state.contract is not None:
            assert_declarations_and_pilotta_taken(state)
            played += 1


def test_the_open_level_against_others_plays_only_legal_actions() -> None:
    rng = random.Random(5)
    for _ in range(4):
        state = new_round(rng)
        while state.to_act is not None:
            seat = state.to_act
            if seat % 2 == 0:
                action = choose_open(state, seat, rng)
            else:
                action = choose_action(state.observation(seat), level="medium", rng=rng)
            assert state.why_illegal(seat, action) is None, action
            state = state.apply(seat, action)


def until_play(state: RoundState, rng: random.Random) -> RoundState:
    while state.to_act is not None and state.phase != Phase.PLAY:
        seat = state.to_act
        state = state.apply(seat, choose_open(state, seat, rng))
    return state


def test_four_open_seats_take_the_solvers_value_of_the_real_deal() -> None:
    # Each seat picks the card best for its team on the real deal: the play is a perfect one,
    # so the card points are the solver's value of the deal at the first card.
    rng = random.Random(6)
    checked = 0
    while checked < 4:
        state = until_play(new_round(rng), rng)
        if state.contract is None:
            continue
        hands = [cards_mask(state.hand(seat)) for seat in range(4)]
        trick = state.current_trick
        assert trick is not None
        assert not trick.cards
        start = PlayPosition.start(hands, trick.leader, int(state.contract.trump))
        team0, team1 = solve_jit(start)
        state = play_open(state, rng)
        taken = [0, 0]
        for done in state.tricks:
            taken[done.winner % 2] += done.points
        assert (taken[0], taken[1]) == (team0, team1)
        checked += 1


def test_the_open_auction_is_the_strong_auction() -> None:
    rng = random.Random(8)
    for _ in range(6):
        state = new_round(rng)
        while state.to_act is not None and state.contract is None:
            seat = state.to_act
            strong = choose_strong(state.observation(seat), random.Random(0), 0.01)
            assert choose_open(state, seat, random.Random(0), 0.01) == strong
            state = state.apply(seat, strong)


def contract_lead(state: RoundState, seat: int) -> bool:
    trick = state.current_trick
    contract = state.contract
    leads = trick is not None and not trick.cards
    return contract is not None and leads and seat % 2 == contract.team


def defends(state: RoundState, seat: int) -> bool:
    return state.contract is not None and seat % 2 != state.contract.team


@pytest.mark.parametrize(
    ("choose", "open_handed"),
    [(choose_open_leads, contract_lead), (choose_open_defence, defends)],
    ids=["contract-side leads", "defence"],
)
def test_a_part_of_the_play_is_open_handed_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch, choose, open_handed
) -> None:  # type: ignore[no-untyped-def]
    opened: list[int] = []

    def choose_open_counted(state: RoundState, seat: int, *args: object) -> Action:
        opened.append(seat)
        return choose_open(state, seat, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(open_hand, "choose_open", choose_open_counted)
    rng = random.Random(10)
    seen = {True: 0, False: 0}
    for _ in range(3):
        state = new_round(rng)
        while state.to_act is not None:
            seat = state.to_act
            expected = open_handed(state, seat)
            before = len(opened)
            action = choose(state, seat, rng, 0.01)
            assert (len(opened) > before) == expected
            seen[expected] += 1
            assert state.why_illegal(seat, action) is None, action
            state = state.apply(seat, action)

    assert seen[True]
    assert seen[False]


def test_the_partner_seeing_level_samples_the_opponents_hands_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched: list[tuple[RoundState, int, Knowledge]] = []

    def search_counted(
        observation: Observation, rng: random.Random, budget: float, k: Knowledge
    ) -> int:
        searched.append((state, k.seat, k))
        return search_card(observation, rng, budget, k)

    monkeypatch.setattr(open_hand, "search_card", search_counted)
    rng = random.Random(12)
    for _ in range(2):
        state = new_round(rng)
        while state.to_act is not None:
            seat = state.to_act
            action = choose_open_partner(state, seat, rng, 0.01)
            assert state.why_illegal(seat, action) is None, action
            state = state.apply(seat, action)
        assert state.phase in (Phase.FINISHED, Phase.CANCELLED)

    assert searched
    for seen, seat, k in searched:
        partner = (seat + 2) % 4
        for _ in range(3):
            hands = sample_hands(k, rng)
            assert hands[partner] == cards_mask(seen.hand(partner))
            others = [hands[s] for s in range(4) if s % 2 != seat % 2]
            assert sum(hand.bit_count() for hand in others) == sum(
                len(seen.hand(s)) for s in range(4) if s % 2 != seat % 2
            )


def test_only_the_seat_to_act_is_served() -> None:
    state = new_round(random.Random(1))
    other = ((state.to_act or 0) + 1) % 4
    with pytest.raises(ValueError, match="seat to act"):
        choose_open(state, other, random.Random())


def test_a_player_mixes_an_auction_level_with_a_card_level() -> None:
    # Bidding like the strong bot, playing open-handed: the auction is the strong one.
    rng = random.Random(9)
    state = new_round(rng)
    mixed = Player("strong", OPEN)
    assert str(mixed) == "open cards with the strong auction"
    with pytest.raises(ValueError, match="unknown level"):
        Player("strong", "grandmaster")
    timings = [Timings(), Timings()]
    done = play_round(state, [mixed, "medium"], rng, 0.01, timings)
    assert done.to_act is None
    assert timings[0].play
    assert timings[1].play


# --- kept off the site ------------------------------------------------------------------------


def test_the_open_level_is_not_a_level_of_the_site() -> None:
    assert OPEN not in LEVELS
    assert OPEN not in ROOM_LEVELS
    # Nor is any level that sees hidden cards in part of the play.
    assert set(open_hand.OPEN_LEVELS) == {OPEN, "open-leads", "open-defence", "open-partner"}
    assert not set(open_hand.OPEN_LEVELS) & set(LEVELS)
    assert not set(open_hand.OPEN_LEVELS) & set(Room.BotLevel.values)
    assert ROOM_LEVELS == ("easy", "medium", "strong")
    # The rooms' forms offer the room model's levels: the same as ROOM_LEVELS, open not among them.
    assert tuple(Room.BotLevel.values) == ROOM_LEVELS


def test_choose_action_refuses_the_open_level() -> None:
    state = new_round(random.Random(2))
    observation = state.observation(state.to_act or 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(observation, level=OPEN, rng=random.Random())
    with pytest.raises(ValueError, match="unknown bot level"):
        bots.choose_action(observation, level=OPEN, rng=random.Random())


def test_the_rooms_forms_refuse_the_open_level() -> None:
    play_now = PlayNowForm(data={"level": OPEN})
    assert not play_now.is_valid()
    assert "level" in play_now.errors
    room = RoomForm(data={"variant": "palaristi", "bot_level": OPEN, "turn_seconds": 0})
    assert not room.is_valid()
    assert "bot_level" in room.errors
    assert OPEN not in dict(RoomForm().fields["bot_level"].choices)  # type: ignore[attr-defined]
