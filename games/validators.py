"""The rule for a room's name, shared by the model, the rename form and the service behind it."""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

ROOM_NAME_MAX_LENGTH = 60

# Control characters, line and paragraph breaks, and the marks that reorder text around them
# (a name could otherwise make the lobby's next line read backwards).
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
_BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def validate_room_name_characters(value: str) -> None:
    """Refuse a name with control characters, line breaks or text direction marks."""
    if any(
        unicodedata.category(char) in _FORBIDDEN_CATEGORIES or char in _BIDI_CONTROLS
        for char in value
    ):
        raise ValidationError(
            _("A room's name cannot contain control characters or line breaks."), code="control"
        )


def clean_room_name(value: str) -> str:
    """Return the name trimmed, or raise ValidationError if it is empty, too long or unprintable."""
    validate_room_name_characters(value)
    name = value.strip()
    if not name:
        raise ValidationError(_("Give the room a name."), code="required")
    if len(name) > ROOM_NAME_MAX_LENGTH:
        raise ValidationError(
            _("A room's name has at most %(max)d characters.") % {"max": ROOM_NAME_MAX_LENGTH},
            code="max_length",
        )
    return name
