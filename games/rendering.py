"""What one viewer sees of a room, drawn from a table snapshot and nothing else.

Every card a viewer may see comes from ``observation(seat)`` (or the public observation); the
dealt hands are never put in a template context. Rendering reads no database: the snapshot
(games.snapshots) holds all the table shows.

The table is cut into regions (the seats, the middle of the table, the controls, the hand, the
declarations and last trick, the score). A connection keeps the data it last drew in each region
(a ``TableScreen``) and, after a change, sends only the regions whose data changed for its seat.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.adapter import waitlist_url
from games.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Name,
    Observation,
    Pass,
    Phase,
    Play,
    RoundState,
    Show,
    Suit,
    Take,
)
from games.engine.declarations import Announcement
from games.engine.scoring import RoundResult
from games.errors import message_for
from games.models import game_label
from games.snapshots import SeatView, TableSnapshot
from games.templatetags.cards import SUIT_SYMBOLS, card_face, suit_name

POSITIONS = ("bottom", "right", "top", "left")
# Where each seat sits on the felt, counted from the viewer's in the order of play.
POSITIONS_BY_PLAYERS = {4: POSITIONS, 3: ("bottom", "right", "left"), 2: ("bottom", "top")}
TEMPLATE = "games/table.html"


@dataclass(frozen=True)
class Viewer:
    """Who looks at the table: a user, the seat they hold (None: watching), if they own it, and
    if they are a guest (offered to keep their games once the match is over)."""

    user_id: int
    seat: int | None
    is_owner: bool
    is_guest: bool = False


def viewer_in(snapshot: TableSnapshot, user_id: int) -> Viewer:
    """Find the viewer's seat in the snapshot (read from the database, never from the client)."""
    seat = snapshot.seat_of(user_id)
    return Viewer(
        user_id=user_id,
        seat=seat,
        is_owner=snapshot.owner_id == user_id,
        is_guest=seat is not None and snapshot.seats[seat].is_guest,
    )


# The regions, in the order the page shows them.
BOARD_REGIONS = ("strip", "seats", "center", "controls", "hand", "extras", "score")


def render_table(snapshot: TableSnapshot, viewer: Viewer, *, language: str, oob: bool) -> str:
    """Render the whole table for one viewer, in their language."""
    with translation.override(language):
        context = _layout(snapshot, viewer)
        context["oob"] = oob
        context["regions"] = _regions(snapshot, viewer)
        return render_to_string(f"{TEMPLATE}#live", context)


def render_message(message: str, *, language: str) -> str:
    """Render a message for one connection only (a refused action)."""
    with translation.override(language):
        return render_to_string(f"{TEMPLATE}#message", {"message": message, "oob": True})


def error_text(code: str, *, language: str) -> str:
    """Translate a refusal code in ``language``."""
    with translation.override(language):
        return message_for(code)


@dataclass
class TableScreen:
    """What one connection has drawn: the version and each region's data, to send only changes."""

    user_id: int
    language: str
    version: int = -1
    layout: dict[str, Any] | None = None
    drawn: dict[str, Any] = field(default_factory=dict)

    def full(self, snapshot: TableSnapshot) -> str:
        """Draw the whole table (on connect, or when its layout changes)."""
        viewer = viewer_in(snapshot, self.user_id)
        with translation.override(self.language):
            self.layout = _layout(snapshot, viewer)
            self.drawn = _regions(snapshot, viewer)
        self.version = snapshot.version
        return render_table(snapshot, viewer, language=self.language, oob=True)

    def changes(self, snapshot: TableSnapshot) -> str:
        """Draw only the regions that changed for this viewer since the last draw ("" if none).

        An older snapshot than the one on screen is dropped: the screen never goes back.
        """
        if snapshot.version <= self.version:
            return ""
        viewer = viewer_in(snapshot, self.user_id)
        with translation.override(self.language):
            layout = _layout(snapshot, viewer)
            if layout != self.layout:
                return self.full(snapshot)
            regions = _regions(snapshot, viewer)
            changed = {name: data for name, data in regions.items() if self.drawn.get(name) != data}
            html = "".join(
                render_to_string(
                    f"{TEMPLATE}#region-{name}", {**layout, "data": data, "region_oob": True}
                )
                for name, data in changed.items()
            )
        self.drawn = regions
        self.version = snapshot.version
        return html


def _layout(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, Any]:
    """Return what decides the table's frame: seating or play, and the viewer's place in it."""
    return {
        "room_id": snapshot.room_id,
        "seating": snapshot.match_id is None,
        "is_owner": viewer.is_owner,
        "i_am_seated": viewer.seat is not None,
        "assist": snapshot.assist,
        "classic": snapshot.is_classic,
        "players": snapshot.players,
    }


def _regions(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, dict[str, Any]]:
    if snapshot.match_id is None:
        return {"seating": _seating(snapshot, viewer)}
    observation = snapshot.observation(viewer.seat)
    assert observation is not None
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        "strip": lambda: _strip(snapshot, viewer, observation),
        "seats": lambda: _seats_region(snapshot, viewer, observation),
        "center": lambda: _center(snapshot, observation),
        "controls": lambda: _controls(snapshot, viewer, observation),
        "hand": lambda: _hand_region(viewer, observation),
        "extras": lambda: _extras(snapshot, observation),
        "score": lambda: _score(snapshot, viewer),
    }
    return {name: builders[name]() for name in BOARD_REGIONS}


# Each computer has a name of its own, by seat, so that the bidding, the tricks and the replay
# always say which one did what; each language gives the name its local form.
COMPUTER_NAMES = (
    gettext_lazy("Nikos"),
    gettext_lazy("Eleni"),
    gettext_lazy("Andreas"),
    gettext_lazy("Sophia"),
)
LEVEL_LABELS = {
    "easy": gettext_lazy("easy"),
    "medium": gettext_lazy("medium"),
    "strong": gettext_lazy("strong"),
}


def seat_name(chair: SeatView) -> str:
    """Say who sits in a chair, in the active language."""
    if chair.is_bot:
        return str(COMPUTER_NAMES[chair.seat % len(COMPUTER_NAMES)])
    if chair.name is None:
        return _("Empty seat")
    return chair.name


def computer_label(level: str) -> str:
    """Say that a seat is a computer, and how strong, e.g. "computer · medium"."""
    return _("computer · %(level)s") % {"level": LEVEL_LABELS.get(level, level)}


def side_label(snapshot: TableSnapshot, viewer: Viewer, team: int) -> str:
    """Name a side from the viewer's: "Us" and "Them" for a player, the partners' names for
    someone watching; without partners (two or three players), the player's name."""
    if snapshot.players != 4:
        return seat_name(snapshot.seats[team])
    if viewer.seat is not None:
        return _("Us") if viewer.seat % 2 == team else _("Them")
    first, second = (seat_name(chair) for chair in snapshot.seats if chair.seat % 2 == team)
    return _("%(first)s & %(second)s") % {"first": first, "second": second}


def _my_side(snapshot: TableSnapshot, viewer: Viewer) -> int | None:
    return None if viewer.seat is None else snapshot.side_of(viewer.seat)


def _side_order(snapshot: TableSnapshot, viewer: Viewer) -> list[int]:
    """Return the sides in the order the viewer reads them: their own first, then in play
    order (in seat order for someone watching)."""
    sides = snapshot.sides
    mine = _my_side(snapshot, viewer) or 0
    return [(mine + offset) % sides for offset in range(sides)]


def _sides(snapshot: TableSnapshot, viewer: Viewer, figures: Sequence[int]) -> list[dict[str, Any]]:
    """Return the sides (teams, or players without partners) with one figure each, the
    viewer's own side first."""
    mine = _my_side(snapshot, viewer)
    return [
        {
            "team": side,
            "label": side_label(snapshot, viewer, side),
            "value": figures[side] if side < len(figures) else 0,
            "mine": mine == side,
        }
        for side in _side_order(snapshot, viewer)
    ]


def _role(snapshot: TableSnapshot, viewer: Viewer, seat: int) -> str:
    if viewer.seat is None:
        return ""
    if seat == viewer.seat:
        return _("you")
    if snapshot.players == 4 and (seat - viewer.seat) % 2 == 0:
        return _("partner")
    return _("opponent")


def _seating(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, Any]:
    rows = [
        {
            "seat": chair.seat,
            "team": snapshot.side_of(chair.seat),
            "name": seat_name(chair),
            "is_bot": chair.is_bot,
            "computer": computer_label(snapshot.bot_level) if chair.is_bot else "",
            "empty": chair.is_empty,
            "is_me": viewer.seat == chair.seat,
        }
        for chair in snapshot.seats
    ]
    return {
        "seat_rows": rows,
        "full": not any(chair.is_empty for chair in snapshot.seats),
        "game": game_label(snapshot.variant, snapshot.players),
        "teams": snapshot.players == 4,
    }


def _strip(snapshot: TableSnapshot, viewer: Viewer, observation: Observation) -> dict[str, Any]:
    """The line always in view: the score from the viewer's side, the target and the contract."""
    return {
        "sides": _sides(snapshot, viewer, snapshot.totals),
        "target": snapshot.target,
        "contract": _contract(snapshot, viewer, observation),
        "bidding": observation.phase == Phase.AUCTION,
        "classic": snapshot.is_classic,
    }


def _seats_region(
    snapshot: TableSnapshot, viewer: Viewer, observation: Observation
) -> dict[str, Any]:
    """Each seat with what is in front of it: its card in the trick and, while bidding, its
    last call."""
    trick = _trick(observation)
    calls = _last_calls(observation)
    players = snapshot.players
    positions = POSITIONS_BY_PLAYERS[players]
    rows = []
    for chair in snapshot.seats:
        relative = chair.seat if viewer.seat is None else (chair.seat - viewer.seat) % players
        played = trick["cards"].get(chair.seat) if trick else None
        rows.append(
            {
                "seat": chair.seat,
                "team": snapshot.side_of(chair.seat),
                "name": seat_name(chair),
                "role": _role(snapshot, viewer, chair.seat),
                "computer": computer_label(snapshot.bot_level) if chair.is_bot else "",
                "level": str(LEVEL_LABELS.get(snapshot.bot_level, snapshot.bot_level)),
                "away": chair.away,
                "is_me": viewer.seat == chair.seat,
                "position": positions[relative],
                "cards": observation.card_counts[chair.seat],
                "dealer": observation.dealer == chair.seat,
                "to_act": observation.to_act == chair.seat,
                "played": played,
                "won": trick is not None and trick["winner"] == chair.seat,
                "fresh": trick is not None and trick["last"] == chair.seat,
                "call": calls.get(chair.seat, ""),
            }
        )
    return {"seat_rows": rows, "trick_done": trick is not None and trick["winner"] is not None}


def _last_calls(observation: Observation) -> dict[int, str]:
    """Return each seat's latest call of the auction, while the auction lasts."""
    if observation.phase != Phase.AUCTION:
        return {}
    return {seat: action_label(action) for seat, action in observation.auction}


def _center(snapshot: TableSnapshot, observation: Observation) -> dict[str, Any]:
    trick = _trick(observation)
    winner = trick["winner"] if trick else None
    return {
        "turned": _turned(snapshot, observation),
        "phase": str(observation.phase),
        "trick_number": len(observation.tricks) + (observation.current_trick is not None),
        "winner": seat_name(snapshot.seats[winner]) if winner is not None else "",
        "auction_log": [
            {"seat": seat, "name": seat_name(snapshot.seats[seat]), "label": action_label(action)}
            for seat, action in observation.auction
        ]
        if observation.phase == Phase.AUCTION
        else [],
    }


def _turned(snapshot: TableSnapshot, observation: Observation) -> dict[str, Any] | None:
    """Return the classic game's turned card, face up in the middle while the players take or
    pass; during the first trick, who took it (the completion of the deal), then nothing."""
    turned = observation.turned
    if turned is None:
        return None
    if observation.phase == Phase.AUCTION:
        return {"card": card_face(turned), "round": observation.auction_round, "note": ""}
    contract = observation.contract
    if contract is None or observation.phase != Phase.PLAY or observation.tricks:
        return None
    figures = {
        "name": seat_name(snapshot.seats[contract.seat]),
        "suit": SUIT_SYMBOLS[contract.trump],
    }
    if contract.trump == turned.suit:
        note = _("%(name)s takes %(suit)s and the turned card") % figures
    else:
        note = _("%(name)s names %(suit)s and takes the turned card") % figures
    return {"card": card_face(turned), "round": None, "note": note}


def _contract(
    snapshot: TableSnapshot, viewer: Viewer, observation: Observation
) -> dict[str, Any] | None:
    """Say the contract with who holds it, its trump and its multiplier (the classic game's
    has neither value nor multiplier: the taker and the trump)."""
    contract = observation.contract
    if contract is None:
        return None
    return {
        "classic": snapshot.is_classic,
        "value": contract.value,
        "trump": str(contract.trump),
        "trump_name": suit_name(contract.trump),
        "holder": seat_name(snapshot.seats[contract.seat]),
        "multiplier": contract.multiplier,
    }


def action_label(action: Action) -> str:
    """Say an auction or play action in words, in the active language."""
    if isinstance(action, Bid):
        return _("%(value)s %(suit)s") % {"value": action.value, "suit": suit_name(action.trump)}
    if isinstance(action, Name):
        return _("Name %(suit)s") % {"suit": SUIT_SYMBOLS[action.trump]}
    labels = {
        "take": _("Take"),
        "pass": _("Pass"),
        "close": _("Close"),
        "reclose": _("Close again"),
        "announce": _("Announce"),
        "show": _("Show"),
    }
    return labels.get(str(action), str(action))


def _trick(observation: Observation) -> dict[str, Any] | None:
    """Return the cards on the table by seat: the open trick, or between tricks the one just
    won with its winner, so that the last card and who took it stay in view."""
    trick = observation.current_trick
    players = observation.players
    if trick is not None and trick.cards:
        cards = {
            (trick.leader + i) % players: card_face(card) for i, card in enumerate(trick.cards)
        }
        last = (trick.leader + len(trick.cards) - 1) % players
        return {"cards": cards, "winner": None, "last": last}
    if observation.tricks:
        done = observation.tricks[-1]
        cards = {done.seat_of(i, players): card_face(card) for i, card in enumerate(done.cards)}
        last = done.seat_of(len(done.cards) - 1, players)
        return {"cards": cards, "winner": done.winner, "last": last}
    return None


def _controls(snapshot: TableSnapshot, viewer: Viewer, observation: Observation) -> dict[str, Any]:
    if viewer.seat is None:
        return {}
    my_turn = observation.to_act == viewer.seat
    return {
        "finished": snapshot.match_finished,
        "my_turn": my_turn,
        "waiting": observation.to_act is not None and not my_turn,
        "bidding": _bidding(observation)
        if my_turn and observation.phase == Phase.AUCTION and observation.turned is None
        else None,
        "taking": _taking(observation)
        if my_turn and observation.phase == Phase.AUCTION and observation.turned is not None
        else None,
        "can_announce": my_turn and Announce() in observation.legal_actions,
        "can_show": my_turn and Show() in observation.legal_actions,
        "pilotta": _pilotta_plays(observation) if my_turn and not snapshot.assist else [],
    }


def _pilotta_plays(observation: Observation) -> list[dict[str, Any]]:
    """Return the plays that may call pilotta now (the King or Queen of trumps)."""
    if observation.phase != Phase.PLAY:
        return []
    return [
        {"action": str(play), "card": card_face(play.card)}
        for play in (Play(card, pilotta=True) for card in observation.hand)
        if observation.why_illegal(play) is None
    ]


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


def _suit_choice(suit: Suit) -> dict[str, Any]:
    return {
        "code": str(suit),
        "symbol": SUIT_SYMBOLS[suit],
        "name": suit_name(suit),
        "red": suit in (Suit.DIAMONDS, Suit.HEARTS),
    }


def _taking(observation: Observation) -> dict[str, Any]:
    """Return the classic game's choices: take the turned suit or pass (round 1), name one of
    the other suits or pass (round 2), as the engine offers them."""
    legal = observation.legal_actions
    turned = observation.turned
    assert turned is not None
    return {
        "round": observation.auction_round,
        "take": _suit_choice(turned.suit) if Take() in legal else None,
        "names": [
            {**_suit_choice(action.trump), "action": f"name {action.trump}"}
            for action in legal
            if isinstance(action, Name)
        ],
        "can_pass": Pass() in legal,
    }


def _hand_region(viewer: Viewer, observation: Observation) -> dict[str, Any]:
    """Return the viewer's own cards, each with its action and why it may not be played.

    On the viewer's turn to play, the legal cards are raised and the others marked and kept out
    of the keyboard's way; a tap on one still says why it may not be played.
    """
    if viewer.seat is None:
        return {}
    choosing = observation.phase == Phase.PLAY and observation.to_act == viewer.seat
    cards = sorted(observation.hand, key=_hand_order(observation))
    hand = []
    for card in cards:
        play = Play(card)
        reason = observation.why_illegal(play) if observation.phase == Phase.PLAY else None
        hand.append(
            {
                "card": card_face(card),
                "action": str(play),
                "legal": choosing and reason is None,
                "marked": choosing and reason is not None,
                "why": message_for(reason) if reason is not None else "",
            }
        )
    return {"hand": hand, "choosing": choosing}


def _hand_order(observation: Observation) -> Callable[[Card], tuple[int, int, int]]:
    """Sort a hand by suit (trumps first once known), then by rank."""
    trump = observation.contract.trump if observation.contract is not None else None

    def key(card: Card) -> tuple[int, int, int]:
        return (0 if card.suit == trump else 1, int(card.suit), -int(card.rank))

    return key


def announcement_label(announcement: Announcement) -> str:
    """Say what an announcement makes public: kind, length and value only."""
    kind, length, value = announcement
    if kind == "four":
        return _("four of a kind, %(value)s") % {"value": value}
    return _("a run of %(length)s, %(value)s") % {"length": length, "value": value}


def _extras(snapshot: TableSnapshot, observation: Observation) -> dict[str, Any]:
    return {
        "declarations": _declarations(snapshot, observation),
        "last_trick": _last_trick(snapshot, observation),
    }


def _declarations(snapshot: TableSnapshot, observation: Observation) -> list[dict[str, Any]]:
    rows = []
    for seat in range(observation.players):
        announced = observation.announcements[seat]
        shown = observation.shown[seat]
        if not announced and not shown:
            continue
        rows.append(
            {
                "name": seat_name(snapshot.seats[seat]),
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
        rows.append({"name": seat_name(snapshot.seats[seat]), "announced": [label], "shown": []})
    return rows


def _last_trick(snapshot: TableSnapshot, observation: Observation) -> dict[str, Any] | None:
    if not observation.tricks:
        return None
    done = observation.tricks[-1]
    players = observation.players
    return {
        "cards": [
            {"name": seat_name(snapshot.seats[done.seat_of(i, players)]), "card": card_face(card)}
            for i, card in enumerate(done.cards)
        ],
        "winner": seat_name(snapshot.seats[done.winner]),
        "points": done.points,
    }


def _score(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, Any]:
    return {
        "sheet": {
            "heads": _sides(snapshot, viewer, snapshot.totals),
            "lines": [
                {
                    "number": line.number,
                    "cells": [side["value"] for side in _sides(snapshot, viewer, line.score)],
                    "cancelled": line.cancelled,
                }
                for line in snapshot.sheet
            ],
            "target": snapshot.target,
        },
        "summary": _summary(snapshot, viewer),
        "finished": snapshot.match_finished,
        "result": _match_result(snapshot, viewer) if snapshot.match_finished else None,
        "guest_offer": _guest_offer() if viewer.is_guest and snapshot.match_finished else None,
    }


def _match_result(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, Any]:
    """Say who won the match and by how much, from the viewer's side."""
    winner = snapshot.winner if snapshot.winner is not None else 0
    mine = _my_side(snapshot, viewer)
    if snapshot.sides > 2:
        return _ranking_result(snapshot, viewer, winner)
    won, lost = snapshot.totals[winner], snapshot.totals[1 - winner]
    score = {"won": won, "lost": lost}
    if snapshot.players != 4 and mine != winner:
        headline = _("%(name)s wins %(won)s–%(lost)s") % {  # noqa: RUF001
            **score,
            "name": side_label(snapshot, viewer, winner),
        }
    elif viewer.seat is None:
        headline = _("%(side)s win %(won)s–%(lost)s") % {  # noqa: RUF001
            **score,
            "side": side_label(snapshot, viewer, winner),
        }
    elif mine == winner:
        headline = _("You won %(won)s–%(lost)s") % score  # noqa: RUF001
    else:
        headline = _("You lost %(lost)s–%(won)s") % score  # noqa: RUF001
    return {"headline": headline, "we_won": mine == winner}


def _ranking_result(snapshot: TableSnapshot, viewer: Viewer, winner: int) -> dict[str, Any]:
    """Say who won a match of three players, with every player's total."""
    mine = _my_side(snapshot, viewer)
    totals = {"won": snapshot.totals[winner]}
    if mine == winner:
        headline = _("You won with %(won)s") % totals
    else:
        headline = _("%(name)s wins with %(won)s") % {
            **totals,
            "name": side_label(snapshot, viewer, winner),
        }
    return {"headline": headline, "we_won": mine == winner}


def _guest_offer() -> dict[str, Any]:
    """Offer a guest whose match is over to keep their games: sign up (when anyone may) or join
    the waitlist, which keeps no games."""
    return {
        "signup_open": settings.SIGNUP_MODE == "open",
        "keep_url": reverse("accounts:guest_keep"),
        "waitlist_url": waitlist_url(),
    }


def _summary(snapshot: TableSnapshot, viewer: Viewer) -> dict[str, Any] | None:
    """Explain the last ended round's score, while the next one is young or the match is over.

    Every figure comes from the engine's result, credited to the team that scores it, so each
    column adds up to the round's points and the words say what the numbers do.
    """
    ended = snapshot.summary
    if ended is None:
        return None
    if ended.cancelled or ended.result is None or ended.contract is None:
        return {"number": ended.number, "cancelled": True}
    if "total" in ended.result:
        return _classic_summary(snapshot, viewer, ended.number, ended.result, ended.contract)
    contract = ended.contract
    result = RoundResult(
        card_points=tuple(ended.result["card_points"]),  # type: ignore[arg-type]
        declarations=tuple(ended.result["declarations"]),  # type: ignore[arg-type]
        pilotta=tuple(ended.result["pilotta"]),  # type: ignore[arg-type]
        made=ended.result["made"],
        capot=ended.result["capot"],
        raw=tuple(ended.result["raw"]),  # type: ignore[arg-type]
        score=tuple(ended.result["score"]),  # type: ignore[arg-type]
    )
    bidders = contract["team"]
    rows = credited_rows(
        result, bidders=bidders, bid=contract["value"], multiplier=contract["multiplier"]
    )
    sides = _sides(snapshot, viewer, (0, 1))
    order = [side["team"] for side in sides]
    figures = {
        "value": contract["value"],
        "suit": suit_name(Suit.parse(contract["trump"])),
        "side": side_label(snapshot, viewer, bidders),
        "multiplier": contract["multiplier"],
    }
    return {
        "number": ended.number,
        "cancelled": False,
        "heads": [side["label"] for side in sides],
        "bid_line": _("%(name)s bid %(value)s %(suit)s.")
        % {**figures, "name": seat_name(snapshot.seats[contract["seat"]])},
        "closed_line": _closed_line(contract["multiplier"]) % figures,
        "made": result.made,
        "capot_line": _("Capot, all eight tricks, which count 250: %(side)s.")
        % {"side": side_label(snapshot, viewer, result.capot)}
        if result.capot is not None
        else "",
        "rows": [
            {"label": label, "cells": [values[team] for team in order]} for label, values in rows
        ],
        "score": [result.score[team] for team in order],
        "tally": [{"label": side["label"], "score": result.score[side["team"]]} for side in sides],
        "rounded": result.raw[0] % 10 != 0 or result.raw[1] % 10 != 0,
    }


def _classic_summary(
    snapshot: TableSnapshot,
    viewer: Viewer,
    number: int,
    result: dict[str, Any],
    contract: dict[str, Any],
) -> dict[str, Any]:
    """Explain a classic round: each side's cards (with 100 for a capot), declarations and
    pilotta, its total, and what it scores: its total, or only its pilotta for a taker's side
    that failed. Raw points, no Rule of 6."""
    sides = _sides(snapshot, viewer, result["score"])
    order = [side["team"] for side in sides]
    capot = result["capot"]
    bonus = [100 if side == capot else 0 for side in range(len(result["total"]))]
    rows = [
        (_("Cards and last trick"), result["card_points"]),
        *([(_("Capot"), bonus)] if capot is not None else []),
        (_("Declarations"), result["declarations"]),
        (_("Pilotta"), result["pilotta"]),
        (_("Total"), result["total"]),
    ]
    trump = Suit.parse(contract["trump"])
    figures = {"name": seat_name(snapshot.seats[contract["seat"]]), "suit": SUIT_SYMBOLS[trump]}
    return {
        "number": number,
        "cancelled": False,
        "classic": True,
        "heads": [side["label"] for side in sides],
        "bid_line": _("%(name)s took %(suit)s.") % figures,
        "closed_line": "",
        "made": result["made"],
        "capot_line": _("Capot, all eight tricks, which count 100 more: %(side)s.")
        % {"side": side_label(snapshot, viewer, capot)}
        if capot is not None
        else "",
        "rows": [
            {"label": label, "cells": [values[side] for side in order]} for label, values in rows
        ],
        "score": [result["score"][side] for side in order],
        "tally": [{"label": side["label"], "score": side["value"]} for side in sides],
        "rounded": False,
    }


def _closed_line(multiplier: int) -> str:
    if multiplier == 2:
        return _("Closed: the bid counts double, and the winner takes every point of the round.")
    if multiplier == 4:
        return _(
            "Closed again: the bid counts four times, and the winner takes every point of the "
            "round."
        )
    return ""


def credited_rows(
    result: RoundResult, *, bidders: int, bid: int, multiplier: int
) -> list[tuple[str, tuple[int, ...]]]:
    """Split a round's points into the lines of its summary, each credited to the team that
    scores it: the bid (times the multiplier), the cards with the last trick (250 for a capot),
    the declarations and the pilotta. Each team's lines add up to its raw points.

    Made and not closed, each team keeps its own; failed, the defenders take the bid and
    everything; closed or closed again, the winner takes the multiplied bid and everything.
    """
    tricks = result.card_points
    if result.capot is not None:
        tricks = (250, 0) if result.capot == 0 else (0, 250)
    parts = {"cards": tricks, "declarations": result.declarations, "pilotta": result.pilotta}
    winner = bidders if result.made else 1 - bidders
    labels = {
        "cards": _("Cards and last trick"),
        "declarations": _("Declarations"),
        "pilotta": _("Pilotta"),
    }
    contract = _pair_for(winner, bid * multiplier)
    if multiplier == 1 and result.made:
        credited = dict(parts)
    else:
        credited = {name: _pair_for(winner, sum(pair)) for name, pair in parts.items()}
    return [(_("Contract"), contract)] + [
        (labels[name], credited[name]) for name in ("cards", "declarations", "pilotta")
    ]


def _pair_for(team: int, points: int) -> tuple[int, int]:
    return (points, 0) if team == 0 else (0, points)


def round_replay(
    state: RoundState, seats: Sequence[SeatView], *, viewer_seat: int | None = None
) -> dict[str, Any]:
    """Return a finished round step by step: the deal, the auction, each trick, the score.

    Everything comes from the engine's records of the round: the hands as dealt, the auction,
    the contract, the tricks with their winners and points, the declarations and the result.
    The viewer's seat (if they played) sits at the bottom of the felt, as at the live table.
    Unlike the live table's, this view holds every dealt hand: the round is over, and whoever
    may open its replay may already download its hand record.
    """
    contract = state.contract
    result = state.result
    assert contract is not None, "only a finished round is replayed"
    assert result is not None, "only a finished round is replayed"
    ruleset = state.ruleset
    players = state.players
    names = [seat_name(chair) for chair in seats]
    bottom = viewer_seat if viewer_seat is not None else 0
    positions = POSITIONS_BY_PLAYERS[players]
    chairs = [
        {
            "seat": seat,
            "number": seat + 1,
            "team": ruleset.side_of(seat),
            "name": names[seat],
            "position": positions[(seat - bottom) % players],
            "dealer": seat == state.dealer,
        }
        for seat in range(players)
    ]
    order = _replay_order(contract.trump)
    tricks = _replay_tricks(state, chairs, order)
    turned = state.turned
    steps: list[dict[str, Any]] = [
        {
            "kind": "deal",
            "hands": _replay_hands(state.first_hands, chairs, order),
            "turned": card_face(turned) if turned is not None else None,
        },
        {"kind": "auction", "calls": _replay_last_calls(state, chairs)},
        *(
            [
                {
                    "kind": "completion",
                    "hands": _replay_hands(state.hands, chairs, order),
                    "turned": card_face(turned),
                }
            ]
            if turned is not None
            else []
        ),
        *({"kind": "trick", "trick": trick} for trick in tricks),
        {"kind": "score"},
    ]
    for number, step in enumerate(steps, start=1):
        step["number"] = number
    sides = _replay_sides(ruleset.players, names)
    figures = {"name": names[contract.seat], "suit": SUIT_SYMBOLS[contract.trump]}
    return {
        "chairs": chairs,
        "classic": ruleset.is_classic,
        "sides": sides,
        "teams": [[names[seat] for seat in (team, team + 2)] for team in (0, 1)]
        if players == 4
        else [],
        "contract": {
            "value": contract.value,
            "trump": str(contract.trump),
            "trump_name": suit_name(contract.trump),
            "team": contract.team,
            "holder": names[contract.seat],
            "multiplier": contract.multiplier,
            "classic": ruleset.is_classic,
            "taker_line": _("%(name)s took %(suit)s.") % figures,
            "completion": (
                _("%(name)s takes %(suit)s and the turned card") % figures
                if turned is not None and contract.trump == turned.suit
                else _("%(name)s names %(suit)s and takes the turned card") % figures
            )
            if turned is not None
            else "",
        },
        "auction": [
            {"name": names[seat], "team": ruleset.side_of(seat), **_replay_call(action)}
            for seat, action in state.auction
        ],
        "declarations": _replay_declarations(state, names),
        "pilotta": _replay_pilotta(state, names),
        "result": {
            "card_points": result.card_points,
            "declarations": result.declarations,
            "pilotta": result.pilotta,
            "raw": result.raw,
            "score": result.score,
            "total": result.total,
            "made": result.made,
            "capot": result.capot,
            "rounded": [points % 10 != 0 for points in result.raw]
            if not ruleset.is_classic
            else [False] * len(result.raw),
        },
        "rows": _replay_rows(result, classic=ruleset.is_classic),
        "steps": steps,
    }


def _replay_sides(players: int, names: list[str]) -> list[dict[str, Any]]:
    """Return the sides that score: the two teams by their seats with four players, else each
    player by name."""
    if players == 4:
        # The template names the teams by their seats.
        return [
            {"team": 0, "label": "", "names": [names[0], names[2]]},
            {"team": 1, "label": "", "names": [names[1], names[3]]},
        ]
    return [{"team": seat, "label": names[seat], "names": []} for seat in range(players)]


def _replay_rows(result: RoundResult, *, classic: bool) -> list[dict[str, Any]]:
    """Return the lines of the replay's score table, by side."""
    rows: list[tuple[str, Sequence[int], bool]] = [
        (_("Cards and last trick"), result.card_points, False),
    ]
    if classic and result.capot is not None:
        bonus = [100 if side == result.capot else 0 for side in range(len(result.score))]
        rows.append((_("Capot"), bonus, False))
    rows += [
        (_("Declarations"), result.declarations, False),
        (_("Pilotta"), result.pilotta, False),
    ]
    if classic:
        assert result.total is not None
        rows.append((_("Total"), result.total, False))
    else:
        rows.append((_("Points"), result.raw, False))
    rows.append((_("On the score sheet"), result.score, True))
    return [{"label": label, "cells": list(cells), "sheet": sheet} for label, cells, sheet in rows]


def _replay_order(trump: Suit) -> Callable[[Card], tuple[int, int, int]]:
    """Sort a hand by suit, trumps first, then by rank, highest first."""

    def key(card: Card) -> tuple[int, int, int]:
        return (0 if card.suit == trump else 1, int(card.suit), -int(card.rank))

    return key


def _replay_hands(
    hands: Sequence[Sequence[Card]],
    chairs: list[dict[str, Any]],
    order: Callable[[Card], tuple[int, int, int]],
    *,
    played: Sequence[Card | None] = (),
) -> list[dict[str, Any]]:
    """Return each seat's cards in order, marking the one it plays in this trick (if any)."""
    return [
        {
            **chair,
            "cards": [
                {"card": card_face(card), "played": seat < len(played) and card == played[seat]}
                for card in sorted(hands[seat], key=order)
            ],
        }
        for seat, chair in enumerate(chairs)
    ]


def _replay_call(action: Action) -> dict[str, Any]:
    """Return an auction call: its words, and a bid's value and suit for its symbol."""
    if isinstance(action, Bid):
        return {
            "kind": "bid",
            "value": action.value,
            "trump": str(action.trump),
            "label": action_label(action),
        }
    return {"kind": str(action), "label": action_label(action)}


def _replay_last_calls(state: RoundState, chairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return each seat's last word in the auction, to show in front of it on the felt."""
    last: dict[int, Action] = dict(state.auction)
    return [
        {**chair, "call": _replay_call(last[chair["seat"]]) if chair["seat"] in last else None}
        for chair in chairs
    ]


def _replay_tricks(
    state: RoundState,
    chairs: list[dict[str, Any]],
    order: Callable[[Card], tuple[int, int, int]],
) -> list[dict[str, Any]]:
    """Return the tricks: each card at its seat, the winner, the points, the hands before it."""
    held = [list(hand) for hand in state.hands]
    ruleset = state.ruleset
    players = state.players
    so_far = [0] * ruleset.sides
    events = _replay_events(state, [chair["name"] for chair in chairs])
    tricks = []
    for number, trick in enumerate(state.tricks, start=1):
        played: list[Card | None] = [None] * players
        for position, card in enumerate(trick.cards):
            played[trick.seat_of(position, players)] = card
        hands = _replay_hands(held, chairs, order, played=played)
        so_far[ruleset.side_of(trick.winner)] += trick.points
        tricks.append(
            {
                "number": number,
                "cards": [
                    {
                        **chairs[trick.seat_of(position, players)],
                        "card": card_face(card),
                        "order": position + 1,
                        "winner": trick.seat_of(position, players) == trick.winner,
                    }
                    for position, card in enumerate(trick.cards)
                ],
                "winner": chairs[trick.winner],
                "points": trick.points,
                "so_far": tuple(so_far),
                "sides": [
                    {"team": side["team"], "label": side["label"], "points": so_far[side["team"]]}
                    for side in _replay_sides(players, [chair["name"] for chair in chairs])
                ],
                "hands": hands,
                "events": events.get(number, []),
            }
        )
        for position, card in enumerate(trick.cards):
            held[trick.seat_of(position, players)].remove(card)
    return tricks


def _replay_events(state: RoundState, names: list[str]) -> dict[int, list[dict[str, Any]]]:
    """Return, by trick number, the announcements, shows and pilotta calls made in it."""
    events: dict[int, list[dict[str, Any]]] = {}
    plays = calls = 0
    for seat, action in state.history:
        event: dict[str, Any] = {"name": names[seat]}
        if isinstance(action, Announce):
            event["labels"] = [announcement_label(a) for a in state.announcements(seat)]
            event["kind"] = "announce"
        elif isinstance(action, Show):
            event["shown"] = state.shown(seat)
            event["kind"] = "show"
        elif isinstance(action, Play) and action.pilotta:
            calls += 1
            event["kind"] = "pilotta" if calls == 1 else "repilotta"
        if "kind" in event:
            events.setdefault(plays // state.players + 1, []).append(event)
        plays += isinstance(action, Play)
    return events


def _replay_declarations(state: RoundState, names: list[str]) -> list[dict[str, Any]]:
    """Return who announced what and which declarations they showed, seat by seat."""
    rows = []
    for seat in range(state.players):
        announced = state.announcements(seat)
        if not announced:
            continue
        shown = state.shown(seat)
        rows.append(
            {
                "name": names[seat],
                "team": state.ruleset.side_of(seat),
                "announced": [announcement_label(a) for a in announced],
                "shown": [
                    {"declaration": d, "cards": [card_face(c) for c in d.cards]} for d in shown
                ],
                "not_shown": not shown,
            }
        )
    return rows


def _replay_pilotta(state: RoundState, names: list[str]) -> dict[str, Any] | None:
    """Return who called pilotta, and whether the re-pilotta followed."""
    calls = state.pilotta_calls
    if not calls:
        return None
    seat = calls[0][0]
    return {"name": names[seat], "team": state.ruleset.side_of(seat), "both": len(calls) == 2}
