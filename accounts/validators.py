"""Rules for display names, shared by the model, the signup form and the profile form."""

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MIN_LENGTH = 3
DISPLAY_NAME_MAX_LENGTH = 30

# Letters of any script (Greek names are welcome), digits, space, dot, underscore and hyphen,
# with at least one letter or digit.
_DISPLAY_NAME_RE = re.compile(r"(?=.*[^\W_])[\w .-]+")
_SPACES_RE = re.compile(r"\s+")


def normalize_display_name(value: str) -> str:
    """Trim the name and collapse runs of whitespace into one space."""
    return _SPACES_RE.sub(" ", value).strip()


def validate_display_name(value: str) -> None:
    """Refuse names that are too short or use characters other than the allowed ones."""
    if len(value) < DISPLAY_NAME_MIN_LENGTH:
        raise ValidationError(
            _("Use at least %(min)d characters.") % {"min": DISPLAY_NAME_MIN_LENGTH},
            code="min_length",
        )
    if not _DISPLAY_NAME_RE.fullmatch(value):
        raise ValidationError(
            _("Use letters, digits, spaces and . _ - only."),
            code="invalid",
        )
