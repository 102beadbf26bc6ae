"""Reasoning postponed a trick: the seat's next lead chosen once for deals it cannot tell apart."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.ai import strong, warm_up
from games.ai.knowledge import read_knowledge
from games.ai.postponed import (
    LeadOutcome,
    PostponedLeads,
    lead_outcome,
    measure_leads,
    postponed_choice,
    principal_card,
    trick_seen,
)
from games.ai.solver_jit import shared_solver
from games.engine.fast import PlayPosition, cards_of, legal, parse_cards, play, random_deal

from .test_bots import new_round, play_out
from .test_bots_strong import play_decisions
from .test_solver import endgame


def trick_start(rng: random.Random, cards_each: int) -> PlayPosition:
    """Return a position at a trick's start with ``cards_each`` cards in every hand."""
    pos = PlayPosition.start(random_deal(rng), rng.randrange(4), rng.randrange(4))
    for _ in range(4 * (8 - cards_each)):
        pos = play(pos, rng.choice(cards_of(legal(pos))))
    return pos


def test_a_principal_card_keeps_the_positions_value() -> None:
    solver = shared_solver()
    rng = random.Random(3)
    for _ in range(40):
        pos = endgame(rng, rng.randrange(5, 14))
        value = solver.value(pos)
        card = principal_card(solver, pos, value, None)
        after = play(pos, card)
        assert solver.value(after) + after.points[0] - pos.points[0] == value


def test_the_best_next_lead_after_a_won_trick_is_worth_the_leads_value() -> None:
    solver = shared_solver()
    rng = random.Random(5)
    won = 0
    for _ in range(12):
        pos = trick_start(rng, rng.randrange(3, 6))
        values = solver.move_values(pos)
        for card, future in values.items():
            outcome = lead_outcome(solver, pos, card, future, float, None)
            assert len(outcome.trick) == 4
            assert outcome.trick[0] == card
            assert outcome.margin == future
            if outcome.next_leads is not None:
                won += 1
                assert max(outcome.next_leads.values()) == future
                rest = pos.hands[pos.to_act] & ~(1 << card)
                assert set(outcome.next_leads) == set(cards_of(rest))
    assert won > 0


def test_one_next_lead_serves_the_deals_the_trick_cannot_tell_apart() -> None:
    trick = (1, 9, 17, 25)
    guess = [
        LeadOutcome(trick, 10.0, {4: 10.0, 5: 0.0}),
        LeadOutcome(trick, 10.0, {4: 0.0, 5: 10.0}),
    ]
    safe = [LeadOutcome(trick, 8.0), LeadOutcome(trick, 8.0)]
    postponed = PostponedLeads([2, 3], {2: guess, 3: safe})
    assert postponed.value(2) == 10.0  # one lead for both deals, not each deal's best
    assert postponed.value(3) == 16.0
    assert postponed_choice(postponed, lambda card: 0.0) == 3


def test_deals_the_trick_tells_apart_keep_each_their_best_next_lead() -> None:
    told_apart = [
        LeadOutcome((1, 9, 17, 25), 10.0, {4: 10.0, 5: 0.0}),
        LeadOutcome((1, 9, 17, 26), 10.0, {4: 0.0, 5: 10.0}),
    ]
    safe = [LeadOutcome((0, 8, 16, 24), 8.0)] * 2
    postponed = PostponedLeads([2, 3], {2: told_apart, 3: safe})
    assert postponed.value(2) == 20.0
    assert postponed_choice(postponed, lambda card: 0.0) == 2


def test_a_coarse_trick_tells_deals_apart_by_their_counting_cards_only() -> None:
    pos = PlayPosition.start((0, 0, 0, 0), 0, trump=0)
    small = parse_cards("AS 7H 7D 8S")
    other_small = parse_cards("AS 7H 8D 7S")
    counting = parse_cards("AS 7H KD 8S")
    assert trick_seen(pos, small, coarse=False) != trick_seen(pos, other_small, coarse=False)
    assert trick_seen(pos, small, coarse=True) == trick_seen(pos, other_small, coarse=True)
    assert trick_seen(pos, small, coarse=True) != trick_seen(pos, counting, coarse=True)


def test_only_deals_measured_for_every_candidate_count() -> None:
    trick = (1, 9, 17, 25)
    postponed = PostponedLeads(
        [2, 3], {2: [LeadOutcome(trick, 5.0)] * 3, 3: [LeadOutcome(trick, 4.0)] * 2}
    )
    assert postponed.deals == 2
    assert postponed.value(2) == 10.0
    assert postponed_choice(PostponedLeads([2, 3], {2: [], 3: []}), float) is None


def test_ties_between_postponed_values_go_to_the_sampled_search() -> None:
    trick = (1, 9, 17, 25)
    postponed = PostponedLeads([2, 3], {2: [LeadOutcome(trick, 5.0)], 3: [LeadOutcome(trick, 5.0)]})
    assert postponed_choice(postponed, {2: 1.0, 3: 2.0}.__getitem__) == 3


def test_measuring_stops_at_the_deadline_with_whole_deals_only() -> None:
    solver = shared_solver()
    pos = trick_start(random.Random(2), 6)
    values = solver.move_values(pos)
    worlds = [(pos, values, float)] * 3
    assert measure_leads(solver, worlds, list(values), deadline=0.0).deals == 0
    assert measure_leads(solver, worlds, list(values), deadline=float("inf")).deals == 3


@pytest.mark.parametrize("defence", [False, True])
def test_leads_with_a_choice_after_them_are_postponed(
    monkeypatch: pytest.MonkeyPatch, defence: bool
) -> None:
    monkeypatch.setattr(strong, "POSTPONED_LEADS", True)
    monkeypatch.setattr(strong, "POSTPONED_DEFENCE", defence)
    found = {True: 0, False: 0}
    for state, seat in play_decisions(4, 6):
        k = read_knowledge(state.observation(seat))
        leads = not k.trick and k.leader == seat and bin(k.hand).count("1") >= 3
        expected = leads and (defence or seat % 2 == k.bidders)
        assert strong.postpones_lead(k) == expected
        assert not strong.postpones_lead(replace(k, players=3, bidders=seat % 3))
        found[expected] += 1
    assert found[True]
    assert found[False]


def test_the_site_does_not_postpone_its_leads() -> None:
    for state, seat in play_decisions(4, 2):
        assert not strong.postpones_lead(read_knowledge(state.observation(seat)))


@pytest.mark.parametrize("seed", [6, 7])
def test_with_postponed_leads_the_strong_bot_plays_complete_rounds(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    warm_up()
    monkeypatch.setattr(strong, "POSTPONED_LEADS", True)
    # Few samples and time to spare: every postponed decision measures its few deals.
    monkeypatch.setattr(strong, "MAX_SAMPLES", 6)
    measured: list[int] = []

    def spy(*args: object, **kwargs: object) -> PostponedLeads:
        result = measure_leads(*args, **kwargs)  # type: ignore[arg-type]
        measured.append(result.deals)
        return result

    monkeypatch.setattr(strong, "measure_leads", spy)
    rng = random.Random(seed)
    state = play_out(new_round(rng), "strong", rng, budget=1.0)
    while state.contract is None:
        state = play_out(new_round(rng), "strong", rng, budget=1.0)
    assert state.to_act is None
    assert measured
    assert max(measured) > 0
