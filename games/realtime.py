"""Channel group names and the "table changed" signal, sent only after commit."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def table_group(room_id: int) -> str:
    """Name the channel group of every connection watching one room."""
    return f"table-{room_id}"


def send_invitation_note(invitation_id: int) -> None:
    """Show a room invitation live in every open lobby of the invited player, in their language."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.models import RoomInvitation
    from lobby.consumers import user_group

    invitation = (
        RoomInvitation.objects.select_related("room", "invited_by", "user")
        .filter(pk=invitation_id)
        .first()
    )
    layer = get_channel_layer()
    if invitation is None or layer is None:
        return
    with translation.override(invitation.user.preferred_language):
        html = render_to_string(
            "lobby/rooms/invitations.html#note", {"invitation": invitation, "oob": True}
        )
    async_to_sync(layer.group_send)(
        user_group(invitation.user_id), {"type": "lobby.html", "html": html}
    )


def send_table_changed(room_id: int) -> None:
    """Tell every connection of a room to render its view again; the message carries no cards."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(room_id), {"type": "table.changed"})
