"""Actions as small value types, with their text and hand-record round trips."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .cards import DECK, Card, Seat, Suit
from .errors import EngineError, MalformedActionError

T = TypeVar("T")

MIN_BID = 80
MAX_BID = 400
BID_STEP = 10
#: A bid value has at most this many digits: longer ones are malformed, not merely out of range.
BID_DIGITS = 6
#: The longest action text read; anything longer is malformed before it is split.
MAX_ACTION_TEXT = 64
_BID_VALUE = re.compile(rf"[0-9]{{1,{BID_DIGITS}}}")
_BID_BOUND = 10**BID_DIGITS


@dataclass(frozen=True, slots=True, repr=False)
class Bid:
    """Bid a value (80 to 400, in tens) with a trump suit."""

    value: int
    trump: Suit

    def __post_init__(self) -> None:
        if type(self.value) is not int:
            raise MalformedActionError(f"a bid value must be an integer, not {self.value!r}")
        # A huge integer cannot even be printed (int-to-str limit): refuse it as malformed.
        if not -_BID_BOUND < self.value < _BID_BOUND:
            raise MalformedActionError(f"a bid value has at most {BID_DIGITS} digits")
        if not isinstance(self.trump, Suit):
            raise MalformedActionError(f"a bid trump must be a Suit, not {self.trump!r}")

    def __str__(self) -> str:
        return f"bid {self.value} {self.trump}"

    def __repr__(self) -> str:
        return f"Bid({self.value}, {self.trump!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Pass:
    """Pass in the auction (not final: the player may bid later)."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True, repr=False)
class Close:
    """Close the game (kleisto, x2) against the other team's bid."""

    def __str__(self) -> str:
        return "close"

    def __repr__(self) -> str:
        return "Close()"


@dataclass(frozen=True, slots=True, repr=False)
class Reclose:
    """Close again (x4) after a close against one's own team; ends the auction."""

    def __str__(self) -> str:
        return "reclose"

    def __repr__(self) -> str:
        return "Reclose()"


@dataclass(frozen=True, slots=True, repr=False)
class Take:
    """Take the turned card's suit as trump (the classic game's first round of taking)."""

    def __str__(self) -> str:
        return "take"

    def __repr__(self) -> str:
        return "Take()"


@dataclass(frozen=True, slots=True, repr=False)
class Name:
    """Name another suit as trump (the classic game's second round of taking)."""

    trump: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.trump, Suit):
            raise MalformedActionError(f"a named trump must be a Suit, not {self.trump!r}")

    def __str__(self) -> str:
        return f"name {self.trump}"

    def __repr__(self) -> str:
        return f"Name({self.trump!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Announce:
    """Announce every declaration of the hand, on one's turn in trick 1."""

    def __str__(self) -> str:
        return "announce"

    def __repr__(self) -> str:
        return "Announce()"


@dataclass(frozen=True, slots=True, repr=False)
class Show:
    """Show the announced declarations, on one's turn in trick 2."""

    def __str__(self) -> str:
        return "show"

    def __repr__(self) -> str:
        return "Show()"


@dataclass(frozen=True, slots=True, repr=False)
class Play:
    """Play a card, optionally calling pilotta (or re-pilotta) with it."""

    card: Card
    pilotta: bool = False

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            raise MalformedActionError(f"a play needs a Card, not {self.card!r}")
        if type(self.pilotta) is not bool:
            raise MalformedActionError(f"the pilotta flag must be a boolean, not {self.pilotta!r}")

    def __str__(self) -> str:
        return f"play {self.card} pilotta" if self.pilotta else f"play {self.card}"

    def __repr__(self) -> str:
        if self.pilotta:
            return f"Play({self.card!r}, pilotta=True)"
        return f"Play({self.card!r})"


Action = Bid | Pass | Close | Reclose | Take | Name | Announce | Show | Play

PASS = Pass()
TAKE = Take()
CLOSE = Close()
RECLOSE = Reclose()
ANNOUNCE = Announce()
SHOW = Show()

#: Every possible bid, by value then suit, so the bids above a value are a slice.
BIDS: tuple[Bid, ...] = tuple(
    Bid(value, suit) for value in range(MIN_BID, MAX_BID + 1, BID_STEP) for suit in Suit
)
#: PLAYS[card index]: the play of that card without a pilotta call.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in DECK)
PILOTTA_PLAYS: tuple[Play, ...] = tuple(Play(card, pilotta=True) for card in DECK)
#: NAMES[suit]: naming that suit.
NAMES: tuple[Name, ...] = tuple(Name(suit) for suit in Suit)

_SIMPLE: dict[str, Action] = {
    "pass": PASS,
    "close": CLOSE,
    "reclose": RECLOSE,
    "take": TAKE,
    "announce": ANNOUNCE,
    "show": SHOW,
}


def bids_above(value: int | None) -> tuple[Bid, ...]:
    """Return every bid higher than ``value`` (all bids when there is none)."""
    if value is None:
        return BIDS
    return BIDS[(value - MIN_BID) // BID_STEP * 4 + 4 :]


def parse_action(text: str) -> Action:
    """Read an action written as ``str(action)`` writes it, e.g. ``"bid 80 H"``.

    Anything else, however odd (non-ASCII digits, thousands of digits, a megabyte of text),
    raises MalformedActionError.
    """
    if not isinstance(text, str):
        raise MalformedActionError(f"an action must be text, not {text!r}")
    if len(text) > MAX_ACTION_TEXT:
        raise MalformedActionError(f"an action is at most {MAX_ACTION_TEXT} characters")
    words = text.split()
    try:
        return _action_from_words(words)
    except MalformedActionError:
        raise
    except EngineError as error:
        raise MalformedActionError(f"not an action: {text!r} ({error})") from error


def _action_from_words(words: list[str]) -> Action:
    if len(words) == 1 and words[0] in _SIMPLE:
        return _SIMPLE[words[0]]
    # str.isdigit() also accepts digits int() refuses, such as "²": ASCII digits only.
    if len(words) == 3 and words[0] == "bid" and _BID_VALUE.fullmatch(words[1]):
        return Bid(int(words[1]), Suit.parse(words[2]))
    if len(words) == 2 and words[0] == "name":
        return NAMES[Suit.parse(words[1])]
    if len(words) == 2 and words[0] == "play":
        return PLAYS[Card.parse(words[1]).index]
    if len(words) == 3 and words[0] == "play" and words[2] == "pilotta":
        return PILOTTA_PLAYS[Card.parse(words[1]).index]
    raise MalformedActionError(f"not an action: {' '.join(words)!r}")


def action_to_dict(seat: Seat, action: Action) -> dict[str, Any]:
    """Write an action in the hand-record format."""
    data: dict[str, Any] = {"seat": seat}
    if isinstance(action, Bid):
        data.update(action="bid", value=action.value, trump=str(action.trump))
    elif isinstance(action, Name):
        data.update(action="name", trump=str(action.trump))
    elif isinstance(action, Play):
        data.update(action="play", card=str(action.card))
        if action.pilotta:
            data["pilotta"] = True
    else:
        data["action"] = str(action)
    return data


_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # action word: (required keys, optional keys)
    "bid": (frozenset({"seat", "action", "value", "trump"}), frozenset()),
    "name": (frozenset({"seat", "action", "trump"}), frozenset()),
    "play": (frozenset({"seat", "action", "card"}), frozenset({"pilotta"})),
    **{word: (frozenset({"seat", "action"}), frozenset()) for word in _SIMPLE},
}


def action_from_dict(data: Any) -> tuple[Seat, Action]:
    """Read a record action; raise MalformedActionError on anything malformed."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be an object, not {data!r}")
    word = data.get("action")
    if not isinstance(word, str) or word not in _KEYS:
        raise MalformedActionError(f"unknown action: {word!r}")
    required, optional = _KEYS[word]
    keys = set(data)
    if not required <= keys or not keys <= required | optional:
        raise MalformedActionError(f"a {word} action has the keys {sorted(required)}")
    seat = data["seat"]
    if type(seat) is not int or not 0 <= seat < 4:
        raise MalformedActionError(f"a seat must be an integer 0 to 3, not {seat!r}")
    return seat, _action_from_fields(word, data)


def _action_from_fields(word: str, data: dict[str, Any]) -> Action:
    if word == "bid":
        value, trump = data["value"], data["trump"]
        if type(value) is not int:
            raise MalformedActionError(f"a bid value must be an integer, not {value!r}")
        return Bid(value, _parse_text(Suit.parse, trump, "suit"))
    if word == "name":
        return NAMES[_parse_text(Suit.parse, data["trump"], "suit")]
    if word == "play":
        pilotta = data.get("pilotta", False)
        if type(pilotta) is not bool:
            raise MalformedActionError(f"pilotta must be true or false, not {pilotta!r}")
        card = _parse_text(Card.parse, data["card"], "card")
        return PILOTTA_PLAYS[card.index] if pilotta else PLAYS[card.index]
    return _SIMPLE[word]


def _parse_text(parse: Callable[[str], T], text: Any, what: str) -> T:
    if not isinstance(text, str):
        raise MalformedActionError(f"a {what} must be text, not {text!r}")
    try:
        return parse(text)
    except EngineError as error:
        raise MalformedActionError(str(error)) from error
