"""Live lobby: each logged-in user listens on a group of their own for notifications."""

from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from lobby.presence import lobby_connected, lobby_disconnected


def user_group(user_id: int) -> str:
    """Name the channel group that reaches every open lobby of one user."""
    return f"user-{user_id}"


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group_name = user_group(user.pk)
        self.user_id = user.pk
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()
        await sync_to_async(lobby_connected)(user_id=self.user_id)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            await sync_to_async(lobby_disconnected)(user_id=self.user_id)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Ignore client messages unread: the lobby socket only pushes to the browser.

        The JSON consumer would decode them first, and raise on bad JSON or a binary frame.
        """

    async def lobby_html(self, event: dict[str, Any]) -> None:
        """Forward an already rendered out-of-band fragment."""
        await self.send(text_data=event["html"])
