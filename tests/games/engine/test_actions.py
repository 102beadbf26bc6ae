"""Actions: text and record round trips, and malformed hand records."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    Announce,
    Bid,
    Card,
    Close,
    MalformedActionError,
    Pass,
    Play,
    Reclose,
    Show,
    Suit,
    action_from_dict,
    action_to_dict,
    parse_action,
)
from games.engine.actions import MAX_ACTION_TEXT, bids_above

ACTIONS = [
    (Bid(80, Suit.HEARTS), "bid 80 H", {"action": "bid", "value": 80, "trump": "H"}),
    (Pass(), "pass", {"action": "pass"}),
    (Close(), "close", {"action": "close"}),
    (Reclose(), "reclose", {"action": "reclose"}),
    (Announce(), "announce", {"action": "announce"}),
    (Show(), "show", {"action": "show"}),
    (Play(Card.parse("JH")), "play JH", {"action": "play", "card": "JH"}),
    (
        Play(Card.parse("KH"), pilotta=True),
        "play KH pilotta",
        {"action": "play", "card": "KH", "pilotta": True},
    ),
]


@pytest.mark.parametrize(("action", "text", "record"), ACTIONS)
def test_text_and_record_round_trips(action: Any, text: str, record: dict[str, Any]) -> None:
    assert str(action) == text
    assert parse_action(text) == action
    assert eval(repr(action)) == action
    assert action_to_dict(2, action) == {"seat": 2, **record}
    assert action_from_dict({"seat": 2, **record}) == (2, action)
    assert hash(parse_action(text)) == hash(action)


def test_a_false_pilotta_flag_is_no_flag() -> None:
    record = {"seat": 1, "action": "play", "card": "KH", "pilotta": False}
    assert action_from_dict(record) == (1, Play(Card.parse("KH")))


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        {"action": "pass"},
        {"seat": 0},
        {"seat": True, "action": "pass"},
        {"seat": 0.0, "action": "pass"},
        {"seat": 4, "action": "pass"},
        {"seat": -1, "action": "pass"},
        {"seat": "0", "action": "pass"},
        {"seat": 0, "action": "fold"},
        {"seat": 0, "action": "PASS"},
        {"seat": 0, "action": "pass", "value": 80},
        {"seat": 0, "action": "bid", "value": True, "trump": "H"},
        {"seat": 0, "action": "bid", "value": 80.0, "trump": "H"},
        {"seat": 0, "action": "bid", "value": "80", "trump": "H"},
        {"seat": 0, "action": "bid", "value": 80},
        {"seat": 0, "action": "bid", "value": 80, "trump": "X"},
        {"seat": 0, "action": "bid", "value": 80, "trump": 2},
        {"seat": 0, "action": "play", "card": "ZZ"},
        {"seat": 0, "action": "play", "card": ["JH"]},
        {"seat": 0, "action": "play"},
        {"seat": 0, "action": "play", "card": "JH", "pilotta": 1},
        {"seat": 0, "action": "play", "card": "JH", "pilotta": "true"},
        {"seat": 0, "action": "play", "card": "JH", "extra": 1},
    ],
)
def test_malformed_record_actions_are_refused(record: Any) -> None:
    with pytest.raises(MalformedActionError):
        action_from_dict(record)


@pytest.mark.parametrize(
    "text", ["", "bid", "bid 80", "bid eighty H", "bid -80 H", "play", "play XX", "fold", 3]
)
def test_malformed_action_text_is_refused(text: Any) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "bid ² H",  # a digit to str.isdigit(), but not to int()
        "bid ¹²³ H",
        "bid ٨٠ H",  # Arabic-Indic digits: int() would read 80
        "bid \uff18\uff10 H",  # full-width digits
        "bid +80 H",
        "bid 8_0 H",
        "bid 1234567 H",
        "bid " + "9" * 5000 + " H",
        "bid 80 " + "H" * 5000,
        "play " + "J" * 100_000,
        "x" * (MAX_ACTION_TEXT + 1),
        "\x00",
        "pass\x00",
    ],
)
def test_odd_action_text_is_malformed_never_a_value_error(text: str) -> None:
    with pytest.raises(MalformedActionError):
        parse_action(text)


def test_a_bid_value_is_ascii_digits_of_bounded_length() -> None:
    assert parse_action("bid 0080 H") == Bid(80, Suit.HEARTS)
    # Six digits still parse: the auction refuses them as out of range, with its reason.
    assert parse_action("bid 999999 H") == Bid(999_999, Suit.HEARTS)
    assert parse_action("  play   JH  ") == Play(Card.parse("JH"))


@given(st.text(max_size=MAX_ACTION_TEXT + 8))
def test_any_text_is_an_action_or_malformed(text: str) -> None:
    for candidate in (text, f"bid {text} H", f"play {text}"):
        try:
            action = parse_action(candidate)
        except MalformedActionError:
            continue
        assert parse_action(str(action)) == action


@pytest.mark.parametrize("exponent", [6, 5000])
@pytest.mark.parametrize("sign", [1, -1])
def test_a_bid_value_too_long_to_print_is_malformed(exponent: int, sign: int) -> None:
    value = sign * 10**exponent
    with pytest.raises(MalformedActionError):
        Bid(value, Suit.HEARTS)
    with pytest.raises(MalformedActionError):
        action_from_dict({"seat": 0, "action": "bid", "value": value, "trump": "H"})


def test_actions_refuse_wrong_types() -> None:
    with pytest.raises(MalformedActionError):
        Bid(True, Suit.HEARTS)
    with pytest.raises(MalformedActionError):
        Bid(80, "H")  # type: ignore[arg-type]
    with pytest.raises(MalformedActionError):
        Play("JH")  # type: ignore[arg-type]


def test_bids_above_a_value_are_the_higher_bids_in_each_suit() -> None:
    assert len(bids_above(None)) == 33 * 4
    above = bids_above(390)
    assert [str(b) for b in above] == ["bid 400 C", "bid 400 D", "bid 400 H", "bid 400 S"]
    assert bids_above(400) == ()
