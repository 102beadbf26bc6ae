"""The table on the landing page: a real round, replayed by the rules engine to mid-play.

Eleni (opposite you) bid 100 in hearts, Costas closed it, and everyone has announced and shown
their runs. In the fourth trick diamonds were led; you have none, so you must trump, and your
only trumps are the King and Queen of hearts: the pilotta.
"""

from dataclasses import dataclass
from functools import cache

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import Declaration, Observation, Play, RoundState, parse_action, team_of

VIEWER = 0
DEALER = 3
HANDS = (
    "KH QH JH 9H AS KS QS 7D",
    "7H 8H AD TD KD 8S 9S 7C",
    "AH TH JS TS AC KC QC 8D",
    "JC TC 9C 8C QD JD 9D 7S",
)
ACTIONS = (
    (0, "bid 80 H"),
    (1, "bid 90 D"),
    (2, "bid 100 H"),
    (3, "close"),
    (0, "pass"),
    (1, "pass"),
    (2, "pass"),
    (0, "announce"),
    (0, "play JH"),
    (1, "play 7H"),
    (2, "announce"),
    (2, "play TH"),
    (3, "announce"),
    (3, "play 7S"),
    (0, "show"),
    (0, "play 9H"),
    (1, "play 8H"),
    (2, "show"),
    (2, "play AH"),
    (3, "show"),
    (3, "play 8C"),
    (0, "play 7D"),
    (1, "play AD"),
    (2, "play 8D"),
    (3, "play 9D"),
    (1, "play TD"),
    (2, "play JS"),
    (3, "play JD"),
)
# The match so far, on the score sheet (your team first); only the round itself is replayed.
SHEET = (124, 97)
NAMES = (_("You"), _("Andreas"), _("Eleni"), _("Costas"))
# Where each seat sits as seen from the viewer: play moves to the right, counter-clockwise.
POSITIONS = ("bottom", "right", "top", "left")


@dataclass(frozen=True)
class SeatView:
    seat: int
    position: str
    name: str | Promise
    cards_left: int
    played: str | None
    is_dealer: bool
    to_act: bool
    partner: bool
    shown: tuple[Declaration, ...]


@dataclass(frozen=True)
class TableView:
    seats: tuple[SeatView, ...]
    hand: tuple[tuple[str, bool], ...]
    contract_value: int
    trump: str
    bidder: str | Promise
    multiplier: int
    trick_number: int
    round_points: tuple[int, int]
    sheet: tuple[int, int]
    target: int


@cache
def demo_state() -> RoundState:
    """Replay the demo round."""
    state = RoundState.new(dealer=DEALER, hands=HANDS)
    for seat, text in ACTIONS:
        state = state.apply(seat, parse_action(text))
    return state


def demo_table() -> TableView:
    """Return what the viewer sees of the demo round, ready for the template."""
    seen = demo_state().observation(VIEWER)
    contract = seen.contract
    assert contract is not None
    played = _played_by_seat(seen)
    playable = {str(action.card) for action in seen.legal_actions if isinstance(action, Play)}
    seats = tuple(
        SeatView(
            seat=seat,
            position=POSITIONS[(seat - VIEWER) % 4],
            name=NAMES[seat],
            cards_left=seen.card_counts[seat],
            played=played.get(seat),
            is_dealer=seat == seen.dealer,
            to_act=seat == seen.to_act,
            partner=seat != VIEWER and team_of(seat) == team_of(VIEWER),
            shown=seen.shown[seat],
        )
        for seat in range(4)
    )
    return TableView(
        seats=seats,
        hand=tuple((str(card), str(card) in playable) for card in seen.hand),
        contract_value=contract.value,
        trump=str(contract.trump),
        bidder=NAMES[contract.seat],
        multiplier=contract.multiplier,
        trick_number=len(seen.tricks) + 1,
        round_points=_round_points(seen),
        sheet=SHEET,
        target=seen.ruleset.target,
    )


def _played_by_seat(seen: Observation) -> dict[int, str]:
    trick = seen.current_trick
    assert trick is not None
    return {(trick.leader + i) % 4: str(card) for i, card in enumerate(trick.cards)}


def _round_points(seen: Observation) -> tuple[int, int]:
    """Return the card points taken so far, the viewer's team first."""
    points = [0, 0]
    for trick in seen.tricks:
        points[team_of(trick.winner)] += trick.points
    mine = team_of(VIEWER)
    return points[mine], points[1 - mine]
