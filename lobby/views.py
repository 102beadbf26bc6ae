"""The landing page with its waitlist form, the rules, the email links, and the player's lobby."""

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.middleware import HtmxDetails

from accounts.models import User
from config.clientip import client_ip
from games.forms import PlayNowForm, RoomForm
from games.selectors import invitations_for, lobby_rooms
from lobby import demo, selectors, services
from lobby.forms import WaitlistForm
from lobby.tokens import LinkError, LinkExpiredError

WAITLIST_PARTIAL = "lobby/home.html#waitlist-form"


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Show the landing page."""
    form = WaitlistForm(initial={"language": get_language()})
    return render(request, "lobby/home.html", _home_context(form))


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """Show the whole rules of Cypriot Pilotta."""
    return render(request, "lobby/rules.html")


@require_POST
def waitlist_join(request: HtmxHttpRequest) -> HttpResponse:
    """Sign an address up; answer the same whether or not it was already listed."""
    form = WaitlistForm(request.POST)
    if form.is_bot():
        return _joined(request)
    if not form.is_valid():
        return _waitlist_form(request, form)
    try:
        services.waitlist_signup(
            email=form.cleaned_data["email"],
            language=form.cleaned_data["language"],
            ip=client_ip(request),
        )
    except services.WaitlistRateLimitError:
        message = _("Too many sign-ups from your connection. Please try again in an hour.")
        return _waitlist_form(request, form, limit_error=message, status=429)
    return _joined(request)


@require_safe
def waitlist_thanks(request: HttpRequest) -> HttpResponse:
    """Ask the visitor to look for the confirmation email."""
    return render(request, "lobby/waitlist_thanks.html")


@require_http_methods(["GET", "POST"])
def waitlist_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Show a confirm button (GET, as mail scanners prefetch links) and confirm on POST."""
    try:
        if request.method == "POST":
            entry = services.waitlist_confirm(token=token)
            return render(request, "lobby/waitlist_confirmed.html", {"entry": entry})
        entry = selectors.waitlist_entry_for_confirm_token(token=token)
    except LinkError as error:
        return _link_error(request, error)
    return render(request, "lobby/waitlist_confirm.html", {"entry": entry})


# Mail apps unsubscribe with a cookieless POST (RFC 8058 one-click), so no CSRF token comes.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def waitlist_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Show an unsubscribe button (GET) and unsubscribe on POST."""
    try:
        if request.method == "POST":
            entry = services.waitlist_unsubscribe(token=token)
            return render(request, "lobby/waitlist_unsubscribed.html", {"entry": entry})
        entry = selectors.waitlist_entry_for_unsubscribe_token(token=token)
    except LinkError as error:
        return _link_error(request, error)
    return render(request, "lobby/waitlist_unsubscribe.html", {"entry": entry})


def _home_context(form: WaitlistForm, **extra: Any) -> dict[str, Any]:
    return {"form": form, "play_now_form": PlayNowForm(), "table": demo.demo_table(), **extra}


def _waitlist_form(
    request: HtmxHttpRequest, form: WaitlistForm, *, limit_error: str = "", status: int = 200
) -> HttpResponse:
    """Show the form again with its errors: the fragment for htmx, else the whole page."""
    if request.htmx:
        context = {"form": form, "limit_error": limit_error}
        return render(request, WAITLIST_PARTIAL, context, status=status)
    context = _home_context(form, limit_error=limit_error)
    return render(request, "lobby/home.html", context, status=status)


def _joined(request: HtmxHttpRequest) -> HttpResponse:
    if request.htmx:
        return render(request, WAITLIST_PARTIAL, {"joined": True})
    # Post/redirect/get: reloading the thanks page must not sign up again.
    return redirect("lobby:waitlist_thanks")


def _link_error(request: HttpRequest, error: LinkError) -> HttpResponse:
    expired = isinstance(error, LinkExpiredError)
    status = 410 if expired else 400
    return render(request, "lobby/waitlist_link_error.html", {"expired": expired}, status=status)


@login_required
@require_GET
def rooms(request: HttpRequest) -> HttpResponse:
    """Show the player's rooms and games, their friends and who is online, and the room form."""
    return render_lobby(request, RoomForm())


def render_lobby(request: HttpRequest, form: RoomForm, *, status: int = 200) -> HttpResponse:
    """Render the player's lobby around a room form (blank, or sent back with its errors)."""
    user = request.user
    assert isinstance(user, User)
    context = {
        "rooms": lobby_rooms(user),
        "form": form,
        "invitations": invitations_for(user),
        "friends": selectors.friends_with_presence(user),
    }
    return render(request, "lobby/rooms/index.html", context, status=status)
