"""Frames from the table's browsers, read warily before anything trusts them.

The table's forms reach the socket through htmx's ws extension, which sends each form as one
JSON object of short strings: ``{"action": "play JH", "HEADERS": {...}}``, or from the bidding
form ``{"action": "bid", "value": "90", "trump": "H", "HEADERS": {...}}``. ``HEADERS`` holds
the request headers htmx adds (``HX-Request``, ``HX-Trigger``, ``HX-Trigger-Name``,
``HX-Target``, ``HX-Current-URL``, and those of ``hx-headers`` such as ``X-CSRFToken``).

Anything else is refused with a FrameError whose code the site translates, and each refusal
is decided before the costly step it guards: the length before any parsing, the nesting depth
before ``json.loads`` (whose recursion a deep frame would exhaust), the shape before any value
is read. ``RateLimiter`` spaces out one connection's messages so a flood queues no replies.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

#: The longest frame read, in characters (or bytes, for a binary frame): a form is tiny.
MAX_FRAME = 16 * 1024
#: The deepest nesting read: the message object, and the HEADERS object inside it.
MAX_DEPTH = 2
#: The longest form value (an action such as "play KH pilotta" is 15 characters).
MAX_VALUE = 64
#: The most headers, and the longest header name and value (HX-Current-URL is the longest).
MAX_HEADERS = 16
MAX_HEADER_NAME = 64
MAX_HEADER_VALUE = 2048

FORM_KEYS = frozenset({"action", "value", "trump"})
HEADERS_KEY = "HEADERS"

# A JSON string (a quote, then escape pairs or anything but a quote or backslash, then a quote,
# or the end of the text for an unclosed one), or a bracket outside a string. Every quote starts
# a token that matches, so the scan is linear: a pattern needing the closing quote would rescan
# to the end from each quote of a long run of escaped quotes, quadratic (seconds for 16 KiB).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)
_OPENERS = frozenset("[{")


class FrameError(Exception):
    """A refused frame; ``code`` is a key of the site's error messages."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def read_frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, str]:
    """Return the form fields of a frame; raise FrameError for anything else.

    The HEADERS are checked for shape, then left out: nothing on the table reads them.
    """
    frame = text_data if text_data is not None else bytes_data
    if frame is None:
        raise FrameError("malformed")
    if len(frame) > MAX_FRAME:
        raise FrameError("frame_too_large")
    if not isinstance(frame, str):
        raise FrameError("malformed")
    if nests_deeper(frame, MAX_DEPTH):
        raise FrameError("malformed")
    try:
        content = json.loads(frame)
    except (ValueError, RecursionError) as error:
        # ValueError covers bad JSON and integers past the int-to-str digit limit.
        raise FrameError("malformed") from error
    return form_fields(content)


def nests_deeper(text: str, limit: int) -> bool:
    """Say whether brackets nest deeper than ``limit`` in ``text``, outside JSON strings.

    This reads the text without parsing it; an unclosed string runs to the end, as it would
    for the parser, so nothing inside it can nest.
    """
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in _OPENERS:
            depth += 1
            if depth > limit:
                return True
        elif token[0] != '"':
            depth -= 1
    return False


def form_fields(content: Any) -> dict[str, str]:
    """Check a decoded frame has the shape htmx sends; return its form fields."""
    if not isinstance(content, dict) or "action" not in content:
        raise FrameError("malformed")
    fields: dict[str, str] = {}
    for key, value in content.items():
        if key == HEADERS_KEY:
            check_headers(value)
        elif key in FORM_KEYS and isinstance(value, str) and len(value) <= MAX_VALUE:
            fields[key] = value
        else:
            raise FrameError("malformed")
    return fields


def check_headers(headers: Any) -> None:
    """Refuse HEADERS that are not a few short names with short text (or null) values."""
    if not isinstance(headers, dict) or len(headers) > MAX_HEADERS:
        raise FrameError("malformed")
    for name, value in headers.items():
        if len(name) > MAX_HEADER_NAME:
            raise FrameError("malformed")
        if value is not None and (not isinstance(value, str) or len(value) > MAX_HEADER_VALUE):
            raise FrameError("malformed")


class Admission(StrEnum):
    """What to do with one message, by the rate limit."""

    #: Within the limit: read it.
    ACCEPT = "accept"
    #: The first message over the limit: answer it once, so the player knows to slow down.
    REFUSE = "refuse"
    #: Further messages over the limit: drop them unanswered, so a flood queues no replies.
    DROP = "drop"


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``.

    Every message takes a token; tokens come back at ``rate`` a second up to ``burst``. Over
    the limit, the first message is refused with an answer and the rest are dropped silently,
    until a message is accepted again.
    """

    def __init__(
        self, *, rate: float = 10.0, burst: int = 20, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()
        self.refused = False

    def admit(self) -> Admission:
        """Take a token for one message, and say what to do with it."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused = False
            return Admission.ACCEPT
        if self.refused:
            return Admission.DROP
        self.refused = True
        return Admission.REFUSE
