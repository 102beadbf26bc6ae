"""A scripted round for the replay's tests: every declaration and pilotta, and a close."""

from django.urls import reverse

from accounts.models import User
from games.engine import Action, Announce, Bid, Close, Pass, Play, RoundState, Show, Suit
from games.models import Match, Room, Round
from games.selectors import round_state
from games.services import rooms as room_services
from games.services.table import round_apply_action
from tests.conftest import forget_tables
from tests.factories import seated_room

# Seat 3 deals, so seat 0 speaks first and leads. Seat 0 holds the King and Queen of hearts
# (pilotta) in a run of six; seats 1 and 2 hold runs of six, seat 3 all eight spades.
DEAL = [
    "JH 9H AH TH KH QH 7C 8C",
    "9C TC JC QC KC AC 7D 8D",
    "9D TD JD QD KD AD 7H 8H",
    "7S 8S 9S TS JS QS KS AS",
]
# Seat 0 bids 80 in hearts and seat 1 closes it: the contract counts double.
AUCTION: list[tuple[int, Action]] = [
    (0, Bid(80, Suit.HEARTS)),
    (1, Close()),
    (2, Pass()),
    (3, Pass()),
    (0, Pass()),
]
NAMES = ["Eleni", "Costas", "Maria", "Andreas"]


def play_scripted_round(players: list[User]) -> tuple[Room, Round]:
    """Seat ``players``, deal DEAL and play it out: every declaration announced and shown,
    pilotta called, the first legal card otherwise."""
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    Round.objects.filter(pk=round_.pk).update(hands=DEAL, dealer=3)
    Match.objects.filter(pk=round_.match_id).update(first_dealer=3)
    forget_tables()  # the round as dealt at the start is remembered there
    round_.refresh_from_db()
    state = round_state(round_)
    for seat, action in AUCTION:
        state = _act(round_, state, players, seat, action)
    while state.to_act is not None:
        state = _act(round_, state, players, state.to_act, _next_move(state))
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    return room, round_


def _next_move(state: RoundState) -> Action:
    """Announce and show whenever offered, call pilotta whenever allowed, else the first card."""
    seat = state.to_act
    assert seat is not None
    legal = state.legal_actions()
    for word in (Announce(), Show()):
        if word in legal:
            return word
    card = next(action for action in legal if isinstance(action, Play)).card
    calling = Play(card, pilotta=True)
    return calling if state.why_illegal(seat, calling) is None else Play(card)


def _act(
    round_: Round, state: RoundState, players: list[User], seat: int, action: Action
) -> RoundState:
    round_apply_action(round_id=round_.pk, seat=seat, action=action, actor=players[seat])
    return state.apply(seat, action)


def replay_url(room: Room, round_: Round) -> str:
    return reverse("games:round_replay", args=[room.pk, round_.number])
