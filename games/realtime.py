"""Channel group names of the table, and the "table changed" signal (sent only after commit)."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(room_id: int) -> str:
    """Name the channel group of every connection watching one room."""
    return f"table-{room_id}"


def send_table_changed(room_id: int) -> None:
    """Tell every connection of a room to render its view again; the message carries no cards."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(room_id), {"type": "table.changed"})
