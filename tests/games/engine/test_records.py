"""Hand records: round trips, the printed state, and malformed records."""

import copy
import json
from typing import Any

import pytest

from games.engine import (
    MalformedRecordError,
    MatchState,
    Ruleset,
    load_record,
    match_from_record,
    match_to_record,
    round_from_record,
    round_to_record,
    state_to_json,
)

from .helpers import act, random_match, random_round

HANDS = [
    "AC KC QC JC TC 9C AD 7D",
    "7C 8C 7H 9H AS KS QS JS",
    "QH AH TH 8H 9S 8S 7S TS",
    "JH KH 8D 9D TD JD QD KD",
]


def record(*actions: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"ruleset": {"target": 301}, "dealer": 3, "hands": list(HANDS)}
    data["actions"] = list(actions)
    data.update(changes)
    return data


BID = {"seat": 0, "action": "bid", "value": 80, "trump": "H"}
PASSES = [{"seat": s, "action": "pass"} for s in (1, 2, 3)]


def test_a_round_record_replays_to_the_identical_state() -> None:
    state = random_round(11)
    data = json.loads(json.dumps(round_to_record(state)))
    replayed = round_from_record(data)
    assert replayed == state
    assert replayed.result == state.result
    assert state_to_json(replayed) == state_to_json(state)


def test_hands_may_be_lists_of_card_strings() -> None:
    data = record(hands=[hand.split() for hand in HANDS])
    assert round_from_record(data).hands == round_from_record(record()).hands


def test_the_printed_state_of_a_round_in_play() -> None:
    state = round_from_record(record(BID, *PASSES, {"seat": 0, "action": "play", "card": "AC"}))
    printed = state_to_json(state)
    assert printed["phase"] == "play"
    assert printed["to_act"] == 1
    assert sorted(printed["legal"], key=str) == [
        {"seat": 1, "action": "announce"},
        {"seat": 1, "action": "play", "card": "7C"},
        {"seat": 1, "action": "play", "card": "8C"},
    ]
    assert printed["contract"] == {"team": 0, "seat": 0, "value": 80, "trump": "H", "multiplier": 1}
    assert printed["tricks"] == []
    assert printed["result"] is None
    assert printed["current_trick"] == {"leader": 0, "cards": ["AC"]}


def test_the_printed_state_of_a_finished_round() -> None:
    printed = state_to_json(random_round(4))
    assert printed["phase"] == "finished"
    assert printed["to_act"] is None
    assert printed["legal"] == []
    assert len(printed["tricks"]) == 8
    assert set(printed["tricks"][0]) == {"leader", "cards", "winner", "points"}
    assert set(printed["result"]) == {
        "card_points", "declarations", "pilotta", "made", "capot", "raw", "score",
    }  # fmt: skip
    assert sum(printed["result"]["card_points"]) == 162


def test_the_printed_state_of_a_cancelled_round() -> None:
    passes = [{"seat": s, "action": "pass"} for s in (0, 1, 2, 3)]
    printed = state_to_json(round_from_record(record(*passes)))
    assert (printed["phase"], printed["contract"], printed["result"]) == ("cancelled", None, None)


def test_the_auction_lists_one_legal_bid_per_value_and_suit() -> None:
    printed = state_to_json(round_from_record(record()))
    bids = [entry for entry in printed["legal"] if entry["action"] == "bid"]
    assert len(bids) == 33 * 4
    assert {"seat": 0, "action": "pass"} in printed["legal"]


def test_a_match_record_replays_and_prints_totals_and_winner() -> None:
    match = random_match(2)
    data = json.loads(json.dumps(match_to_record(match)))
    replayed = load_record(data)
    assert isinstance(replayed, MatchState)
    assert replayed == match
    printed = state_to_json(replayed)
    assert printed["totals"] == list(match.totals)
    assert printed["winner"] == match.winner
    assert printed["phase"] in ("finished", "cancelled")


def test_a_match_record_may_end_with_a_round_in_progress() -> None:
    match = MatchState.new(first_dealer=3)
    match = match.with_round(act(match.new_round(HANDS), "0 bid 80 H"))
    replayed = match_from_record(match_to_record(match))
    assert replayed == match
    printed = state_to_json(replayed)
    assert (printed["phase"], printed["to_act"], printed["winner"]) == ("auction", 1, None)


def failure(data: Any) -> MalformedRecordError:
    with pytest.raises(MalformedRecordError) as caught:
        load_record(data)
    return caught.value


@pytest.mark.parametrize(
    "changes",
    [
        {"dealer": True},
        {"dealer": 3.0},
        {"dealer": "3"},
        {"dealer": 4},
        {"dealer": -1},
        {"dealer": None},
        {"hands": HANDS[:3]},
        {"hands": [*HANDS[:3], "JH KH 8D 9D TD JD QD"]},
        {"hands": [*HANDS[:3], "JH KH 8D 9D TD JD QD KD 7D"]},
        {"hands": [*HANDS[:3], "JH KH 8D 9D TD JD QD AD"]},
        {"hands": [*HANDS[:3], "JH KH 8D 9D TD JD QD XX"]},
        {"hands": [*HANDS[:3], ["JH", "KH", "8D", "9D", "TD", "JD", "QD", 7]]},
        {"hands": [*HANDS[:3], ["JH KH", "8D", "9D", "TD", "JD", "QD", "KD"]]},
        {"hands": "AC KC"},
        {"ruleset": {"target": 300}},
        {"ruleset": {"target": True}},
        {"ruleset": {"target": 301.0}},
        {"ruleset": {"deck_handling": "sorted"}},
        {"ruleset": "301"},
        {"actions": {"seat": 0}},
        {"players": ["a", "b", "c", "d"]},
    ],
)
def test_a_malformed_round_record_has_no_index(changes: dict[str, Any]) -> None:
    assert failure(record(**changes)).index is None


@pytest.mark.parametrize("data", [None, [], "round", 3])
def test_a_record_must_be_an_object(data: Any) -> None:
    assert failure(data).index is None


@pytest.mark.parametrize(
    ("actions", "index"),
    [
        ([{"seat": 1, "action": "pass"}], 0),  # not seat 1's turn
        ([BID, {"seat": 1, "action": "bid", "value": 80, "trump": "S"}], 1),
        ([BID, {"seat": True, "action": "pass"}], 1),
        ([BID, {"seat": 1, "action": "bid", "value": 90.0, "trump": "S"}], 1),
        ([BID, {"seat": 1, "action": "bid", "value": False, "trump": "S"}], 1),
        ([BID, {"seat": 1, "action": "fold"}], 1),
        ([BID, {"seat": 1, "action": "pass", "note": "x"}], 1),
        ([BID, *PASSES, {"seat": 0, "action": "play", "card": "JH"}], 4),
        ([BID, *PASSES, {"seat": 0, "action": "play", "card": "AC", "pilotta": True}], 4),
        ([BID, *PASSES, {"seat": 0, "action": "play", "card": "AC", "pilotta": 0}], 4),
        ([*[{"seat": s, "action": "pass"} for s in (0, 1, 2, 3)], BID], 4),  # after the end
        (["pass"], 0),
    ],
)
def test_a_bad_action_is_named_by_its_index(actions: list[Any], index: int) -> None:
    assert failure(record(*actions)).index == index


@pytest.mark.parametrize("sign", [1, -1])
def test_a_bid_too_long_to_print_is_a_bad_action(sign: int) -> None:
    # Past the int-to-str limit: printing it would raise ValueError, not a record error.
    huge = {"seat": 1, "action": "bid", "value": sign * 10**5000, "trump": "S"}
    assert failure(record(BID, huge)).index == 1


def test_an_action_after_a_finished_round_is_a_bad_action() -> None:
    data = round_to_record(random_round(6))
    count = len(data["actions"])
    data["actions"].append({"seat": 0, "action": "pass"})
    error = failure(data)
    assert error.index == count
    assert "round_over" in str(error)


def match_record() -> dict[str, Any]:
    return match_to_record(random_match(3, ruleset=Ruleset(target=251)))


def test_a_match_record_needs_the_dealer_rotation() -> None:
    data = match_record()
    assert len(data["rounds"]) >= 2
    data["rounds"][1]["dealer"] = (data["rounds"][1]["dealer"] + 1) % 4
    error = failure(data)
    assert (error.index, error.round) == (None, 1)


def test_no_round_may_follow_the_one_that_decided_the_match() -> None:
    data = match_record()
    data["rounds"].append(copy.deepcopy(data["rounds"][0]))
    error = failure(data)
    assert (error.index, error.round) == (None, len(data["rounds"]) - 1)


def test_every_round_but_the_last_is_complete() -> None:
    data = match_record()
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:5]
    error = failure(data)
    assert (error.index, error.round) == (None, 0)


def test_a_bad_action_in_a_match_names_its_round() -> None:
    data = match_record()
    data["rounds"][1]["actions"][2]["seat"] = 9
    error = failure(data)
    assert (error.index, error.round) == (2, 1)


@pytest.mark.parametrize(
    "changes",
    [{"ruleset": {"target": 250}}, {"rounds": "none"}, {"first_dealer": 7}, {"extra": 1}],
)
def test_a_malformed_match_record(changes: dict[str, Any]) -> None:
    data = match_record()
    data.update(changes)
    assert failure(data).index is None
