"""The live table socket: players send actions, every connection renders its own seat's view."""

from collections.abc import Callable
from contextlib import suppress
from typing import Any
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connections

from accounts.models import User
from games.engine import EngineError, parse_action
from games.errors import GameError
from games.frames import Admission, FrameError, RateLimiter, read_frame
from games.liveness import LeaseHeartbeat, table_scope, user_scope
from games.models import Room
from games.realtime import table_group
from games.rendering import TableScreen, error_text, render_message
from games.selectors import is_member
from games.services.presence import seat_connected, seat_disconnected
from games.services.table import seat_apply_action
from games.snapshots import snapshot_at_hand, table_snapshot

LANGUAGES = {code for code, _name in settings.LANGUAGES}


class AnyThreadDatabaseSyncToAsync(DatabaseSyncToAsync):
    """A database step on any of the executor's threads, its connection handed back after it.

    The executor's threads come and go, and any of them may run the next step: a connection
    kept by one would sit idle, outside the pool, until that thread happened to run again (or
    for good, once the thread ends). So each step returns its connection to the pool, which
    makes the next one cheap, whatever ``close_old_connections`` decides.
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            connections.close_all()


def in_any_thread(function: Callable[..., Any]) -> Any:
    """Run a consumer's database step on the executor's threads, not the one shared thread.

    Channels runs every consumer's database calls on one thread per process by default, so
    under load one table's action waits behind every other table's drawing. An action locks
    only its own round and a drawing reads only the cache and its own screen (a consumer
    handles one message at a time), so neither needs that thread.
    """
    return AnyThreadDatabaseSyncToAsync(function, thread_sensitive=False)


class TableConsumer(LeaseHeartbeat, AsyncJsonWebsocketConsumer):
    room_id: int
    user: User
    language: str

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.user = user
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        if not await self.may_watch():
            await self.close(code=4403)
            return
        self.language = self.page_language()
        self.group_name = table_group(self.room_id)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        # The seat counts as held while this socket lives (see games.liveness).
        await self.leases_take(
            [table_scope(self.room_id, user.pk), user_scope(user.pk)], groups=(self.group_name,)
        )
        await self.accept()
        await self.mark_connected()
        self.screen = TableScreen(user_id=user.pk, language=self.language)
        await self.send_text(await self.draw(full=True))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            alive = await self.leases_give_up()
            if table_scope(self.room_id, self.user.pk) not in alive:
                await self.mark_disconnected()

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Read one frame warily: within the rate limit, a bad frame is answered, never raised.

        Replaces the JSON consumer's decoding, which raises on bad JSON, a binary frame or deep
        nesting and so ends the socket. The socket stays open whatever arrives: a frame over
        16 KiB is answered like any bad one. Only past daphne's own limit (1 MiB by default)
        does the server drop the connection, before the frame reaches us.
        """
        admission = self.limiter().admit()
        if admission is Admission.DROP:
            return
        if admission is Admission.REFUSE:
            await self.send_error("too_many_messages")
            return
        try:
            content = read_frame(text_data, bytes_data)
        except FrameError as error:
            await self.send_error(error.code)
            return
        await self.receive_json(content)

    def limiter(self) -> RateLimiter:
        """Return this connection's rate limiter, made with its first message."""
        if not hasattr(self, "rate_limiter"):
            self.rate_limiter = self.new_limiter()
        return self.rate_limiter

    def new_limiter(self) -> RateLimiter:
        """Allow each connection 10 messages a second, in bursts of 20."""
        return RateLimiter(rate=10, burst=20)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Take one action from this user's own seat, as found in the database."""
        text = action_text(content)
        if text is None:
            await self.send_error("malformed")
            return
        try:
            action = parse_action(text)
        except EngineError:
            await self.send_error("malformed")
            return
        try:
            key = await self.apply(action)
        except GameError as error:
            await self.send_error(error.code)
            return
        # The player need not wait for the table's group message to come back through the
        # channel layer to see their own card land; that message, for the same version, is
        # then skipped here and draws the change for everyone else.
        html = await self.draw_changes(key) if key else ""
        if html:
            await self.send_text(html)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """Send what changed in this connection's view; a change already drawn is skipped."""
        version = event.get("version", 0)
        if version <= self.screen.version:
            return
        html = await self.draw_changes(event.get("key"))
        if html:
            await self.send_text(html)

    async def send_error(self, code: str) -> None:
        text = error_text(code, language=self.language)
        await self.send_text(await self.render_message(text))

    async def send_text(self, text: str) -> None:
        """Send a drawing or a message, unless the socket closed while it was being made.

        A drawing runs on another thread; the browser may leave meanwhile, and its goodbye is
        only handled after this message. Sending then is pointless, not an error.
        """
        with suppress(Disconnected):
            await self.send(text_data=text)

    def page_language(self) -> str:
        """Speak the language the page was opened in, else the user's own."""
        query = parse_qs(self.scope.get("query_string", b"").decode())
        language = (query.get("lang") or [""])[0]
        if language in LANGUAGES:
            return language
        return self.user.preferred_language or settings.LANGUAGE_CODE

    @database_sync_to_async
    def may_watch(self) -> bool:
        room = Room.objects.filter(pk=self.room_id).first()
        return room is not None and is_member(room, self.user)

    @database_sync_to_async
    def mark_connected(self) -> None:
        seat_connected(room_id=self.room_id, user=self.user)

    @database_sync_to_async
    def mark_disconnected(self) -> None:
        seat_disconnected(room_id=self.room_id, user=self.user)

    async def draw_changes(self, key: str | None) -> str:
        """Draw what changed, on the event loop when this process holds the snapshot.

        Drawing is pure computation once the snapshot is at hand, as it is for every move made
        on this process's sockets: a thread would only add a hand-over, and the four drawings
        of a move would then take turns for the interpreter lock with the mover's. Only a
        snapshot to be read from the shared cache or the database is drawn on a thread.
        """
        snapshot = snapshot_at_hand(room_id=self.room_id, key=key) if key else None
        if snapshot is None:
            return await self.draw(key=key)
        return self.screen.changes(snapshot)

    @in_any_thread
    def draw(self, *, key: str | None = None, full: bool = False) -> str:
        """Draw from the room's shared snapshot: the whole table, or only what changed."""
        snapshot = table_snapshot(room_id=self.room_id, key=key)
        if snapshot is None:
            return ""
        return self.screen.full(snapshot) if full else self.screen.changes(snapshot)

    @database_sync_to_async
    def render_message(self, text: str) -> str:
        return render_message(text, language=self.language)

    @in_any_thread
    def apply(self, action: Any) -> str | None:
        """Take the move; return where its snapshot was published (None if it was not)."""
        applied = seat_apply_action(room_id=self.room_id, user=self.user, action=action)
        return applied.published.key


def action_text(content: Any) -> str | None:
    """Read the action text from a message; a message naming a seat is refused.

    htmx sends the form values: ``{"action": "play JH"}``, or ``{"action": "bid", "value": "90",
    "trump": "H"}`` from the bidding form, with its ``HEADERS``.
    """
    if not isinstance(content, dict) or "seat" in content:
        return None
    word = content.get("action")
    if not isinstance(word, str):
        return None
    if word == "bid":
        value, trump = content.get("value"), content.get("trump")
        if not isinstance(value, str) or not isinstance(trump, str):
            return None
        return f"bid {value} {trump}"
    return word
