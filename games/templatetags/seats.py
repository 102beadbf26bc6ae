"""Seats in templates outside the live table: a computer's name, as the table gives it."""

from django import template

from games.rendering import COMPUTER_NAMES

register = template.Library()


@register.filter
def computer_name(seat: int) -> str:
    """Return the name the table gives the computer in ``seat``, in the active language."""
    return str(COMPUTER_NAMES[seat % len(COMPUTER_NAMES)])
