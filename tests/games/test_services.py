"""Room and table services: the happy paths, and every refusal leaves the database as it was."""

import pytest

from games.engine import Bid, Pass, Play, Reason, Suit, parse_action
from games.errors import GameError, message_for
from games.models import Match, Room, RoomSeat, Round, RoundAction
from games.selectors import round_state, round_view
from games.services import rooms as room_services
from games.services import table
from tests.factories import bot_room, make_user, seated_room

pytestmark = pytest.mark.django_db


def snapshot(room: Room) -> list[object]:
    seats = list(RoomSeat.objects.filter(room=room).values_list("seat", "user_id", "is_bot"))
    return [seats, Match.objects.filter(room=room).count(), RoundAction.objects.count()]


def playing_round(room: Room) -> Round:
    return Round.objects.get(match__room=room, status=Round.Status.PLAYING)


# Rooms and seats.


def test_a_new_room_seats_its_owner_and_has_four_seats(owner):
    room = room_services.room_create(owner=owner, target=351, bot_level="easy", turn_seconds=30)

    seats = list(room.seats.order_by("seat").values_list("seat", "user_id", "is_bot"))
    assert seats == [(0, owner.pk, False), (1, None, False), (2, None, False), (3, None, False)]
    assert (room.target, room.bot_level, room.turn_seconds) == (351, "easy", 30)
    assert room.status == Room.Status.OPEN
    assert len(room.invite_token) >= 30


def test_a_room_refuses_an_unknown_target(owner):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        room_services.room_create(owner=owner, target=300)

    assert not Room.objects.exists()


def test_a_guest_with_the_token_takes_the_first_free_seat(owner):
    room = room_services.room_create(owner=owner)
    guest = make_user()

    chair = room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)

    assert (chair.seat, chair.user_id) == (1, guest.pk)


def test_a_stranger_without_the_token_cannot_sit(owner):
    room = room_services.room_create(owner=owner)
    before = snapshot(room)

    with pytest.raises(GameError) as caught:
        room_services.room_take_seat(room_id=room.pk, user=make_user(), seat=2)
    with pytest.raises(GameError) as forged:
        room_services.room_take_seat(room_id=room.pk, user=make_user(), seat=2, token="guess")

    assert caught.value.code == "not_member"
    assert forged.value.code == "bad_invite"
    assert snapshot(room) == before


def test_a_renewed_token_refuses_the_old_link(owner):
    room = room_services.room_create(owner=owner)
    old = room.invite_token

    new = room_services.room_renew_invite(room_id=room.pk, user=owner)

    assert new != old
    with pytest.raises(GameError):
        room_services.room_take_seat(room_id=room.pk, user=make_user(), token=old)
    room_services.room_take_seat(room_id=room.pk, user=make_user(), token=new)


def test_only_the_owner_renews_the_token(owner, players):
    room = seated_room([owner, *players[:3]])

    with pytest.raises(GameError) as caught:
        room_services.room_renew_invite(room_id=room.pk, user=players[0])

    assert caught.value.code == "not_owner"


def test_a_taken_seat_is_refused(owner):
    room = room_services.room_create(owner=owner)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, seat=2, token=room.invite_token)
    before = snapshot(room)

    with pytest.raises(GameError) as caught:
        room_services.room_take_seat(room_id=room.pk, user=owner, seat=2)

    assert caught.value.code == "seat_taken"
    assert snapshot(room) == before


def test_taking_a_free_seat_moves_a_seated_player(owner):
    room = room_services.room_create(owner=owner)

    room_services.room_take_seat(room_id=room.pk, user=owner, seat=3)

    assert list(room.seats.filter(user=owner).values_list("seat", flat=True)) == [3]
    assert room.seats.get(seat=0).user is None


def test_a_full_room_refuses_a_guest(owner, players):
    room = seated_room([owner, *players[:3]])
    before = snapshot(room)

    with pytest.raises(GameError) as caught:
        room_services.room_take_seat(room_id=room.pk, user=players[3], token=room.invite_token)

    assert caught.value.code == "room_full"
    assert snapshot(room) == before


def test_leaving_frees_the_seat(owner):
    room = room_services.room_create(owner=owner)

    room_services.room_leave_seat(room_id=room.pk, user=owner)

    assert room.seats.get(seat=0).user is None
    with pytest.raises(GameError) as caught:
        room_services.room_leave_seat(room_id=room.pk, user=owner)
    assert caught.value.code == "not_seated"


def test_the_owner_fills_and_empties_seats_with_bots(owner):
    room = room_services.room_create(owner=owner)

    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=2)
    assert room.seats.get(seat=2).is_bot
    with pytest.raises(GameError) as taken:
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=2)
    room_services.room_remove_bot(room_id=room.pk, user=owner, seat=2)

    assert taken.value.code == "seat_taken"
    assert room.seats.get(seat=2).is_empty
    with pytest.raises(GameError) as no_bot:
        room_services.room_remove_bot(room_id=room.pk, user=owner, seat=2)
    assert no_bot.value.code == "seat_not_bot"


def test_a_guest_cannot_add_or_remove_bots(owner):
    room = room_services.room_create(owner=owner)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=3)
    before = snapshot(room)

    with pytest.raises(GameError) as adding:
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=guest, seat=2)
    with pytest.raises(GameError) as removing:
        room_services.room_remove_bot(room_id=room.pk, user=guest, seat=3)

    assert adding.value.code == removing.value.code == "not_owner"
    assert snapshot(room) == before


def test_start_needs_the_owner_and_four_seats(owner, queued):
    room = room_services.room_create(owner=owner)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=1)
    guest = make_user()
    room_services.room_take_seat(room_id=room.pk, user=guest, token=room.invite_token)
    before = snapshot(room)

    with pytest.raises(GameError) as empty:
        room_services.room_start(room_id=room.pk, user=owner)
    room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=3)
    with pytest.raises(GameError) as not_owner:
        room_services.room_start(room_id=room.pk, user=guest)

    assert empty.value.code == "seats_empty"
    assert not_owner.value.code == "not_owner"
    assert snapshot(room)[1:] == before[1:]


def test_start_deals_a_secure_first_round(owner, queued):
    room = bot_room(owner, target=251)

    match = room_services.room_start(room_id=room.pk, user=owner)

    room.refresh_from_db()
    round_ = match.rounds.get()
    assert room.status == Room.Status.PLAYING
    assert match.ruleset["target"] == 251
    assert round_.number == 1
    assert round_.dealer == match.first_dealer
    assert 3 <= round_.cut <= 29
    hands = [hand.split() for hand in round_.hands]
    assert [len(hand) for hand in hands] == [8, 8, 8, 8]
    assert len({card for hand in hands for card in hand}) == 32
    with pytest.raises(GameError) as again:
        room_services.room_start(room_id=room.pk, user=owner)
    assert again.value.code == "room_not_open"


def test_seats_cannot_change_after_the_start(owner, queued):
    room = bot_room(owner)
    room_services.room_start(room_id=room.pk, user=owner)

    with pytest.raises(GameError) as caught:
        room_services.room_remove_bot(room_id=room.pk, user=owner, seat=1)
    with pytest.raises(GameError) as leaving:
        room_services.room_leave_seat(room_id=room.pk, user=owner)

    assert caught.value.code == leaving.value.code == "room_not_open"


# The action service.


def started(players, queued, **settings) -> Round:
    room = seated_room(players, **settings)
    room_services.room_start(room_id=room.pk, user=players[0])
    return playing_round(room)


def test_an_action_is_logged_in_the_record_format(players, queued):
    round_ = started(players, queued)
    seat = (round_.dealer + 1) % 4

    applied = table.round_apply_action(
        round_id=round_.pk, seat=seat, action=Bid(80, Suit.HEARTS), actor=players[seat]
    )

    logged = RoundAction.objects.get(round=round_)
    assert applied.seq == 1
    assert (logged.seq, logged.seat, logged.actor_id, logged.is_bot) == (
        0,
        seat,
        players[seat].pk,
        False,
    )
    assert logged.action == {"seat": seat, "action": "bid", "value": 80, "trump": "H"}
    assert round_state(round_).to_act == (seat + 1) % 4


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("out_of_turn", "not_your_turn"),
        ("wrong_user", "not_seated"),
        ("illegal", Reason.WRONG_PHASE),
        ("low_bid", Reason.BID_TOO_LOW),
        ("stale", "stale"),
    ],
)
def test_refused_actions_write_nothing(players, queued, case, code):
    round_ = started(players, queued)
    seat = (round_.dealer + 1) % 4
    table.round_apply_action(
        round_id=round_.pk, seat=seat, action=Bid(100, Suit.CLUBS), actor=players[seat]
    )
    to_act = (seat + 1) % 4
    kwargs = {"round_id": round_.pk, "seat": to_act, "action": Pass(), "actor": players[to_act]}
    if case == "out_of_turn":
        kwargs.update(seat=seat, actor=players[seat])
    elif case == "wrong_user":
        kwargs.update(actor=players[seat])
    elif case == "illegal":
        kwargs.update(action=Play(round_state(round_).hands[to_act][0]))
    elif case == "low_bid":
        kwargs.update(action=Bid(90, Suit.SPADES))
    elif case == "stale":
        kwargs.update(expected_seq=0)
    before = list(RoundAction.objects.values_list("pk", flat=True))

    with pytest.raises(GameError) as caught:
        table.round_apply_action(**kwargs)

    assert caught.value.code == code
    assert list(RoundAction.objects.values_list("pk", flat=True)) == before
    assert message_for(caught.value.code)


def test_an_illegal_card_is_refused_with_its_rule(players, queued):
    round_ = started(players, queued)
    state = round_state(round_)
    first = (round_.dealer + 1) % 4
    table.round_apply_action(
        round_id=round_.pk, seat=first, action=Bid(80, Suit.HEARTS), actor=players[first]
    )
    for offset in (1, 2, 3):
        seat = (first + offset) % 4
        table.round_apply_action(round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat])
    state = round_state(round_)
    leader = state.to_act
    card = next(a for a in state.legal_actions() if isinstance(a, Play)).card
    table.round_apply_action(
        round_id=round_.pk, seat=leader, action=Play(card), actor=players[leader]
    )
    state = round_state(round_)
    follower = state.to_act
    bad = next(
        (c for c in state.hand(follower) if state.why_illegal(follower, Play(c)) is not None),
        None,
    )
    if bad is None:
        pytest.skip("this deal let the follower play anything")
    count = RoundAction.objects.count()

    with pytest.raises(GameError) as caught:
        table.round_apply_action(
            round_id=round_.pk, seat=follower, action=Play(bad), actor=players[follower]
        )

    assert caught.value.code == state.why_illegal(follower, Play(bad))
    assert RoundAction.objects.count() == count


def test_a_malformed_text_never_reaches_the_service():
    from games.engine import MalformedActionError

    for text in ("play ZZ", "bid 85", "dance", "bid 90 X"):
        with pytest.raises(MalformedActionError):
            parse_action(text)


def test_four_passes_cancel_and_deal_the_next_round(players, queued):
    round_ = started(players, queued)

    for offset in (1, 2, 3, 4):
        seat = (round_.dealer + offset) % 4
        applied = table.round_apply_action(
            round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat]
        )

    round_.refresh_from_db()
    following = Round.objects.get(pk=applied.next_round_id)
    assert round_.status == Round.Status.CANCELLED
    assert applied.round_ended
    assert not applied.match_ended
    assert following.number == 2
    assert following.dealer == (round_.dealer + 1) % 4
    assert round_.match.__class__.objects.get(pk=round_.match_id).totals == [0, 0]


def test_a_bot_seat_to_act_is_queued_after_commit(
    owner, queued, settings, django_capture_on_commit_callbacks
):
    settings.BOT_PACING_SECONDS = 0.8
    room = bot_room(owner)

    with django_capture_on_commit_callbacks() as callbacks:
        room_services.room_start(room_id=room.pk, user=owner)
        assert queued.calls == []  # nothing leaves before the commit
    for callback in callbacks:
        callback()

    round_ = playing_round(room)
    first = (round_.dealer + 1) % 4
    if first == 0:
        assert queued.bot_turns() == []
    else:
        assert queued.bot_turns() == [(round_.pk, 0, False)]
        assert queued.calls[0]["options"]["countdown"] == pytest.approx(0.8)


def test_a_turn_clock_is_queued_for_a_player(players, queued, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        round_ = started(players, queued, turn_seconds=60)

    assert queued.bot_turns() == [(round_.pk, 0, True)]
    assert queued.calls[0]["options"]["countdown"] == pytest.approx(60)


def test_assist_announces_and_calls_pilotta_for_the_player(players, queued):
    round_ = started(players, queued, assist=True)
    # Give every seat a known deal: seat 0 holds a run and the King and Queen of hearts.
    round_.hands = [
        "KH QH JH 7C 8C 9D TD AS",
        "AH TH 9H 8H 7H AC TC KC",
        "QC JC 9C AD KD QD JD 8D",
        "7D KS QS JS TS 9S 8S 7S",
    ]
    round_.dealer = 3
    round_.save()
    table.round_apply_action(
        round_id=round_.pk, seat=0, action=Bid(80, Suit.HEARTS), actor=players[0]
    )
    for seat in (1, 2, 3):
        table.round_apply_action(round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat])

    table.round_apply_action(
        round_id=round_.pk, seat=0, action=parse_action("play KH"), actor=players[0]
    )

    logged = list(RoundAction.objects.filter(round=round_, seat=0).values_list("action", flat=True))
    assert logged[-2:] == [
        {"seat": 0, "action": "announce"},
        {"seat": 0, "action": "play", "card": "KH", "pilotta": True},
    ]


def test_a_full_match_with_bots_ends_with_a_winner(owner, queued, settings):
    from games.tasks import bot_play_turn

    room = bot_room(owner, target=251)
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)  # the computer plays the owner's seat too
    match = Match.objects.get(room=room)

    for _ in range(5000):
        round_ = match.rounds.filter(status=Round.Status.PLAYING).first()
        if round_ is None:
            break
        bot_play_turn(round_.pk, round_view(round_).seq)

    match.refresh_from_db()
    room.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert max(match.totals) >= 251
    assert match.winner == (0 if match.totals[0] > match.totals[1] else 1)
    assert room.status == Room.Status.FINISHED
    ended = match.rounds.exclude(status=Round.Status.PLAYING)
    assert sum(r.result["score"][0] for r in ended if r.result) == match.totals[0]
    # The finished room is not waiting for players: its seats stay, and only a rematch goes on.
    with pytest.raises(GameError, match="room_not_open"):
        room_services.room_leave_seat(room_id=room.pk, user=owner)
    room_services.match_rematch(room_id=room.pk, user=owner)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
