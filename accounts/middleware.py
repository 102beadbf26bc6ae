"""Serve a logged-in player in their preferred language unless they chose another."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation


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
