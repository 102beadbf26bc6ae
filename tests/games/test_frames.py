"""Frames from the table's browsers: what htmx sends is read, anything else is refused."""

import json
import time
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import frames
from games.frames import (
    MAX_FRAME,
    MAX_HEADER_VALUE,
    MAX_VALUE,
    Admission,
    FrameError,
    RateLimiter,
    nests_deeper,
    read_frame,
)

#: What htmx's ws extension sends from a card button: its value and the request headers.
HEADERS = {
    "HX-Request": "true",
    "HX-Trigger": None,
    "HX-Trigger-Name": "action",
    "HX-Target": None,
    "HX-Current-URL": "http://localhost:8000/en/rooms/7/",
    "X-CSRFToken": "x" * 64,
}


def frame(**content: Any) -> str:
    return json.dumps({**content, "HEADERS": HEADERS})


def refusal(text_data: str | None = None, bytes_data: bytes | None = None) -> str:
    with pytest.raises(FrameError) as caught:
        read_frame(text_data, bytes_data)
    return caught.value.code


@pytest.fixture
def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the frame reaches the JSON parser."""

    def loads(text: str) -> Any:
        raise AssertionError("the frame was parsed")

    monkeypatch.setattr(frames, "json", types.SimpleNamespace(loads=loads))


def test_a_card_button_frame_gives_its_action() -> None:
    assert read_frame(frame(action="play JH"), None) == {"action": "play JH"}


def test_the_bidding_form_gives_its_three_fields_without_the_headers() -> None:
    fields = read_frame(frame(action="bid", value="90", trump="H"), None)

    assert fields == {"action": "bid", "value": "90", "trump": "H"}


def test_a_frame_without_headers_is_read() -> None:
    assert read_frame('{"action": "pass"}', None) == {"action": "pass"}


def test_brackets_and_quotes_inside_strings_do_not_nest() -> None:
    text = json.dumps({"action": '[[[{{{"\\]]"', "HEADERS": {"HX-Target": "[[[[[["}})

    assert read_frame(text, None) == {"action": '[[[{{{"\\]]"'}


def test_a_frame_of_exactly_the_limit_is_read() -> None:
    headers = {f"X-Pad-{n}": "" for n in range(8)}
    text = json.dumps({"action": "pass", "HEADERS": headers})
    padding = MAX_FRAME - len(text)
    headers["X-Pad-0"] = "p" * (padding % MAX_HEADER_VALUE)
    for n in range(1, 1 + padding // MAX_HEADER_VALUE):
        headers[f"X-Pad-{n}"] = "p" * MAX_HEADER_VALUE
    text = json.dumps({"action": "pass", "HEADERS": headers})

    assert len(text) == MAX_FRAME
    assert read_frame(text, None) == {"action": "pass"}


@pytest.mark.usefixtures("no_parsing")
@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        " " * (MAX_FRAME + 1),
        json.dumps({"action": "pass", "HEADERS": {"X-Pad": "p" * MAX_FRAME}}),
        "x" * 1_000_000,
    ],
    ids=["100k brackets", "spaces", "padded headers", "1 MB"],
)
def test_a_long_text_frame_is_refused_before_it_is_parsed(text: str) -> None:
    assert refusal(text) == "frame_too_large"


@pytest.mark.usefixtures("no_parsing")
def test_a_long_binary_frame_is_refused_as_too_large() -> None:
    assert refusal(bytes_data=b"\0" * (MAX_FRAME + 1)) == "frame_too_large"


@pytest.mark.usefixtures("no_parsing")
@pytest.mark.parametrize("data", [b"", b'{"action": "pass"}', b"\xff\xfe"])
def test_a_binary_frame_is_refused(data: bytes) -> None:
    assert refusal(bytes_data=data) == "malformed"


def test_a_frame_with_neither_text_nor_bytes_is_refused() -> None:
    assert refusal() == "malformed"


@pytest.mark.usefixtures("no_parsing")
@pytest.mark.parametrize(
    "text",
    [
        "[" * 5_000,
        "{" * 5_000,
        '{"action": "pass", "HEADERS": {"X": []}}',
        '{"action": [["pass"]]}',
        '""' + "[" * 1_000,  # an empty string: the brackets are outside it
    ],
    ids=["5000 [", "5000 {", "list in headers", "nested action", "closed string"],
)
def test_a_deeply_nested_frame_is_refused_before_it_is_parsed(text: str) -> None:
    assert refusal(text) == "malformed"


def test_recursion_in_the_parser_never_escapes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Even past the nesting scan, the parser's own RecursionError is a refusal.
    monkeypatch.setattr(frames, "nests_deeper", lambda text, limit: False)

    assert refusal("[" * 10_000) == "malformed"


@pytest.mark.parametrize(
    "text",
    ["", "pass", "{", "{'action': 'pass'}", '{"action": "pass"', "\0", "\ud800", "NaN"],
)
def test_text_that_is_not_json_is_refused(text: str) -> None:
    assert refusal(text) == "malformed"


def test_an_integer_past_the_digit_limit_is_refused() -> None:
    assert refusal('{"action": ' + "9" * 5_000 + "}") == "malformed"


@pytest.mark.parametrize("text", ["[]", '["pass"]', '"pass"', "1", "null", "true"])
def test_json_that_is_not_an_object_is_refused(text: str) -> None:
    assert refusal(text) == "malformed"


@pytest.mark.parametrize(
    "content",
    [
        {},
        {"HEADERS": HEADERS},
        {"value": "90", "trump": "H"},
        {"action": "pass", "seat": 0},
        {"action": "pass", "seat": "0"},
        {"action": "pass", "Action": "close"},
        {"action": "pass", "round": "1"},
        {"action": ["pass"]},
        {"action": None},
        {"action": 1},
        {"action": True},
        {"action": {"word": "pass"}},
        {"action": "bid", "value": 90, "trump": "H"},
        {"action": "x" * (MAX_VALUE + 1)},
        {"action": "bid", "value": "9" * 5_000, "trump": "H"},
        {"action": "pass", "HEADERS": None},
        {"action": "pass", "HEADERS": "HX-Request: true"},
        {"action": "pass", "HEADERS": ["HX-Request"]},
        {"action": "pass", "HEADERS": {"HX-Request": True}},
        {"action": "pass", "HEADERS": {"HX-Request": 1}},
        {"action": "pass", "HEADERS": {"HX-Request": ["true"]}},
        {"action": "pass", "HEADERS": {"HX-Current-URL": "u" * (MAX_HEADER_VALUE + 1)}},
        {"action": "pass", "HEADERS": {"X" * 65: "true"}},
        {"action": "pass", "HEADERS": {f"X-{n}": "" for n in range(17)}},
    ],
)
def test_a_frame_of_another_shape_is_refused(content: dict[str, Any]) -> None:
    assert refusal(json.dumps(content)) == "malformed"


def test_escaped_quotes_are_scanned_in_linear_time() -> None:
    # A pattern that needs each string's closing quote rescans these from every quote:
    # seconds for one frame.
    texts = ['"' + '\\"' * (MAX_FRAME // 2 - 1), '"\\"' * (MAX_FRAME // 3) + "\\", '"' * MAX_FRAME]
    started = time.perf_counter()
    for text in texts:
        assert len(text) <= MAX_FRAME
        assert refusal(text) == "malformed"
    assert time.perf_counter() - started < 0.5


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ ab\n'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\ ab', max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 0


@settings(max_examples=300)
@given(JSON_VALUES, st.booleans(), st.integers(min_value=0, max_value=5))
def test_the_nesting_scan_agrees_with_the_parser(value: Any, ascii: bool, limit: int) -> None:
    text = json.dumps(value, ensure_ascii=ascii)

    assert nests_deeper(text, limit) == (depth(value) > limit)


@settings(max_examples=300)
@given(st.one_of(st.text(), st.text(alphabet='[]{}"\\:, a1'), JSON_VALUES.map(json.dumps)))
def test_any_text_is_read_or_refused(text: str) -> None:
    code: str | None
    try:
        fields = read_frame(text, None)
    except FrameError as error:
        code = error.code
    else:
        code = None
        assert set(fields) <= {"action", "value", "trump"}
        assert all(isinstance(v, str) and len(v) <= MAX_VALUE for v in fields.values())
    assert code in {None, "malformed", "frame_too_large"}


@given(st.binary())
def test_any_bytes_are_refused(data: bytes) -> None:
    assert refusal(bytes_data=data) == "malformed"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def admissions(limiter: RateLimiter, count: int) -> list[Admission]:
    return [limiter.admit() for _ in range(count)]


def test_a_burst_of_twenty_is_accepted_then_one_refusal_then_silence() -> None:
    limiter = RateLimiter(clock=Clock())

    seen = admissions(limiter, 200)

    assert seen[:20] == [Admission.ACCEPT] * 20
    assert seen[20] == Admission.REFUSE
    assert seen[21:] == [Admission.DROP] * 179


def test_tokens_come_back_at_ten_a_second_and_a_new_burst_is_told_again() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    admissions(limiter, 25)

    clock.now += 0.11
    assert admissions(limiter, 3) == [Admission.ACCEPT, Admission.REFUSE, Admission.DROP]
    clock.now += 0.06
    assert limiter.admit() == Admission.DROP
    clock.now += 0.06
    assert limiter.admit() == Admission.ACCEPT


def test_ten_a_second_is_never_refused() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)

    seen = []
    for _ in range(1_000):
        clock.now += 0.1
        seen.append(limiter.admit())

    assert set(seen) == {Admission.ACCEPT}


def test_a_long_pause_refills_only_one_burst() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    admissions(limiter, 20)

    clock.now += 3600
    seen = admissions(limiter, 22)

    assert seen == [Admission.ACCEPT] * 20 + [Admission.REFUSE, Admission.DROP]


def test_a_clock_going_back_gives_no_tokens() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)
    admissions(limiter, 21)

    clock.now -= 50
    assert limiter.admit() == Admission.DROP
    clock.now += 0.11
    assert limiter.admit() == Admission.ACCEPT


def test_a_flood_of_five_thousand_a_second_accepts_about_ten_a_second() -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock)

    seen = []
    for _ in range(5_000):
        clock.now += 1 / 5_000
        seen.append(limiter.admit())

    accepted = seen.count(Admission.ACCEPT)
    assert 20 + 9 <= accepted <= 20 + 11
    # Each token that comes back admits one message, and the next one is told once more.
    assert seen.count(Admission.REFUSE) == accepted - 20 + 1
