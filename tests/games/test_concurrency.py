"""Two simultaneous actions for one turn: the row lock and the unique (round, seq) apply one."""

import threading

import pytest
from django.db import connection

from games.engine import Pass
from games.errors import GameError
from games.models import Round, RoundAction
from games.services import rooms as room_services
from games.services import table
from tests.factories import seated_room

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_simultaneous_actions_apply_once(players, queued):
    room = seated_room(players)
    room_services.room_start(room_id=room.pk, user=players[0])
    round_ = Round.objects.get(match__room=room)
    seat = (round_.dealer + 1) % 4
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def act() -> None:
        try:
            barrier.wait()
            table.round_apply_action(
                round_id=round_.pk, seat=seat, action=Pass(), actor=players[seat]
            )
            outcomes.append("applied")
        except GameError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=act) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["applied", "not_your_turn"]
    assert list(RoundAction.objects.filter(round=round_).values_list("seq", flat=True)) == [0]


def test_two_duplicate_bot_tasks_play_once(owner, queued):
    from games.tasks import bot_play_turn
    from tests.factories import bot_room

    room = bot_room(owner, bot_level="easy")
    room_services.room_start(room_id=room.pk, user=owner)
    room.seats.filter(seat=0).update(away=True)
    round_ = Round.objects.get(match__room=room)
    barrier = threading.Barrier(2)

    def play() -> None:
        try:
            barrier.wait()
            bot_play_turn(round_.pk, 0)
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert RoundAction.objects.filter(round=round_).count() == 1
