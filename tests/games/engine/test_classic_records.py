"""Classic hand records: round trips, the printed state, bad actions and records."""

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    MalformedRecordError,
    MatchState,
    RoundState,
    format_cards,
    load_record,
    match_from_record,
    match_to_record,
    round_from_record,
    round_to_record,
    state_to_json,
)

from .classic_helpers import PLAYER_COUNTS, classic_deal, random_classic_match, random_classic_round
from .test_classic_dealing import FOUR, FOUR_FIRST, FOUR_STOCK, THREE, TWO, TWO_UNUSED

ROOT = Path(__file__).resolve().parents[3]


def four_record(*actions: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Dealer 3, turned TH: seat 0 speaks first."""
    data: dict[str, Any] = {
        "ruleset": {"variant": "classic", "players": 4},
        "dealer": 3,
        "hands": list(FOUR_FIRST),
        "turned": "TH",
        "stock": FOUR_STOCK,
        "actions": list(actions),
    }
    data.update(changes)
    return data


def small_record(players: int, *actions: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Three players (dealer 2) or two (dealer 1), turned JH: seat 0 speaks first."""
    hands, unused = (THREE, "") if players == 3 else (TWO, TWO_UNUSED)
    dealt = classic_deal(dealer=players - 1, hands=hands, taker=0, unused=unused)
    data: dict[str, Any] = {
        "ruleset": {"variant": "classic", "players": players, "target": 1000},
        "dealer": players - 1,
        "hands": [format_cards(hand) for hand in dealt["hands"]],
        "turned": str(dealt["turned"]),
        "stock": [str(card) for card in dealt["stock"]],
        "actions": list(actions),
    }
    data.update(changes)
    return data


def passes(*seats: int) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "pass"} for seat in seats]


TAKE0 = {"seat": 0, "action": "take"}
SIXTHS = ["AS", "7S", "TD", "JD"]  # a sixth card for each hand, also left in the stock


def failure(data: Any) -> MalformedRecordError:
    with pytest.raises(MalformedRecordError) as caught:
        load_record(data)
    return caught.value


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_round_record_replays_to_the_identical_state(players: int, seed: int) -> None:
    state = random_classic_round(seed, players)
    data = json.loads(json.dumps(round_to_record(state)))
    assert set(data) == {"ruleset", "dealer", "hands", "turned", "stock", "actions"}
    assert data["ruleset"]["variant"] == "classic"
    assert data["ruleset"]["players"] == players
    assert [len(hand.split()) for hand in data["hands"]] == [5] * players
    assert len(data["stock"].split()) == {4: 11, 3: 8, 2: 13}[players]
    replayed = round_from_record(data)
    assert replayed == state
    assert replayed.result == state.result
    assert state_to_json(replayed) == state_to_json(state)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_match_record_replays_and_prints_totals_and_winner_per_side(players: int) -> None:
    match = random_classic_match(players, players)
    data = json.loads(json.dumps(match_to_record(match)))
    replayed = load_record(data)
    assert isinstance(replayed, MatchState)
    assert replayed == match
    printed = state_to_json(replayed)
    assert printed["totals"] == list(match.totals)
    assert len(printed["totals"]) == (2 if players == 4 else players)
    assert printed["winner"] == match.winner
    assert printed["winner"] is not None
    assert max(printed["totals"]) >= 1000


def test_a_match_record_may_end_with_a_round_in_progress() -> None:
    first = small_record(3, *passes(0, 1, 2))
    del first["ruleset"]
    data = {"ruleset": {"variant": "classic", "players": 3}, "rounds": [first]}
    match = match_from_record(data)
    assert match.current is not None
    printed = state_to_json(match)
    assert (printed["phase"], printed["auction_round"], printed["to_act"]) == ("auction", 2, 0)
    assert (printed["round"], printed["totals"], printed["winner"]) == (0, [0, 0, 0], None)
    assert printed["next_dealer"] == 2
    assert match_from_record(match_to_record(match)) == match


def test_the_printed_state_in_round_1() -> None:
    printed = state_to_json(round_from_record(four_record()))
    assert printed["phase"] == "auction"
    assert (printed["turned"], printed["auction_round"], printed["to_act"]) == ("TH", 1, 0)
    assert printed["legal"] == [{"seat": 0, "action": "take"}, {"seat": 0, "action": "pass"}]
    assert (printed["contract"], printed["result"], printed["tricks"]) == (None, None, [])


def test_the_printed_state_in_round_2() -> None:
    printed = state_to_json(round_from_record(four_record(*passes(0, 1, 2, 3, 0))))
    assert (printed["auction_round"], printed["to_act"]) == (2, 1)
    assert sorted(printed["legal"], key=str) == [
        {"seat": 1, "action": "name", "trump": "C"},
        {"seat": 1, "action": "name", "trump": "D"},
        {"seat": 1, "action": "name", "trump": "S"},
        {"seat": 1, "action": "pass"},
    ]


def test_the_printed_state_in_play() -> None:
    actions = [*passes(0, 1, 2, 3, 0), {"seat": 1, "action": "name", "trump": "S"}]
    printed = state_to_json(round_from_record(four_record(*actions)))
    assert printed["phase"] == "play"
    assert (printed["turned"], printed["auction_round"], printed["to_act"]) == ("TH", None, 0)
    assert printed["contract"] == {"team": 1, "seat": 1, "trump": "S"}
    assert {"seat": 0, "action": "announce"} in printed["legal"]
    assert len([entry for entry in printed["legal"] if entry["action"] == "play"]) == 8


def test_the_printed_state_of_a_cancelled_round() -> None:
    printed = state_to_json(round_from_record(small_record(3, *passes(0, 1, 2, 0, 1, 2))))
    assert (printed["phase"], printed["to_act"], printed["legal"]) == ("cancelled", None, [])
    assert (printed["contract"], printed["result"], printed["auction_round"]) == (None, None, None)
    assert printed["turned"] == "JH"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_printed_result_of_a_finished_round(players: int) -> None:
    state = random_classic_round(40 + players, players)
    printed = state_to_json(state)
    assert printed["phase"] == "finished"
    result = printed["result"]
    assert set(result) == {
        "card_points", "declarations", "pilotta", "made", "capot", "total", "score",
    }  # fmt: skip
    sides = 2 if players == 4 else players
    assert all(len(result[key]) == sides for key in ("card_points", "total", "score"))
    assert set(printed["contract"]) == {"team", "seat", "trump"}
    assert len(printed["tricks"]) == 8
    assert all(len(trick["cards"]) == players for trick in printed["tricks"])


# Seat 0 takes, then the cards of the two-player round of test_classic_scoring.
TWO_CARDS = "JH TH AH 9H QC AC TC JC KC 9C AD KD TD QD 9S TS"


def test_the_printed_result_of_a_known_two_player_round() -> None:
    cards = TWO_CARDS.split()
    actions = [TAKE0] + [
        {"seat": seat, "action": "play", "card": card}
        for seat, card in zip([0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1], cards, strict=True)
    ]
    printed = state_to_json(round_from_record(small_record(2, *actions)))
    assert printed["contract"] == {"team": 0, "seat": 0, "trump": "H"}
    assert printed["result"] == {
        "card_points": [88, 45],
        "declarations": [0, 0],
        "pilotta": [0, 0],
        "made": True,
        "capot": None,
        "total": [88, 45],
        "score": [88, 45],
    }


@pytest.mark.parametrize(
    ("data", "index", "reason"),
    [
        # take outside round 1
        (four_record(*passes(0, 1, 2, 3), TAKE0), 4, "cannot_take"),
        # name in round 1, or of the turned suit
        (four_record({"seat": 0, "action": "name", "trump": "S"}), 0, "cannot_name"),
        (four_record(*passes(0, 1, 2, 3), {"seat": 0, "action": "name", "trump": "H"}), 4,
         "name_turned_suit"),
        # the palaristi game's actions
        (four_record({"seat": 0, "action": "bid", "value": 80, "trump": "H"}), 0,
         "not_in_this_game"),
        (four_record({"seat": 0, "action": "close"}), 0, "not_in_this_game"),
        (four_record({"seat": 0, "action": "reclose"}), 0, "not_in_this_game"),
        # a seat that does not exist at the table
        (small_record(3, {"seat": 3, "action": "pass"}), 0, "not_your_turn"),
        (small_record(3, *passes(0, 1, 2), {"seat": 3, "action": "name", "trump": "S"}), 3,
         "not_your_turn"),
        (small_record(2, TAKE0, {"seat": 2, "action": "play", "card": "9H"}), 1,
         "not_your_turn"),
        # a card before the auction has ended, and after the round was cancelled
        (four_record({"seat": 0, "action": "play", "card": "AC"}), 0, "wrong_phase"),
        (small_record(2, *passes(0, 1, 0, 1), TAKE0), 4, "round_over"),
        # a card from the stock, which nobody holds yet
        (four_record(TAKE0, {"seat": 0, "action": "play", "card": "AH"}), 1,
         "card_not_in_hand"),
    ],
)  # fmt: skip
def test_an_illegal_action_is_named_by_its_index(
    data: dict[str, Any], index: int, reason: str
) -> None:
    error = failure(data)
    assert error.index == index
    assert str(error).startswith(reason)


@pytest.mark.parametrize(
    "data",
    [
        four_record({"seat": 4, "action": "pass"}),
        four_record({"seat": 0, "action": "take", "trump": "H"}),
        four_record({"seat": 0, "action": "name"}),
        four_record({"seat": 0, "action": "name", "trump": "X"}),
        four_record({"seat": 0, "action": "name", "trump": 2}),
    ],
)
def test_a_malformed_action_is_named_by_its_index(data: dict[str, Any]) -> None:
    assert failure(data).index == 0


@pytest.mark.parametrize(
    "data",
    [
        four_record(stock=FOUR_STOCK.rsplit(" ", 1)[0]),  # 10 cards
        four_record(stock=FOUR_STOCK + " 7C"),  # 12 cards, 7C twice
        four_record(hands=[*FOUR_FIRST[:3], "7C 8C 9C TC AC"]),  # AC twice
        four_record(
            hands=[f"{hand} {card}" for hand, card in zip(FOUR_FIRST, SIXTHS, strict=True)]
        ),
        four_record(turned=None),
        four_record(turned=["TH"]),
        four_record(turned="TH AS"),
        four_record(turned="1H"),
        four_record(stock=["AS", "7S", "TD", "JD", "QD", "QS", "KS", "8S", "AH", "KH", 7]),
        four_record(stock=None),
        four_record(dealer=4),
        four_record(extra=1),
        four_record(ruleset={"variant": "classic", "players": 5}),
        four_record(ruleset={"variant": "classic", "players": 4, "target": 301}),
        four_record(ruleset={"target": 301}),  # a palaristi round has no turned card
        small_record(3, dealer=3),
        small_record(3, hands=["AC TC KC AD 7D", "QC JC 9C KD QD", "AS KS QS JS JD"]),
        small_record(3, stock="AH 9S 9H TH TS KH QH 7D"),  # a Seven for three players
        small_record(3, hands=[*small_record(3)["hands"], "7C 8C 7D 8D 7S"]),  # a fourth hand
        small_record(2, stock="AH 9S 9H TH TS"),  # the unused cards left out
        small_record(2, ruleset={"variant": "classic", "players": 3}),
    ],
)
def test_a_malformed_record_has_no_index(data: dict[str, Any]) -> None:
    assert failure(data).index is None


def test_a_missing_turned_card_or_stock_is_malformed() -> None:
    for key in ("turned", "stock"):
        data = four_record()
        del data[key]
        assert failure(data).index is None


def test_eight_card_hands_are_malformed_in_the_classic_game() -> None:
    data = four_record(hands=list(FOUR))
    del data["turned"]
    del data["stock"]
    assert failure(data).index is None
    assert failure(four_record(hands=list(FOUR), stock="")).index is None


def classic_match_record(players: int) -> dict[str, Any]:
    return match_to_record(random_classic_match(10 + players, players))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_match_record_needs_the_dealer_rotation_modulo_the_players(players: int) -> None:
    data = classic_match_record(players)
    assert len(data["rounds"]) >= 2
    first = data["first_dealer"]
    assert [r["dealer"] for r in data["rounds"]] == [
        (first + n) % players for n in range(len(data["rounds"]))
    ]
    data["rounds"][1]["dealer"] = (data["rounds"][1]["dealer"] + 1) % players
    error = failure(data)
    assert (error.index, error.round) == (None, 1)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_no_round_may_follow_the_one_that_decided_a_classic_match(players: int) -> None:
    data = classic_match_record(players)
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    error = failure(data)
    assert (error.index, error.round) == (None, len(data["rounds"]) - 1)


def test_a_bad_action_in_a_classic_match_names_its_round() -> None:
    data = classic_match_record(3)
    data["rounds"][1]["actions"][0]["seat"] = 3
    error = failure(data)
    assert (error.index, error.round) == (0, 1)


def replay(stdin: str) -> tuple[int, Any]:
    process = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", "-"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    lines = process.stdout.splitlines()
    assert len(lines) == 1, process.stdout + process.stderr
    return process.returncode, json.loads(lines[0])


def test_the_replay_command_prints_a_classic_round_and_match(tmp_path: Path) -> None:
    state = random_classic_round(7, 3)
    status, printed = replay(json.dumps(round_to_record(state)))
    assert status == 0
    assert printed == state_to_json(state)
    assert printed["turned"] == str(state.turned)
    assert "auction_round" in printed
    match = random_classic_match(8, 2)
    status, printed = replay(json.dumps(match_to_record(match)))
    assert status == 0
    assert (printed["totals"], printed["winner"]) == (list(match.totals), match.winner)


def test_the_replay_command_reports_illegal_and_malformed_classic_records() -> None:
    status, printed = replay(json.dumps(four_record(*passes(0, 1, 2, 3), TAKE0)))
    assert status == 2
    assert printed["index"] == 4
    assert printed["error"].startswith("cannot_take")
    status, printed = replay(json.dumps(small_record(3, stock="AH 9S 9H TH TS KH QH 7D")))
    assert (status, printed["index"]) == (2, None)
    state: RoundState = round_from_record(small_record(2))
    assert state.to_act == 0


def test_a_classic_match_before_its_first_round_prints_the_classic_keys() -> None:
    match = match_from_record(
        {"ruleset": {"variant": "classic", "players": 3}, "first_dealer": 1, "rounds": []}
    )
    printed = state_to_json(match)
    assert (printed["turned"], printed["auction_round"], printed["phase"]) == (None, None, None)
    assert (printed["totals"], printed["winner"], printed["next_dealer"]) == ([0, 0, 0], None, 1)
    palaristi = state_to_json(match_from_record({"first_dealer": 1, "rounds": []}))
    assert "turned" not in palaristi
    assert "auction_round" not in palaristi
