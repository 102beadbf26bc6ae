"""The classic game through the room and table services: rooms of 2, 3 or 4, the deal, taking
and naming through the service the consumer uses, and the refusals (nothing written)."""

import pytest
from django.core.exceptions import ValidationError

from games.engine import SHORT_DECK, Bid, Name, Pass, Reason, Suit, Take, parse_cards
from games.errors import GameError, message_for
from games.models import Match, Room, RoomSeat, Round, RoundAction
from games.selectors import round_state
from games.services import rooms as room_services
from games.services import table
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def classic_room(players: list, count: int, **settings) -> Room:
    """Open a classic room of ``count`` owned by players[0], with the players seated."""
    room = room_services.room_create(owner=players[0], variant="classic", players=count, **settings)
    for seat, player in enumerate(players[1:count], start=1):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    return room


def started(players: list, count: int) -> Round:
    room = classic_room(players, count)
    room_services.room_start(room_id=room.pk, user=players[0])
    return Round.objects.get(match__room=room, status=Round.Status.PLAYING)


def log_size() -> int:
    return RoundAction.objects.count()


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_classic_room_has_one_seat_per_player_and_plays_to_1000(owner, count):
    room = room_services.room_create(owner=owner, variant="classic", players=count)

    assert list(room.seats.order_by("seat").values_list("seat", flat=True)) == list(range(count))
    assert (room.variant, room.players, room.target) == ("classic", count, 1000)


@pytest.mark.parametrize(
    "settings",
    [
        {"variant": "classic", "players": 5},
        {"variant": "classic", "players": 1},
        {"variant": "classic", "players": 3, "target": 301},
        {"variant": "palaristi", "players": 3},
        {"variant": "palaristi", "target": 1000},
        {"variant": "bridge"},
    ],
)
def test_a_room_refuses_a_game_its_players_and_target_do_not_fit(owner, settings):
    with pytest.raises(ValidationError):
        room_services.room_create(owner=owner, **settings)

    assert not Room.objects.exists()


def test_an_existing_room_stays_palaristi_with_four_seats(owner):
    room = room_services.room_create(owner=owner, target=351)

    assert (room.variant, room.players, room.target, room.seats.count()) == (
        "palaristi",
        4,
        351,
        4,
    )


@pytest.mark.parametrize("count", [2, 3])
def test_a_small_room_is_full_with_its_players_and_starts(players, queued, count):
    room = classic_room(players, count)
    newcomer = make_user()

    with pytest.raises(GameError) as full:
        room_services.room_take_seat(room_id=room.pk, user=newcomer, token=room.invite_token)
    with pytest.raises(GameError) as bot:
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=players[0], seat=count)
    room_services.room_start(room_id=room.pk, user=players[0])

    assert full.value.code == "room_full"
    assert bot.value.code == "malformed"
    assert RoomSeat.objects.filter(room=room).count() == count


def test_a_classic_room_waits_for_each_of_its_seats(owner, queued):
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=1)

    with pytest.raises(GameError) as empty:
        room_services.room_start(room_id=room.pk, user=owner)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=2)
    room_services.room_start(room_id=room.pk, user=owner)

    assert empty.value.code == "seats_empty"


@pytest.mark.parametrize(("count", "deck", "stock"), [(2, 24, 13), (3, 24, 8), (4, 32, 11)])
def test_start_deals_five_cards_each_a_turned_card_and_a_stock(players, queued, count, deck, stock):
    round_ = started(players, count)
    match = round_.match

    assert match.ruleset == {
        "target": 1000,
        "deck_handling": "shuffle",
        "variant": "classic",
        "partner_protection": count == 4,
        "players": count,
    }
    sides = 2 if count == 4 else count
    assert match.totals == [0] * sides
    hands = [parse_cards(hand) for hand in round_.hands]
    assert [len(hand) for hand in hands] == [5] * count
    cards = [card for hand in hands for card in hand]
    cards += [parse_cards(round_.turned)[0], *parse_cards(round_.stock)]
    assert len(cards) == len(set(cards)) == deck
    assert len(parse_cards(round_.stock)) == stock
    if count < 4:
        assert set(cards) == set(SHORT_DECK)
    state = round_state(round_)
    assert state.auction_round == 1
    assert state.to_act == (round_.dealer + 1) % count


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_take_completes_the_deal_and_the_log_rebuilds_it(players, queued, count):
    round_ = started(players, count)
    seat = (round_.dealer + 1) % count
    turned = parse_cards(round_.turned)[0]

    applied = table.round_apply_action(
        round_id=round_.pk, seat=seat, action=Take(), actor=players[seat]
    )

    logged = RoundAction.objects.get(round=round_)
    assert applied.seq == 1
    assert logged.action == {"seat": seat, "action": "take"}
    state = round_state(round_)
    assert state.contract is not None
    assert (state.contract.seat, state.contract.trump) == (seat, turned.suit)
    assert [len(hand) for hand in state.hands] == [8] * count
    assert turned in state.hands[seat]
    assert state.phase == "play"


def test_all_pass_then_a_name_makes_the_named_suit_trump(players, queued):
    round_ = started(players, 3)
    first = (round_.dealer + 1) % 3
    turned = parse_cards(round_.turned)[0]
    for offset in range(3):
        seat = (first + offset) % 3
        table.round_apply_action(round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat])
    assert round_state(round_).auction_round == 2
    other = next(suit for suit in Suit if suit != turned.suit)

    table.round_apply_action(
        round_id=round_.pk, seat=first, action=Name(other), actor=players[first]
    )

    state = round_state(round_)
    assert state.contract is not None
    assert (state.contract.seat, state.contract.trump) == (first, other)
    assert RoundAction.objects.filter(round=round_).last().action == {
        "seat": first,
        "action": "name",
        "trump": str(other),
    }


def test_two_rounds_of_passes_cancel_the_deal_and_the_next_dealer_deals(players, queued):
    round_ = started(players, 2)
    first = (round_.dealer + 1) % 2
    for step in range(4):
        seat = (first + step) % 2
        table.round_apply_action(round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat])

    round_.refresh_from_db()
    following = Round.objects.get(match=round_.match, number=2)
    assert round_.status == Round.Status.CANCELLED
    assert following.dealer == (round_.dealer + 1) % 2
    assert len(parse_cards(following.turned)) == 1


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("bid", Reason.NOT_IN_THIS_GAME),
        ("name_in_round_1", Reason.CANNOT_NAME),
        ("take_in_round_2", Reason.CANNOT_TAKE),
        ("name_turned_suit", Reason.NAME_TURNED_SUIT),
        ("out_of_turn", "not_your_turn"),
        ("wrong_user", "not_seated"),
    ],
)
def test_refused_taking_writes_nothing_and_is_translated(players, queued, case, code):
    round_ = started(players, 4)
    first = (round_.dealer + 1) % 4
    turned = parse_cards(round_.turned)[0]
    other = next(suit for suit in Suit if suit != turned.suit)
    if case in ("take_in_round_2", "name_turned_suit"):
        for offset in range(4):
            seat = (first + offset) % 4
            table.round_apply_action(
                round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat]
            )
    seat, actor = first, players[first]
    action = {
        "bid": Bid(80, Suit.HEARTS),
        "name_in_round_1": Name(other),
        "take_in_round_2": Take(),
        "name_turned_suit": Name(turned.suit),
        "out_of_turn": Take(),
        "wrong_user": Take(),
    }[case]
    if case == "out_of_turn":
        seat, actor = (first + 1) % 4, players[(first + 1) % 4]
    if case == "wrong_user":
        actor = players[(first + 1) % 4]
    before = log_size()

    with pytest.raises(GameError) as refused:
        table.round_apply_action(round_id=round_.pk, seat=seat, action=action, actor=actor)

    assert refused.value.code == code
    assert log_size() == before
    assert message_for(code) != message_for("malformed")


def test_a_classic_match_is_played_to_the_end_by_computers(owner, queued):
    """Random legal actions, through the table's service, play a classic match of three to 1000."""
    room = room_services.room_create(owner=owner, variant="classic", players=3)
    for seat in (1, 2):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
    room_services.room_start(room_id=room.pk, user=owner)
    import random

    from games.bots import choose_action

    rng = random.Random(7)
    for _ in range(5000):
        round_ = Round.objects.filter(match__room=room, status=Round.Status.PLAYING).first()
        if round_ is None:
            break
        state = round_state(round_)
        seat = state.to_act
        action = choose_action(state.observation(seat), level="random", rng=rng)
        table.round_apply_action(
            round_id=round_.pk, seat=seat, action=action, actor=owner if seat == 0 else None
        )
    match = Match.objects.get(room=room)
    room.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert room.status == Room.Status.FINISHED
    assert len(match.totals) == 3
    assert max(match.totals) >= 1000
    assert match.totals[match.winner] == max(match.totals)
