"""The table socket: four players play a round; refusals answer the sender only."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.routing import websocket_urlpatterns
from games.engine import Bid, Pass, Play
from games.models import Room, Round, RoundAction
from games.selectors import round_state
from games.services import rooms as room_services
from tests.factories import make_user, seated_room

pytestmark = [pytest.mark.django_db(transaction=True)]

application = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
HEADERS = {"HX-Request": "true", "HX-Trigger": None}


def cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_socket(user, room_id: int, lang: str = "en") -> tuple[WebsocketCommunicator, str]:
    cookie = await sync_to_async(cookie_for)(user)
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{room_id}/?lang={lang}", headers=[(b"cookie", cookie)]
    )
    connected, code = await communicator.connect()
    assert connected, code
    snapshot = await communicator.receive_from(timeout=5)
    return communicator, snapshot


@sync_to_async
def start_table(**settings):
    players = [make_user(f"Seat{n}") for n in range(4)]
    room = seated_room(players, **settings)
    room_services.room_start(room_id=room.pk, user=players[0])
    return players, room


@sync_to_async
def table_now(room: Room):
    round_ = Round.objects.filter(match__room=room).order_by("-pk")[0]
    return round_, round_state(round_), RoundAction.objects.count()


def next_action(state):
    """Bid 80 once, pass the rest of the auction, then play the first legal card."""
    legal = state.legal_actions()
    if state.phase == "auction":
        if state.high_bid is None:
            return next(a for a in legal if isinstance(a, Bid))
        return Pass()
    return next(a for a in legal if isinstance(a, Play))


@pytest.fixture
async def table(queued):
    players, room = await start_table()
    sockets = []
    for player in players:
        communicator, _snapshot = await open_socket(player, room.pk)
        sockets.append(communicator)
    yield players, room, sockets
    for communicator in sockets:
        await communicator.disconnect()


async def send(communicator, text: str, **extra) -> None:
    await communicator.send_json_to({"action": text, "HEADERS": HEADERS, **extra})


async def test_four_players_play_a_whole_round_through_their_sockets(table):
    _players, room, sockets = table
    first_round, state, _ = await table_now(room)

    for _step in range(60):
        seat = state.to_act
        await send(sockets[seat], str(next_action(state)))
        messages = [await socket.receive_from(timeout=5) for socket in sockets]
        assert all('hx-swap-oob="true"' in message for message in messages)
        round_, state, _ = await table_now(room)
        if round_.pk != first_round.pk:
            break
    else:
        pytest.fail("the round did not end")

    await sync_to_async(first_round.refresh_from_db)()
    assert first_round.status == Round.Status.FINISHED
    assert "Round 1" in messages[0]
    assert "On the score sheet" in messages[0]


async def test_a_change_sends_each_seat_only_the_regions_that_changed_for_it(table):
    _players, room, sockets = table
    _round, state, _ = await table_now(room)
    while state.phase == "auction":
        await send(sockets[state.to_act], str(next_action(state)))
        for socket in sockets:
            await socket.receive_from(timeout=5)
        _round, state, _ = await table_now(room)
    player = state.to_act
    following = (player + 1) % 4
    await send(sockets[player], str(next_action(state)))
    messages = {seat: await sockets[seat].receive_from(timeout=5) for seat in range(4)}

    for seat, message in messages.items():
        assert 'id="table"' not in message
        assert 'id="table-seats"' in message  # the card lies before its seat for everyone
        assert 'id="table-score"' not in message
        assert ('id="table-hand"' in message) == (seat in (player, following)), seat


async def test_the_player_who_moved_sees_it_without_waiting_for_the_group(table, monkeypatch):
    """The mover's own screen is drawn as soon as the move commits; with the table's group
    message lost, only the others miss the change."""
    _players, room, sockets = table
    _round, state, _ = await table_now(room)
    monkeypatch.setattr("games.services.table.send_table_changed", lambda *a, **k: None)
    mover = state.to_act

    await send(sockets[mover], str(next_action(state)))

    update = await sockets[mover].receive_from(timeout=5)
    assert 'id="table-seats"' in update  # the call lies before the mover's seat
    for seat in range(4):
        assert await sockets[seat].receive_nothing(timeout=0.3), seat


async def test_the_mover_gets_one_update_per_move_when_the_group_message_follows(table):
    _players, room, sockets = table
    _round, state, _ = await table_now(room)
    mover = state.to_act

    await send(sockets[mover], str(next_action(state)))

    updates = [await socket.receive_from(timeout=5) for socket in sockets]
    assert all('hx-swap-oob="true"' in update for update in updates)
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.3)


async def test_a_move_made_on_this_process_is_drawn_for_the_others_without_a_thread(
    table, monkeypatch
):
    """The snapshot of a move made here is at hand: the others' screens are drawn from it on
    the event loop, never on the database thread."""
    _players, room, sockets = table
    _round, state, _ = await table_now(room)

    async def no_thread(*args, **kwargs):
        raise AssertionError("drawn on a thread")

    monkeypatch.setattr("games.consumers.TableConsumer.draw", no_thread)
    mover = state.to_act

    await send(sockets[mover], str(next_action(state)))

    for seat, socket in enumerate(sockets):
        assert 'id="table-seats"' in await socket.receive_from(timeout=5), seat


async def test_a_move_published_by_another_process_is_drawn_from_the_shared_cache(
    table, monkeypatch
):
    """With the snapshot not held here, as when a computer's move comes from a worker, the
    others' screens read it from the shared cache."""
    from games import snapshots
    from games.services import table as table_services

    _players, room, sockets = table
    _round, state, _ = await table_now(room)
    tell = table_services.send_table_changed

    def from_elsewhere(*args, **kwargs):
        snapshots.recent.clear()
        tell(*args, **kwargs)

    monkeypatch.setattr("games.services.table.send_table_changed", from_elsewhere)
    mover = state.to_act

    await send(sockets[mover], str(next_action(state)))

    for seat, socket in enumerate(sockets):
        assert 'id="table-seats"' in await socket.receive_from(timeout=5), seat
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.3)


async def test_a_bid_from_the_form_fields_is_accepted(table):
    _players, room, sockets = table
    _round, state, _ = await table_now(room)

    await sockets[state.to_act].send_json_to(
        {"action": "bid", "value": "90", "trump": "S", "HEADERS": HEADERS}
    )

    for socket in sockets:
        await socket.receive_from(timeout=5)
    _round, after, _ = await table_now(room)
    assert after.high_bid[0] == state.to_act
    assert str(after.high_bid[1]) == "bid 90 S"


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("out_of_turn", "It is not your turn."),
        ("forged_seat", "That is not a move the table understands."),
        ("illegal", "You cannot do that at this point of the round."),
        ("malformed", "That is not a move the table understands."),
        ("not_json_action", "That is not a move the table understands."),
    ],
)
async def test_a_refused_message_answers_the_sender_only(table, case, message):
    _players, room, sockets = table
    _round, state, count = await table_now(room)
    seat = state.to_act
    sender = sockets[seat]
    content = {"action": "pass", "HEADERS": HEADERS}
    if case == "out_of_turn":
        sender = sockets[(seat + 1) % 4]
    elif case == "forged_seat":
        sender = sockets[(seat + 1) % 4]
        content["seat"] = seat
    elif case == "illegal":
        content["action"] = f"play {state.hands[seat][0]}"
    elif case == "malformed":
        content["action"] = "play 11X"
    elif case == "not_json_action":
        content["action"] = ["pass"]

    await sender.send_json_to(content)

    answer = await sender.receive_from(timeout=5)
    assert 'id="table-message"' in answer
    assert message in answer
    for socket in sockets:
        assert await socket.receive_nothing(timeout=0.2)
    _round, _state, after = await table_now(room)
    assert after == count


async def test_a_reconnect_gets_the_current_state(table):
    players, room, sockets = table
    _round, state, _ = await table_now(room)
    seat = state.to_act
    await send(sockets[seat], str(next_action(state)))
    for socket in sockets:
        await socket.receive_from(timeout=5)
    watcher = (seat + 2) % 4
    await sockets[watcher].disconnect()

    again, snapshot = await open_socket(players[watcher], room.pk)
    sockets[watcher] = again

    shown = set(re.findall(r'data-card="(\w\w)"', snapshot))
    assert {str(card) for card in state.hand(watcher)} <= shown
    assert "Seat0" in snapshot
    assert "Seat3" in snapshot


async def test_a_non_member_cannot_connect(queued):
    _players, room = await start_table()
    stranger = await sync_to_async(make_user)()
    cookie = await sync_to_async(cookie_for)(stranger)
    communicator = WebsocketCommunicator(
        application, f"/ws/table/{room.pk}/", headers=[(b"cookie", cookie)]
    )

    connected, code = await communicator.connect()

    assert not connected
    assert code == 4403


async def test_an_anonymous_visitor_cannot_connect(queued):
    _players, room = await start_table()
    communicator = WebsocketCommunicator(application, f"/ws/table/{room.pk}/")

    connected, code = await communicator.connect()

    assert not connected
    assert code == 4401


async def test_the_table_speaks_the_page_language(queued):
    players, room = await start_table()

    communicator, snapshot = await open_socket(players[1], room.pk, lang="el")
    await communicator.disconnect()

    assert "Πίνακας" in snapshot or "Σημείωμα" in snapshot


@pytest.mark.services
async def test_a_step_on_any_thread_hands_its_connection_back_to_the_pool(monkeypatch):
    """Even where ``close_old_connections`` keeps connections (as channels' test harness
    makes it), a table step run off the shared thread leaves none behind in its thread."""
    from django.db import connections

    from games.consumers import in_any_thread

    monkeypatch.setattr("channels.db.close_old_connections", lambda **kwargs: None)
    held = []

    @in_any_thread
    def count_rooms() -> int:
        count = Room.objects.count()
        held.append(connections["default"])  # this thread's own, not the proxy
        return count

    assert await count_rooms() == 0
    assert held[0].connection is None


async def test_an_update_for_a_socket_closed_meanwhile_is_dropped_quietly(monkeypatch):
    """The browser may leave while its update is drawn on another thread: sending it then is
    pointless, and must not end the consumer with an error."""
    from autobahn.exception import Disconnected

    from games.consumers import TableConsumer

    consumer = TableConsumer()
    sent = []

    async def closed(**kwargs):
        sent.append(kwargs)
        raise Disconnected("Attempt to send on a closed protocol")

    monkeypatch.setattr(consumer, "send", closed)

    await consumer.send_text("<div id='table-seats'></div>")

    assert len(sent) == 1


async def test_another_failure_to_send_is_not_hidden(monkeypatch):
    from games.consumers import TableConsumer

    consumer = TableConsumer()

    async def broken(**kwargs):
        raise RuntimeError("something else")

    monkeypatch.setattr(consumer, "send", broken)

    with pytest.raises(RuntimeError, match="something else"):
        await consumer.send_text("x")
