"""The match: dealer rotation, totals, the target and ties."""

import random

import pytest

from games.engine import (
    DECK,
    MatchError,
    MatchState,
    Phase,
    Ruleset,
    deal,
    shuffled_deck,
    table_deck,
)
from games.engine.match import match_winner

from .helpers import act, random_match, random_round

HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]


def test_a_new_match_has_no_rounds_and_no_winner() -> None:
    match = MatchState.new(first_dealer=2)
    assert (match.rounds, match.totals, match.winner, match.next_dealer) == ((), (0, 0), None, 2)
    assert match.ruleset == Ruleset()


@pytest.mark.parametrize(
    ("totals", "target", "winner"),
    [
        ((300, 120), 301, None),
        ((301, 120), 301, 0),
        ((120, 305), 301, 1),
        ((250, 251), 251, 1),
        ((330, 310), 301, 0),  # both crossed in one round: the higher total wins
        ((310, 330), 301, 1),
        ((320, 320), 301, None),  # an exact tie past the target: another round
        ((400, 400), 401, None),
    ],
)
def test_the_target_and_ties(totals: tuple[int, int], target: int, winner: int | None) -> None:
    assert match_winner(totals, target) == winner


def test_a_cancelled_round_scores_0_0_and_passes_the_deal() -> None:
    match = MatchState.new(first_dealer=3)
    cancelled = act(match.new_round(HANDS), "0 pass", "1 pass", "2 pass", "3 pass")
    assert cancelled.phase is Phase.CANCELLED
    match = match.with_round(cancelled)
    assert match.rounds == (cancelled,)
    assert (match.scores, match.totals, match.next_dealer) == (((0, 0),), (0, 0), 0)


def test_rounds_are_dealt_in_rotation_and_totals_add_the_sheet_scores() -> None:
    match = MatchState.new(first_dealer=1)
    dealers = []
    for seed in range(3):
        round_state = random_round(seed, dealer=match.next_dealer)
        dealers.append(round_state.dealer)
        match = match.with_round(round_state)
    assert dealers == [1, 2, 3]
    assert match.totals == tuple(
        sum(r.result.score[t] if r.result else 0 for r in match.rounds) for t in (0, 1)
    )


def test_an_unfinished_round_is_the_current_round() -> None:
    match = MatchState.new(first_dealer=3)
    started = act(match.new_round(HANDS), "0 bid 80 H")
    match = match.with_round(started)
    assert match.current == started
    assert match.rounds == ()
    assert match.next_dealer == 3


def test_with_round_refuses_the_wrong_dealer_or_ruleset() -> None:
    match = MatchState.new(first_dealer=0)
    with pytest.raises(MatchError):
        match.with_round(random_round(1, dealer=1))
    with pytest.raises(MatchError):
        match.with_round(random_round(1, dealer=0, ruleset=Ruleset(target=251)))


def test_a_match_ends_at_the_target_and_takes_no_more_rounds() -> None:
    match = random_match(5, ruleset=Ruleset(target=251))
    assert match.winner is not None
    assert max(match.totals) >= 251
    assert match.totals[match.winner] > match.totals[1 - match.winner]
    with pytest.raises(MatchError):
        match.with_round(random_round(1, dealer=match.next_dealer, ruleset=match.ruleset))


@pytest.mark.parametrize("target", [251, 301, 351, 401])
def test_the_table_targets(target: int) -> None:
    assert Ruleset(target=target).target == target
    assert Ruleset.from_dict({"target": target}) == Ruleset(target=target)


@pytest.mark.parametrize("target", [300, 0, 1000, True, "301", 301.0])
def test_other_targets_are_refused(target: object) -> None:
    with pytest.raises(ValueError, match="target"):
        Ruleset.from_dict({"target": target})


def test_ruleset_round_trip_and_variants() -> None:
    ruleset = Ruleset(target=351, deck_handling="table")
    assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
    assert ruleset.to_dict() == {
        "target": 351,
        "deck_handling": "table",
        "variant": "tsaka",
        "partner_protection": False,
    }
    assert ruleset.variant == "tsaka"
    assert ruleset.partner_protection is False
    with pytest.raises(ValueError, match="variant"):
        Ruleset.from_dict({"variant": "belote"})
    with pytest.raises(ValueError, match="unknown"):
        Ruleset.from_dict({"colour": "red"})


def test_deal_round_shuffles_each_round_by_default() -> None:
    match = MatchState.new(first_dealer=0)
    first = match.deal_round(random.Random(1))
    assert first.dealer == 0
    assert sorted(c for hand in first.hands for c in hand) == list(DECK)


def test_deal_round_deals_the_table_cards_under_table_handling() -> None:
    match = MatchState.new(ruleset=Ruleset(deck_handling="table"), first_dealer=0)
    played = random_round(4, dealer=0, ruleset=match.ruleset)
    match = match.with_round(played)
    rng = random.Random(9)
    cut = random.Random(9).randint(3, 29)
    following = match.deal_round(rng)
    assert following.dealer == 1
    assert following.hands == deal(table_deck(played), dealer=1, cut=cut)


def test_deal_round_keeps_a_cut_drawn_by_the_caller() -> None:
    match = MatchState.new(first_dealer=2)
    dealt = match.deal_round(random.Random(4), cut=17)
    assert dealt.hands == deal(shuffled_deck(random.Random(4)), dealer=2, cut=17)
