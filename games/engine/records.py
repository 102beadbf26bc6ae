"""Hand records of both games: JSON round and match records, and the printed state."""

from __future__ import annotations

from typing import Any

from .actions import action_from_dict, action_to_dict
from .cards import Card, format_cards
from .errors import (
    EngineError,
    IllegalActionError,
    MalformedActionError,
    MalformedRecordError,
    MatchError,
)
from .match import ENDED, MatchState
from .play import OpenTrick, Trick
from .ruleset import Ruleset
from .scoring import Contract, RoundResult
from .state import RoundState

ROUND_KEYS = frozenset({"ruleset", "dealer", "hands", "actions"})
#: A classic round also records its turned card and the stock.
CLASSIC_ROUND_KEYS = ROUND_KEYS | {"turned", "stock"}
MATCH_KEYS = frozenset({"ruleset", "first_dealer", "rounds"})


def round_to_record(state: RoundState, *, ruleset: bool = True) -> dict[str, Any]:
    """Write a round as a record: ruleset, dealer, dealt hands (and turned card, stock), actions."""
    record: dict[str, Any] = {}
    if ruleset:
        record["ruleset"] = state.ruleset.to_dict()
    record["dealer"] = state.dealer
    record["hands"] = [format_cards(hand) for hand in state.first_hands]
    if state.turned is not None:
        record["turned"] = str(state.turned)
        record["stock"] = format_cards(state.stock)
    record["actions"] = [action_to_dict(seat, action) for seat, action in state.history]
    return record


def round_from_record(data: Any, *, ruleset: Ruleset | None = None) -> RoundState:
    """Replay a round record; raise MalformedRecordError naming the first bad action.

    ``ruleset`` is the match's, for a round inside a match record.
    """
    return _replay(_deal_from_record(data, ruleset), data)


def _replay(state: RoundState, data: dict[str, Any]) -> RoundState:
    """Apply a record's actions to its deal, naming the first bad one."""
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedRecordError("actions must be a list")
    for index, entry in enumerate(actions):
        try:
            seat, action = action_from_dict(entry)
            state = state.apply(seat, action)
        except (MalformedActionError, IllegalActionError) as error:
            raise MalformedRecordError(str(error), index=index) from error
    return state


def _deal_from_record(data: Any, ruleset: Ruleset | None) -> RoundState:
    if not isinstance(data, dict):
        raise MalformedRecordError("a round record is a JSON object")
    own = _ruleset_from(data) if "ruleset" in data else None
    if ruleset is not None and own is not None and own != ruleset:
        raise MalformedRecordError("a round's ruleset differs from the match's")
    played = own or ruleset or Ruleset()
    unknown = set(data) - (CLASSIC_ROUND_KEYS if played.is_classic else ROUND_KEYS)
    if unknown:
        raise MalformedRecordError(f"unknown keys in the round record: {sorted(unknown)}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(_is_cards(h) for h in hands):
        raise MalformedRecordError("a hand is a string of cards or a list of card strings")
    turned, stock = data.get("turned"), data.get("stock", ())
    if played.is_classic and (not isinstance(turned, str) or not _is_cards(stock)):
        raise MalformedRecordError("a classic round records its turned card and its stock")
    try:
        return RoundState.new(
            dealer=data.get("dealer"),  # type: ignore[arg-type]  # checked by new()
            hands=[_cards(h) for h in hands],
            ruleset=played,
            turned=turned,
            stock=_cards(stock),
        )
    except EngineError as error:
        raise MalformedRecordError(str(error)) from error


def _is_cards(value: Any) -> bool:
    """Say whether a record holds cards here: a string, or a list of card strings."""
    return isinstance(value, str) or (
        isinstance(value, list | tuple) and all(isinstance(card, str) for card in value)
    )


def _cards(value: str | list[str] | tuple[str, ...]) -> str | tuple[Card, ...]:
    return value if isinstance(value, str) else tuple(Card.parse(card) for card in value)


def _ruleset_from(data: dict[str, Any]) -> Ruleset:
    try:
        return Ruleset.from_dict(data["ruleset"])
    except (EngineError, TypeError) as error:
        raise MalformedRecordError(f"bad ruleset: {error}") from error


def match_to_record(match: MatchState) -> dict[str, Any]:
    """Write a match as a record: ruleset, first dealer and every round."""
    rounds = list(match.rounds)
    if match.current is not None:
        rounds.append(match.current)
    return {
        "ruleset": match.ruleset.to_dict(),
        "first_dealer": match.first_dealer,
        "rounds": [round_to_record(state, ruleset=False) for state in rounds],
    }


def match_from_record(data: Any) -> MatchState:
    """Replay a match record, checking dealer rotation, completeness and the winner."""
    if not isinstance(data, dict) or not isinstance(data.get("rounds"), list):
        raise MalformedRecordError("a match record is an object with a list of rounds")
    unknown = set(data) - MATCH_KEYS
    if unknown:
        raise MalformedRecordError(f"unknown keys in the match record: {sorted(unknown)}")
    ruleset = _ruleset_from(data) if "ruleset" in data else Ruleset()
    rounds = data["rounds"]
    first_dealer = data.get("first_dealer")
    if first_dealer is None and rounds and isinstance(rounds[0], dict):
        first_dealer = rounds[0].get("dealer")
    try:
        match = MatchState.new(ruleset=ruleset, first_dealer=first_dealer)  # type: ignore[arg-type]
    except EngineError as error:
        raise MalformedRecordError(str(error)) from error
    for number, entry in enumerate(rounds):
        match = _add_round(match, entry, number, last=number == len(rounds) - 1)
    return match


def _add_round(match: MatchState, entry: Any, number: int, *, last: bool) -> MatchState:
    if match.winner is not None:
        raise MalformedRecordError("a round follows the one that decided the match", round=number)
    try:
        state = _deal_from_record(entry, match.ruleset)
        if state.dealer != match.next_dealer:
            raise MalformedRecordError(
                f"round {number} is dealt by seat {state.dealer}, not {match.next_dealer}"
            )
        state = _replay(state, entry)
    except MalformedRecordError as error:
        error.round = number
        raise
    if not last and state.phase not in ENDED:
        raise MalformedRecordError(f"round {number} is not complete", round=number)
    try:
        return match.with_round(state)
    except MatchError as error:
        raise MalformedRecordError(str(error), round=number) from error


def load_record(data: Any) -> RoundState | MatchState:
    """Replay a round record, or a match record (one with a ``rounds`` key)."""
    if isinstance(data, dict) and "rounds" in data:
        return match_from_record(data)
    return round_from_record(data)


def state_to_json(state: RoundState | MatchState) -> dict[str, Any]:
    """Print a round's state, or a match's latest round with its totals and winner."""
    if isinstance(state, RoundState):
        return _round_json(state)
    rounds = state.rounds if state.current is None else (*state.rounds, state.current)
    printed = _round_json(rounds[-1]) if rounds else _empty_round_json(state.ruleset)
    printed["round"] = len(rounds) - 1 if rounds else None
    printed["totals"] = list(state.totals)
    printed["winner"] = state.winner
    printed["next_dealer"] = None if state.winner is not None else state.next_dealer
    return printed


def _round_json(state: RoundState) -> dict[str, Any]:
    to_act = state.to_act
    legal = [] if to_act is None else [action_to_dict(to_act, a) for a in state.legal_actions()]
    printed = {
        "phase": str(state.phase),
        "dealer": state.dealer,
        "to_act": to_act,
        "legal": legal,
        "contract": contract_json(state.contract, classic=state.ruleset.is_classic),
        "current_trick": open_trick_json(state.current_trick),
        "tricks": [trick_json(trick) for trick in state.tricks],
        "result": result_json(state.result),
    }
    if state.turned is not None:
        printed["turned"] = str(state.turned)
        printed["auction_round"] = state.auction_round
    return printed


def _empty_round_json(ruleset: Ruleset) -> dict[str, Any]:
    printed: dict[str, Any] = {
        "phase": None,
        "dealer": None,
        "to_act": None,
        "legal": [],
        "contract": None,
        "current_trick": None,
        "tricks": [],
        "result": None,
    }
    if ruleset.is_classic:
        # The classic game prints these with every state, before the first deal too.
        printed["turned"] = None
        printed["auction_round"] = None
    return printed


def contract_json(contract: Contract | None, *, classic: bool = False) -> dict[str, Any] | None:
    """Write a contract as the hand-record format prints it (classic: side, taker and trump)."""
    if contract is None:
        return None
    if classic:
        return {"team": contract.team, "seat": contract.seat, "trump": str(contract.trump)}
    return {
        "team": contract.team,
        "seat": contract.seat,
        "value": contract.value,
        "trump": str(contract.trump),
        "multiplier": contract.multiplier,
    }


def trick_json(trick: Trick) -> dict[str, Any]:
    """Write a completed trick as the hand-record format prints it."""
    return {
        "leader": trick.leader,
        "cards": [str(card) for card in trick.cards],
        "winner": trick.winner,
        "points": trick.points,
    }


def open_trick_json(trick: OpenTrick | None) -> dict[str, Any] | None:
    """Write the trick being played: leader and cards so far."""
    if trick is None:
        return None
    return {"leader": trick.leader, "cards": [str(card) for card in trick.cards]}


def result_json(result: RoundResult | None) -> dict[str, Any] | None:
    """Write a round result as the hand-record format prints it (classic: ``total`` for ``raw``)."""
    if result is None:
        return None
    # The classic game puts raw points on the sheet: it prints each side's total instead.
    points_key, points = ("raw", result.raw) if result.total is None else ("total", result.total)
    return {
        "card_points": list(result.card_points),
        "declarations": list(result.declarations),
        "pilotta": list(result.pilotta),
        "made": result.made,
        "capot": result.capot,
        points_key: list(points),
        "score": list(result.score),
    }
