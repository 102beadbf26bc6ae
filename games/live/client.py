"""A table socket as the browser opens it, without the browser.

The user is logged in through Django's own login machinery into a session in the database, and
the socket carries that session's cookie and the page's Origin, as htmx's ws extension does.
What the table sends are HTML fragments swapped in out of band: the whole table on connect,
then only the regions that changed; ``TableView`` keeps the few facts a script needs.
"""

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from accounts.models import User
from games.engine import Action, Bid
from games.live.processes import HOST

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"
OPEN_SECONDS = 10.0

_TO_ACT = re.compile(r'class="seat [^"]*\bto-act\b[^"]*" id="seat-(\d)"')
_TAG = re.compile(r"<[^>]+>")


def login_session(user: User) -> str:
    """Log ``user`` in as the login page would, and return the new session's key."""
    from importlib import import_module

    engine = import_module(settings.SESSION_ENGINE)
    request = HttpRequest()
    request.META = {"REMOTE_ADDR": HOST}
    session: SessionBase = engine.SessionStore()
    request.session = session
    login(request, user, backend=LOGIN_BACKEND)
    session.save()
    key = session.session_key
    assert key is not None
    return key


def table_url(port: int, room_id: int, *, language: str = "en") -> str:
    """Address of a room's table socket on a server listening on 127.0.0.1:``port``."""
    return f"ws://{HOST}:{port}/ws/table/{room_id}/?lang={language}"


async def open_table(
    *,
    port: int,
    room_id: int,
    session_key: str,
    language: str = "en",
    open_timeout: float = OPEN_SECONDS,
) -> ClientConnection:
    """Open a room's table socket as the browser does, logged in with ``session_key``.

    The socket sends no keepalive pings of its own, as a browser does not; it answers the
    server's, as a browser does.
    """
    return await connect(
        table_url(port, room_id, language=language),
        origin=Origin(f"http://{HOST}:{port}"),
        additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}"},
        open_timeout=open_timeout,
        ping_interval=None,
    )


def action_message(action: Action) -> dict[str, Any]:
    """Write an action as the table's buttons and bidding form send it."""
    if isinstance(action, Bid):
        return {"action": "bid", "value": str(action.value), "trump": str(action.trump)}
    return {"action": str(action)}


def is_error(fragment: str) -> bool:
    """Say whether a fragment is a message for this connection only (a refused action)."""
    return fragment.lstrip().startswith('<div id="table-message"') and "table-message-error" in (
        fragment
    )


def error_text(fragment: str) -> str:
    """Return the words of a message fragment, without its markup."""
    return " ".join(_TAG.sub(" ", fragment).split())


def shows_my_turn(fragment: str) -> bool | None:
    """Say whether a fragment tells its viewer it is their turn; None if it leaves that as is.

    Only the controls region says so, and a change sends only the regions that changed.
    """
    if 'id="table-controls"' not in fragment:
        return None
    return 'class="your-turn"' in fragment


def seat_to_act(fragment: str) -> int | None:
    """Return the seat a fragment's seats region marks as the one to act, or None."""
    found = _TO_ACT.search(fragment)
    return int(found.group(1)) if found else None


@dataclass
class TableView:
    """The few facts of a table a script reads, kept up to date fragment by fragment."""

    my_turn: bool = False
    to_act: int | None = None
    summary: bool = False

    def apply(self, fragment: str) -> None:
        if is_error(fragment):
            return
        if (turn := shows_my_turn(fragment)) is not None:
            self.my_turn = turn
        if 'id="table-seats"' in fragment:
            self.to_act = seat_to_act(fragment)
        if 'id="table-score"' in fragment:
            self.summary = 'class="round-summary' in fragment
