"""What one viewer sees of a room: the context of the table partials, from their seat only.

Every card a viewer may see comes from ``observation(seat)`` (or the public observation); the
dealt hands are never put in a template context.
"""

from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Observation,
    Phase,
    Play,
    RoundState,
    Show,
    Suit,
)
from games.engine.declarations import Announcement
from games.errors import message_for
from games.models import Match, Room, RoomSeat, Round
from games.selectors import current_match, current_round, room_seats, round_state
from games.templatetags.cards import SUIT_SYMBOLS, card_face, suit_name

POSITIONS = ("bottom", "right", "top", "left")


@dataclass(frozen=True)
class Viewer:
    """Who looks at the table: a user, and the seat they hold (None: the owner watching)."""

    user: User
    seat: int | None


def viewer_for(room: Room, user: User) -> Viewer:
    """Find the viewer's seat in the database."""
    seat = room.seats.filter(user=user).values_list("seat", flat=True).first()
    return Viewer(user=user, seat=seat)


def render_table(room: Room, viewer: Viewer, *, language: str, oob: bool = True) -> str:
    """Render the whole live table for one viewer, in their language."""
    with translation.override(language):
        context = table_context(room, viewer)
        context["oob"] = oob
        return render_to_string("games/table.html#live", context)


def render_message(message: str, *, language: str) -> str:
    """Render a message for one connection only (a refused action)."""
    with translation.override(language):
        return render_to_string("games/table.html#message", {"message": message, "oob": True})


def table_context(room: Room, viewer: Viewer) -> dict[str, Any]:
    """Build everything the table partials show to ``viewer``."""
    seats = room_seats(room)
    match = current_match(room)
    context: dict[str, Any] = {
        "room": room,
        "viewer": viewer,
        "is_owner": room.owner_id == viewer.user.pk,
        "seats": seats,
        "match": match,
        "seating": match is None,
    }
    if match is None:
        context["seat_rows"] = [_seat_row(chair, viewer, None, None) for chair in seats]
        context["full"] = not any(chair.is_empty for chair in seats)
        return context
    round_ = current_round(match)
    assert round_ is not None
    state = round_state(round_)
    observation = (
        state.public_observation() if viewer.seat is None else state.observation(viewer.seat)
    )
    context.update(_board_context(room, viewer, seats, match, round_, state, observation))
    return context


def _board_context(
    room: Room,
    viewer: Viewer,
    seats: list[RoomSeat],
    match: Match,
    round_: Round,
    state: RoundState,
    observation: Observation,
) -> dict[str, Any]:
    my_turn = viewer.seat is not None and observation.to_act == viewer.seat
    return {
        "round": round_,
        "observation": observation,
        "my_turn": my_turn,
        "seat_rows": [_seat_row(chair, viewer, observation, match) for chair in seats],
        "contract": _contract(observation),
        "auction_log": [
            _auction_entry(seats, seat, action) for seat, action in observation.auction
        ],
        "trick": _trick(seats, observation),
        "last_trick": _last_trick(seats, observation),
        "hand": _hand(state, viewer, observation) if viewer.seat is not None else [],
        "bidding": _bidding(observation)
        if my_turn and observation.phase == Phase.AUCTION
        else None,
        "can_announce": my_turn and Announce() in observation.legal_actions,
        "can_show": my_turn and Show() in observation.legal_actions,
        "declarations": _declarations(seats, observation),
        "sheet": _sheet(match),
        "summary": _summary(match, round_),
        "finished": match.status == Match.Status.FINISHED,
        "winner_team": match.winner,
        "i_am_seated": viewer.seat is not None,
    }


def _name(chair: RoomSeat) -> str:
    if chair.is_bot:
        return _("Computer")
    if chair.user is None:
        return _("Empty seat")
    return str(chair.user.table_name)


def _seat_row(
    chair: RoomSeat, viewer: Viewer, observation: Observation | None, match: Match | None
) -> dict[str, Any]:
    relative = chair.seat if viewer.seat is None else (chair.seat - viewer.seat) % 4
    row: dict[str, Any] = {
        "seat": chair.seat,
        "team": chair.seat % 2,
        "name": _name(chair),
        "is_bot": chair.is_bot,
        "away": chair.away,
        "empty": chair.is_empty,
        "is_me": viewer.seat == chair.seat,
        "position": POSITIONS[relative],
    }
    if observation is not None:
        row["cards"] = observation.card_counts[chair.seat]
        row["dealer"] = observation.dealer == chair.seat
        row["to_act"] = observation.to_act == chair.seat
    return row


def _contract(observation: Observation) -> dict[str, Any] | None:
    contract = observation.contract
    if contract is None:
        return None
    return {
        "value": contract.value,
        "trump": str(contract.trump),
        "trump_name": suit_name(contract.trump),
        "seat": contract.seat,
        "team": contract.team,
        "multiplier": contract.multiplier,
    }


def action_label(action: Action) -> str:
    """Say an auction or play action in words, in the active language."""
    if isinstance(action, Bid):
        return _("%(value)s %(suit)s") % {"value": action.value, "suit": suit_name(action.trump)}
    labels = {
        "pass": _("Pass"),
        "close": _("Close"),
        "reclose": _("Close again"),
        "announce": _("Announce"),
        "show": _("Show"),
    }
    return labels.get(str(action), str(action))


def _auction_entry(seats: list[RoomSeat], seat: int, action: Action) -> dict[str, Any]:
    return {"seat": seat, "name": _name(seats[seat]), "label": action_label(action)}


def _trick(seats: list[RoomSeat], observation: Observation) -> dict[str, Any] | None:
    """Show the open trick; between tricks, the one just won, so its last card stays visible."""
    trick = observation.current_trick
    if trick is not None and trick.cards:
        played = [
            {"seat": (trick.leader + i) % 4, "card": card_face(card)}
            for i, card in enumerate(trick.cards)
        ]
        return {"cards": played, "winner": None}
    if observation.tricks:
        done = observation.tricks[-1]
        played = [
            {"seat": done.seat_of(i), "card": card_face(card)} for i, card in enumerate(done.cards)
        ]
        return {"cards": played, "winner": _name(seats[done.winner])}
    return None


def _last_trick(seats: list[RoomSeat], observation: Observation) -> dict[str, Any] | None:
    if not observation.tricks:
        return None
    done = observation.tricks[-1]
    return {
        "cards": [
            {"name": _name(seats[done.seat_of(i)]), "card": card_face(card)}
            for i, card in enumerate(done.cards)
        ],
        "winner": _name(seats[done.winner]),
        "points": done.points,
    }


def _hand(state: RoundState, viewer: Viewer, observation: Observation) -> list[dict[str, Any]]:
    """Return the viewer's own cards, each with its action and why it may not be played."""
    assert viewer.seat is not None
    seat = viewer.seat
    playing = observation.phase == Phase.PLAY
    cards = sorted(observation.hand, key=_hand_order(observation))
    hand = []
    for card in cards:
        play = Play(card)
        reason = state.why_illegal(seat, play) if playing else None
        pilotta = Play(card, pilotta=True)
        hand.append(
            {
                "card": card_face(card),
                "action": str(play),
                "legal": playing and reason is None,
                "why": message_for(reason) if reason is not None else "",
                "pilotta_action": str(pilotta)
                if playing and state.why_illegal(seat, pilotta) is None
                else "",
            }
        )
    return hand


def _hand_order(observation: Observation) -> Any:
    """Sort a hand by suit (trumps first once known), then by rank."""
    trump = observation.contract.trump if observation.contract is not None else None

    def key(card: Card) -> tuple[int, int, int]:
        return (0 if card.suit == trump else 1, int(card.suit), -int(card.rank))

    return key


def _bidding(observation: Observation) -> dict[str, Any]:
    bids = [a for a in observation.legal_actions if isinstance(a, Bid)]
    values = sorted({bid.value for bid in bids})
    words = {str(a) for a in observation.legal_actions if not isinstance(a, Bid | Play)}
    return {
        "values": values,
        "suits": [
            {"code": str(suit), "symbol": SUIT_SYMBOLS[suit], "name": suit_name(suit)}
            for suit in Suit
        ],
        "can_pass": "pass" in words,
        "can_close": "close" in words,
        "can_reclose": "reclose" in words,
    }


def announcement_label(announcement: Announcement) -> str:
    """Say what an announcement makes public: kind, length and value only."""
    kind, length, value = announcement
    if kind == "four":
        return _("four of a kind, %(value)s") % {"value": value}
    return _("a run of %(length)s, %(value)s") % {"length": length, "value": value}


def _declarations(seats: list[RoomSeat], observation: Observation) -> list[dict[str, Any]]:
    rows = []
    for seat in range(4):
        announced = observation.announcements[seat]
        shown = observation.shown[seat]
        if not announced and not shown:
            continue
        rows.append(
            {
                "name": _name(seats[seat]),
                "announced": [announcement_label(a) for a in announced],
                "shown": [
                    {"value": d.value, "cards": [card_face(c) for c in d.cards]} for d in shown
                ],
            }
        )
    calls = observation.pilotta_calls
    if calls:
        seat = calls[0][0]
        label = _("Pilotta") if len(calls) == 1 else _("Pilotta and re-pilotta")
        rows.append({"name": _name(seats[seat]), "announced": [label], "shown": []})
    return rows


def _sheet(match: Match) -> dict[str, Any]:
    rounds = match.rounds.exclude(status=Round.Status.PLAYING).order_by("number")
    lines = [
        {
            "number": r.number,
            "score": (r.result or {}).get("score", [0, 0]),
            "cancelled": r.status == Round.Status.CANCELLED,
        }
        for r in rounds
    ]
    return {"lines": lines, "totals": match.totals, "target": match.ruleset.get("target", 301)}


def _summary(match: Match, round_: Round) -> dict[str, Any] | None:
    """Explain the last ended round's score, while the next one is young or the match is over."""
    ended = round_ if round_.status != Round.Status.PLAYING else None
    if ended is None:
        if round_.actions.count() >= 4:
            return None
        ended = match.rounds.filter(number=round_.number - 1).first()
    if ended is None:
        return None
    if ended.status == Round.Status.CANCELLED or ended.result is None:
        return {"number": ended.number, "cancelled": True}
    state = round_state(ended)
    contract = state.contract
    assert contract is not None
    result = ended.result
    raw = result["raw"]
    return {
        "number": ended.number,
        "cancelled": False,
        "result": result,
        "contract": {
            "value": contract.value,
            "trump_name": suit_name(contract.trump),
            "team": contract.team,
            "multiplier": contract.multiplier,
        },
        "made": result["made"],
        "capot": result["capot"],
        "rounded": [raw[0] % 10 != 0, raw[1] % 10 != 0],
    }


def error_text(code: str, *, language: str) -> str:
    """Translate a refusal code in ``language``."""
    with translation.override(language):
        return message_for(code)


def round_replay(round_: Round) -> list[dict[str, Any]]:
    """Return a finished round trick by trick: the auction, then each trick with its winner."""
    state = round_state(round_)
    steps: list[dict[str, Any]] = []
    for number, trick in enumerate(state.tricks, start=1):
        steps.append(
            {
                "number": number,
                "cards": [
                    {"seat": trick.seat_of(i), "card": card_face(c)}
                    for i, c in enumerate(trick.cards)
                ],
                "winner": trick.winner,
                "points": trick.points,
            }
        )
    return steps
