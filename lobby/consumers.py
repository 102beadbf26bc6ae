"""Live lobby: each logged-in user listens on a group of their own for notifications."""

from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from lobby.presence import lobby_connected, lobby_disconnected
from lobby.realtime import user_group


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

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Ignore client messages: the lobby socket only pushes to the browser."""

    async def lobby_html(self, event: dict[str, Any]) -> None:
        """Forward an already rendered out-of-band fragment."""
        await self.send(text_data=event["html"])
