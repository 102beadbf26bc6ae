"""Live notes pushed to a player's open lobbies, sent only after commit."""

from django.template.loader import render_to_string
from django.utils import translation

from games.models import RoomInvitation
from games.realtime import group_send_from_sync


def user_group(user_id: int) -> str:
    """Name the channel group that reaches every open lobby of one user."""
    return f"user-{user_id}"


def send_invitation_note(invitation_id: int) -> None:
    """Show a room invitation live in every open lobby of the invited player, in their language."""
    invitation = (
        RoomInvitation.objects.select_related("room__owner", "invited_by", "user")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None:
        return
    with translation.override(invitation.user.preferred_language):
        html = render_to_string(
            "lobby/rooms/invitations.html#note", {"invitation": invitation, "oob": True}
        )
    group_send_from_sync(user_group(invitation.user_id), {"type": "lobby.html", "html": html})
