"""Punctuation that templates add themselves, written as the active language writes it.

``{% load typography %}…{{ name }}{% colon %} …`` gives "Eleni:" in English and Greek and
"Eleni :" (with a no-break space, so a line never starts with the colon) in French.
"""

from django import template
from django.utils.translation import get_language

register = template.Library()

NO_BREAK_SPACE = "\u00a0"
SPACED_BEFORE_COLON = frozenset({"fr"})


@register.simple_tag
def colon() -> str:
    """Return a colon, after a no-break space in the languages that want one."""
    language = (get_language() or "").split("-")[0]
    return f"{NO_BREAK_SPACE}:" if language in SPACED_BEFORE_COLON else ":"
