"""What every page needs to offer Play now."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest

from accounts.guests import is_guest


def play_now(request: HttpRequest) -> dict[str, Any]:
    """Say whether this visitor may use Play now: always with an account, else if guests may."""
    user = getattr(request, "user", None)
    has_account = user is not None and user.is_authenticated and not is_guest(user)
    return {"play_now_open": has_account or settings.GUEST_PLAY}
