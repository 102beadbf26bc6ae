"""Live lobby: each logged-in user listens on a group of their own for notifications."""

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.liveness import LeaseHeartbeat, user_scope
from lobby.realtime import user_group


class LobbyConsumer(LeaseHeartbeat, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        if user.is_guest:
            # A guest has no lobby: no friends to be online for, no invitations to receive.
            await self.close(code=4403)
            return
        self.group_name = user_group(user.pk)
        self.user_id = user.pk
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        # The user counts as online while this socket lives (see games.liveness), from the
        # moment the browser learns it is connected.
        await self.leases_take([user_scope(self.user_id)], groups=(self.group_name,))
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            await self.leases_give_up()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Ignore client messages unread: the lobby socket only pushes to the browser.

        The JSON consumer would decode them first, and raise on bad JSON or a binary frame.
        """

    async def lobby_html(self, event: dict[str, Any]) -> None:
        """Forward an already rendered out-of-band fragment."""
        await self.send(text_data=event["html"])
