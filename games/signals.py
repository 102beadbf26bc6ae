"""Mark the room's share link a new player signed up through, to seat them at their login."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.models import User
from games.invite_links import room_link_signed_up


@receiver(user_signed_up, dispatch_uid="games_room_link_signed_up")
def mark_room_link_on_signup(sender: Any, request: HttpRequest, user: User, **kwargs: Any) -> None:
    room_link_signed_up(request, user)
