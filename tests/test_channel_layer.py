"""The Redis channel layer's connections outlast its own blocking reads."""

import asyncio

import pytest
from channels.layers import channel_layers
from channels_redis.core import RedisChannelLayer

from config.env import CHANNEL_LAYER_SOCKET_TIMEOUT

# More sockets than redis-py's default pool of 100 connections, leaving and joining at once.
BURST = 400


def test_a_read_on_the_channel_layer_waits_longer_than_its_blocking_read():
    read_timeout, blocking_read = CHANNEL_LAYER_SOCKET_TIMEOUT, RedisChannelLayer.brpop_timeout

    assert read_timeout >= 3 * blocking_read


@pytest.mark.services
async def test_a_quiet_channel_keeps_receiving_past_the_blocking_read():
    layer = channel_layers.make_backend("default")
    assert isinstance(layer, RedisChannelLayer)
    channel = await layer.new_channel("quiet.")
    receiving = asyncio.ensure_future(layer.receive(channel))
    try:
        await asyncio.sleep(RedisChannelLayer.brpop_timeout + 2)
        assert not receiving.done(), receiving.exception()

        await layer.send(channel, {"type": "table.changed"})

        assert await asyncio.wait_for(receiving, 2) == {"type": "table.changed"}
    finally:
        receiving.cancel()
        await layer.close_pools()


@pytest.mark.services
async def test_a_burst_of_sockets_leaving_their_groups_at_once_finds_connections():
    layer = channel_layers.make_backend("default")
    assert isinstance(layer, RedisChannelLayer)
    channels = [await layer.new_channel("burst.") for _ in range(BURST)]
    try:
        await asyncio.gather(*(layer.group_add("burst", name) for name in channels))
        await asyncio.gather(*(layer.group_discard("burst", name) for name in channels))
    finally:
        await layer.flush()
        await layer.close_pools()


@pytest.mark.services
def test_a_worker_sends_every_message_on_one_loop_and_its_connections():
    """Code with no event loop of its own (a Celery task) sends through the process's sender
    loop: the Redis layer keeps one set of connections for it, not one per message."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.realtime import group_send_from_sync, sender

    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    channel = async_to_sync(layer.new_channel)("sender.")
    async_to_sync(layer.group_add)("sender-test", channel)
    try:
        for number in range(3):
            group_send_from_sync("sender-test", {"type": "table.changed", "version": number})
        loops_used = [loop for loop in layer._layers if not loop.is_closed()]

        async def receive_three() -> list[int]:
            return [(await layer.receive(channel))["version"] for _ in range(3)]

        received = async_to_sync(receive_three)()

        assert received == [0, 1, 2]
        assert sender._loop in loops_used
        assert len([loop for loop in loops_used if loop is sender._loop]) == 1
    finally:
        async_to_sync(layer.group_discard)("sender-test", channel)
