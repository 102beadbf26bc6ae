"""The site's own page for an address opened in a way it does not answer (405)."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase, HttpResponseNotAllowed
from django.shortcuts import render


class MethodNotAllowedPageMiddleware:
    """Show the site's page, not a blank one, when a form's address is opened by hand.

    Actions such as opening a room or starting a match answer only a form sent from the site.
    Opened from the address bar, history or a shared link, Django's bare 405 leaves a phone on
    an empty screen; the page says what happened and leads back. Other methods keep the bare
    answer: they come from scripts, not from someone reading.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not isinstance(response, HttpResponseNotAllowed) or response.content:
            return response
        if request.method not in ("GET", "HEAD"):
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page
