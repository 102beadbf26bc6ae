"""The classic game over the table socket: a take, and the refusals that answer the sender."""

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.models import Round, RoundAction
from games.selectors import round_state
from games.services import rooms as room_services
from tests.factories import make_user
from tests.games.test_consumers import open_socket, send

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_a_take_sent_over_the_socket_completes_the_deal(queued):
    @sync_to_async
    def start():
        players = [make_user(f"Classic{n}") for n in range(3)]
        room = room_services.room_create(owner=players[0], variant="classic", players=3)
        for seat, player in enumerate(players[1:], start=1):
            room_services.room_take_seat(
                room_id=room.pk, user=player, seat=seat, token=room.invite_token
            )
        room_services.room_start(room_id=room.pk, user=players[0])
        round_ = Round.objects.get(match__room=room)
        return players, room, round_

    players, room, round_ = await start()
    sockets = [(await open_socket(player, room.pk))[0] for player in players]
    first = (round_.dealer + 1) % 3
    try:
        # Out of turn: refused to the sender only, nothing written.
        await send(sockets[(first + 1) % 3], "take")
        refusal = await sockets[(first + 1) % 3].receive_from(timeout=5)
        assert "It is not your turn." in refusal
        # A name in the first round: refused with the engine's reason, translated.
        await send(sockets[first], "name S" if not round_.turned.endswith("S") else "name H")
        refusal = await sockets[first].receive_from(timeout=5)
        assert "You can name a trump only in the second round of taking." in refusal
        assert await sync_to_async(RoundAction.objects.count)() == 0

        await send(sockets[first], "take")
        messages = [await socket.receive_from(timeout=5) for socket in sockets]
    finally:
        for socket in sockets:
            await socket.disconnect()

    state = await sync_to_async(round_state)(round_)
    assert state.contract is not None
    assert state.contract.seat == first
    assert all('id="table-hand"' in message for message in messages)
    assert messages[first].count("card-button") == 8
    assert f'value="play {round_.turned}"' in messages[first]
    for seat, message in enumerate(messages):
        if seat != first:
            assert f'value="play {round_.turned}"' not in message
