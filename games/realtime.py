"""Channel group names of the table, and the "table changed" signal (sent only after commit)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(room_id: int) -> str:
    """Name the channel group of every connection watching one room."""
    return f"table-{room_id}"


def send_table_changed(room_id: int, *, version: int, key: str) -> None:
    """Tell every connection of a room that it changed, and where its snapshot waits.

    The message carries a number and a cache key, never a card.
    """
    layer = get_channel_layer()
    if layer is not None:
        message = {"type": "table.changed", "version": version, "key": key}
        async_to_sync(layer.group_send)(table_group(room_id), message)
