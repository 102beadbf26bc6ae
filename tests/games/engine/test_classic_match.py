"""The classic match: to 1000, the single highest total wins, by team or seat."""

import random
from typing import Any

import pytest

from games.engine import EngineError, MatchError, MatchState, Ruleset
from games.engine.match import match_winner

from .classic_helpers import random_classic_deal, random_classic_match


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ((999, 998), None),
        ((1000, 998), 0),
        ((640, 1003), 1),
        ((1100, 1040), 0),  # both past 1000: the higher wins
        ((1040, 1040), None),  # a tie at the top: another round
        ((999, 999, 999), None),
        ((1010, 1020, 500), 1),
        ((1010, 1010, 1020), 2),  # a tie below the top does not matter
        ((1020, 1020, 1010), None),
        ((1020, 1020, 0), None),
        ((0, 0, 1000), 2),
        ((1000, 1000), None),
    ],
)
def test_the_single_highest_total_past_1000_wins(
    totals: tuple[int, ...], winner: int | None
) -> None:
    assert match_winner(totals, 1000) == winner


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_classic_ruleset(players: int) -> None:
    ruleset = Ruleset.classic(players)
    assert (ruleset.variant, ruleset.players, ruleset.target) == ("classic", players, 1000)
    assert ruleset.deck_handling == "shuffle"
    assert ruleset.partner_protection is (players == 4)
    assert ruleset.sides == (2 if players == 4 else players)
    assert Ruleset.from_dict({"variant": "classic", "players": players}) == ruleset
    assert Ruleset.from_dict({"variant": "classic", "players": players, "target": 1000}) == ruleset
    assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
    assert [ruleset.next_seat(seat) for seat in range(players)] == [
        *range(1, players),
        0,
    ]


def test_sides_are_teams_of_four_or_single_players() -> None:
    four = Ruleset.classic(4)
    assert [four.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    three = Ruleset.classic(3)
    assert [three.side_of(seat) for seat in range(3)] == [0, 1, 2]
    assert Ruleset.from_dict({"variant": "classic"}) == four


@pytest.mark.parametrize(
    "data",
    [
        {"variant": "classic", "players": 5},
        {"variant": "classic", "players": 1},
        {"variant": "classic", "players": True},
        {"variant": "classic", "players": 3.0},
        {"variant": "classic", "players": 3, "target": 301},
        {"variant": "classic", "players": 3, "target": 1000.0},
        {"variant": "classic", "players": 3, "deck_handling": "table"},
        {"variant": "classic", "players": 3, "partner_protection": True},
        {"variant": "classic", "players": 4, "partner_protection": False},
        {"variant": "tsaka", "players": 3},
        {"target": 1000},
        {"variant": "klaverjas"},
    ],
)
def test_a_bad_classic_ruleset_is_refused(data: dict[str, Any]) -> None:
    with pytest.raises(EngineError):
        Ruleset.from_dict(data)


def test_the_palaristi_ruleset_is_written_as_before() -> None:
    assert Ruleset().to_dict() == {
        "target": 301,
        "deck_handling": "shuffle",
        "variant": "tsaka",
        "partner_protection": False,
    }


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_a_random_match_ends_when_a_single_side_leads_past_1000(players: int, seed: int) -> None:
    match = random_classic_match(seed, players)
    sides = 2 if players == 4 else players
    totals = match.totals
    assert len(totals) == sides
    assert match.winner is not None
    assert 0 <= match.winner < sides
    assert totals[match.winner] >= 1000
    assert all(
        total < totals[match.winner] for side, total in enumerate(totals) if side != match.winner
    )
    # Every round's score was added, and no earlier round decided the match.
    assert totals == tuple(sum(score[side] for score in match.scores) for side in range(sides))
    for count in range(len(match.rounds)):
        partial = [sum(score[side] for score in match.scores[:count]) for side in range(sides)]
        assert match_winner(partial, 1000) is None
    # The deal went round the table.
    dealers = [state.dealer for state in match.rounds]
    assert dealers == [(match.first_dealer + n) % players for n in range(len(dealers))]
    with pytest.raises(MatchError):
        match.with_round(random_classic_deal(random.Random(0), players, 0))


def test_a_four_player_match_is_won_by_a_team() -> None:
    match = random_classic_match(4, 4)
    assert match.winner in (0, 1)
    assert len(match.totals) == 2


def test_a_round_of_another_ruleset_is_refused() -> None:
    match = MatchState.new(ruleset=Ruleset.classic(3), first_dealer=0)
    with pytest.raises(MatchError):
        match.with_round(random_classic_deal(random.Random(1), 4, 0))
