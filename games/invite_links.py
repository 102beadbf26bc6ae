"""A newcomer's way in through a room's share link: sign up, even by invitation only, and sit.

The link's token waits in the session as a site invitation does (accounts.invitations): while
the link may still seat a newcomer, the account adapter opens sign-up to this browser. The
sign-up marks the link as the new player's, and their first login (once they verified their
address) seats them. A login that did not follow a sign-up through the link seats nobody: a
link opened behind a player's back only ever shows them the sign-up form.
"""

from django.http import HttpRequest
from django.urls import reverse

from accounts.models import User
from games.errors import GameError
from games.models import Room
from games.selectors import room_for_newcomer
from games.services.rooms import room_take_seat

TOKEN_KEY = "games_room_link_token"
SIGNED_UP_KEY = "games_room_link_signed_up"


def room_link_remember(request: HttpRequest, room: Room) -> None:
    """Hold the room's link for the sign-up that may follow."""
    request.session[TOKEN_KEY] = room.invite_token


def room_link_in_session(request: HttpRequest) -> Room | None:
    """Return the room the session's link may still seat a newcomer at, if any."""
    return room_for_newcomer(request.session.get(TOKEN_KEY))


def room_link_opens_signup(request: HttpRequest) -> bool:
    """Say whether the session's link opens sign-up: it may still seat a newcomer, and nobody
    signed up through it in this browser yet."""
    return SIGNED_UP_KEY not in request.session and room_link_in_session(request) is not None


def room_link_signed_up(request: HttpRequest, user: User) -> None:
    """Mark the session's link as the one ``user`` just signed up through."""
    if room_link_in_session(request) is not None:
        request.session[SIGNED_UP_KEY] = user.pk
    else:
        room_link_forget(request)


def room_link_seat(request: HttpRequest, user: User) -> str | None:
    """Seat ``user`` at logging in, if they signed up through the session's link.

    Return the page to land on: the room once seated, else the link's own page, which says why
    (the room filled or started meanwhile); None when the login owes them no seat.
    """
    token = request.session.get(TOKEN_KEY)
    signed_up = request.session.get(SIGNED_UP_KEY)
    if not isinstance(token, str) or signed_up != user.pk:
        return None
    room_link_forget(request)
    room = Room.objects.filter(invite_token=token).first()
    if room is None:
        return None
    try:
        room_take_seat(room_id=room.pk, user=user, token=token)
    except GameError:
        return reverse("games:room_join", args=[token])
    return reverse("games:room", args=[room.pk])


def room_link_forget(request: HttpRequest) -> None:
    """Drop the link from the session."""
    request.session.pop(TOKEN_KEY, None)
    request.session.pop(SIGNED_UP_KEY, None)
