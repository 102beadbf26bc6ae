"""Serve a logged-in player in their preferred language; keep guests to their own table."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.utils import translation

from accounts.guests import is_guest


class PreferredLanguageMiddleware:
    """Use the player's preferred language for pages whose URL names no language.

    The language prefix and the switcher's cookie are explicit choices and win. Without them (for
    instance once the browser dropped the session-long language cookie) the bare ``/`` redirects to
    the profile's language rather than the browser's. Runs after AuthenticationMiddleware and
    before LocaleMiddleware's response phase, which builds that redirect from the active language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if (
            not translation.get_language_from_path(request.path_info)
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
            and request.user.is_authenticated
        ):
            translation.activate(request.user.preferred_language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


# Every page a guest may open, by URL name; any other answers 403 (see GuestBoundaryMiddleware).
# The room pages check on their own that the room is the guest's.
GUEST_PAGES = frozenset(
    {
        "healthz",
        "favicon",
        "set_language",
        "lobby:home",
        "lobby:rules",
        "lobby:waitlist_join",
        "lobby:waitlist_thanks",
        "lobby:waitlist_confirm",
        "lobby:waitlist_unsubscribe",
        "games:play_now",
        "games:room",
        "games:room_rematch",
        "games:round_record",
        "games:round_replay",
        "accounts:guest_keep",
        "account_logout",
    }
)


class GuestBoundaryMiddleware:
    """Let a guest open only the pages of ``GUEST_PAGES``: the one rule that keeps guests out.

    A guest is logged in like a player, so without this rule every page for players (the lobby,
    friends, the profile, allauth's email and password pages, the admin) would serve them. An
    allowlist fails closed: a page added later stays closed to guests until it is listed here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponseBase | None:
        if not is_guest(request.user) or request.resolver_match is None:
            return None
        if request.resolver_match.view_name in GUEST_PAGES:
            return None
        room = request.user.owned_rooms.order_by("-created").first()  # type: ignore[union-attr]
        context = {"room": room, "next": request.get_full_path()}
        return render(request, "accounts/guest_only.html", context, status=403)
