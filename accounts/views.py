"""Profile, account deletion, invitation links and friends. Writes go through the services."""

from typing import Any

from allauth.account.views import LoginView as AllauthLoginView
from allauth.decorators import rate_limit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from accounts import selectors, services
from accounts.adapter import waitlist_url
from accounts.forms import AccountDeleteForm, InviteByEmailForm, PlayerSearchForm, ProfileForm
from accounts.guests import guest_leave, is_guest
from accounts.invitations import invitation_remember
from accounts.language import set_language_cookie, url_in_language
from accounts.models import FriendRequest, Friendship, Invitation, User


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _player(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _say_now_friends(request: HttpRequest, friend: User) -> None:
    messages.success(request, _("You and %(name)s are now friends.") % {"name": friend.table_name})


class LoginView(AllauthLoginView):
    """allauth's login, answering 429 Too Many Requests when it refuses a locked-out attempt."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many_login_attempts"):
            # The page still shows allauth's translated message; the status tells clients why.
            response.status_code = 429
        return response


login = LoginView.as_view()


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Show and change the display name and the preferred language."""
    user = _player(request)
    form = ProfileForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        language_changed = form.cleaned_data["preferred_language"] != user.preferred_language
        services.user_profile_update(user=user, **form.cleaned_data)
        with translation.override(user.preferred_language):
            messages.success(request, _("Your profile is saved."))
        response = redirect(url_in_language(reverse("accounts:profile"), user.preferred_language))
        if language_changed:
            set_language_cookie(response, user.preferred_language)
        return response
    return render(request, "accounts/profile.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
@rate_limit(action="reauthenticate")
def account_delete(request: HttpRequest) -> HttpResponse:
    """Delete one's account after confirming with the password."""
    user = _player(request)
    form = AccountDeleteForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        services.user_delete_account(user=user)
        logout(request)
        messages.success(request, _("Your account and your personal data are deleted."))
        return redirect("lobby:home")
    return render(request, "accounts/account_delete.html", {"form": form})


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """Welcome the holder of an invitation link and lead them to signup.

    A player who already has an account confirms with a POST before becoming the inviter's
    friend, so a link planted in another page cannot make friends behind their back.
    """
    found = Invitation.objects.select_related("inviter").filter(token=token).first()
    if found is None or not found.is_usable:
        status = 404 if found is None else 410
        return render(
            request, "accounts/invitation_invalid.html", {"invitation": found}, status=status
        )
    if request.user.is_authenticated:
        return _invitation_for_player(request, found)
    if request.method == "POST":
        return redirect(f"{reverse('account_login')}?{urlencode({'next': request.path})}")
    invitation_remember(request, found)
    signup_url = f"{reverse('account_signup')}?{urlencode({'email': found.email})}"
    return render(
        request, "accounts/invitation.html", {"invitation": found, "signup_url": signup_url}
    )


def _invitation_for_player(request: HttpRequest, found: Invitation) -> HttpResponse:
    user = _player(request)
    inviter = found.inviter
    can_befriend = (
        inviter is not None
        and inviter.pk != user.pk
        and inviter.is_active
        and not selectors.are_friends(user, inviter)
    )
    if request.method == "POST" and can_befriend and inviter is not None:
        services.invitation_accept(invitation=found, user=user)
        _say_now_friends(request, inviter)
        return redirect("accounts:friends")
    return render(
        request,
        "accounts/invitation.html",
        {"invitation": found, "can_befriend": can_befriend},
    )


@login_required
@require_GET
def friends(request: HtmxHttpRequest) -> HttpResponse:
    """List friends and requests, and find players to befriend."""
    return _friends_page(request, invite_form=InviteByEmailForm())


def _friends_page(request: HtmxHttpRequest, *, invite_form: InviteByEmailForm) -> HttpResponse:
    user = _player(request)
    search_form = PlayerSearchForm(request.GET)
    query = search_form.cleaned_data["q"] if search_form.is_valid() else ""
    context = {
        "search_form": search_form,
        "query": query,
        "results": selectors.user_search(query, user) if query else [],
        "relations": selectors.relations_of(user),
    }
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "accounts/friends.html#search-results", context)
    pending = selectors.pending_requests_for(user)
    context |= {
        "invite_form": invite_form,
        "friends": selectors.friends_of(user),
        "incoming": pending.incoming,
        "outgoing": pending.outgoing,
    }
    return render(request, "accounts/friends.html", context)


def _back_to_friends(request: HttpRequest) -> HttpResponse:
    query = request.POST.get("q", "").strip()
    url = reverse("accounts:friends")
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


@login_required
@require_POST
def friend_request_send(request: HttpRequest, user_id: int) -> HttpResponse:
    """Ask a player found by name to be friends."""
    target = get_object_or_404(selectors.players(), pk=user_id)
    try:
        result = services.friend_request_send(from_user=_player(request), to_user=target)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if isinstance(result, Friendship):
            _say_now_friends(request, target)
        else:
            messages.success(
                request, _("Friend request sent to %(name)s.") % {"name": target.table_name}
            )
    return _back_to_friends(request)


@login_required
@require_POST
def friend_request_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept a request addressed to the player."""
    user = _player(request)
    friend_request = get_object_or_404(
        FriendRequest.objects.select_related("from_user"), pk=pk, to_user=user
    )
    services.friend_request_accept(friend_request=friend_request, user=user)
    _say_now_friends(request, friend_request.from_user)
    return _back_to_friends(request)


@login_required
@require_POST
def friend_request_decline(request: HttpRequest, pk: int) -> HttpResponse:
    """Turn down a request addressed to the player."""
    user = _player(request)
    friend_request = get_object_or_404(FriendRequest, pk=pk, to_user=user)
    services.friend_request_decline(friend_request=friend_request, user=user)
    messages.info(request, _("Request declined."))
    return _back_to_friends(request)


@login_required
@require_POST
def friend_request_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a request the player sent."""
    user = _player(request)
    friend_request = get_object_or_404(FriendRequest, pk=pk, from_user=user)
    services.friend_request_cancel(friend_request=friend_request, user=user)
    messages.info(request, _("Request withdrawn."))
    return _back_to_friends(request)


@login_required
@require_POST
def friendship_remove(request: HttpRequest, user_id: int) -> HttpResponse:
    """Remove a friend."""
    user = _player(request)
    friend = get_object_or_404(selectors.friends_of(user), pk=user_id)
    services.friendship_remove(user=user, friend=friend)
    messages.info(request, _("%(name)s is no longer your friend.") % {"name": friend.table_name})
    return _back_to_friends(request)


@login_required
@require_POST
@rate_limit(action="invite_by_email")
def friend_invite(request: HtmxHttpRequest) -> HttpResponse:
    """Add a friend by email address, saying the same whether or not the address has an account."""
    form = InviteByEmailForm(request.POST)
    if not form.is_valid():
        return _friends_page(request, invite_form=form)
    services.friend_add_by_email(
        inviter=_player(request),
        email=form.cleaned_data["email"],
        language=translation.get_language(),
    )
    messages.success(
        request,
        _(
            "Done. If this address belongs to a player, they will find your friend request; "
            "if not, we have emailed them an invitation to join."
        ),
    )
    return redirect("accounts:friends")


@require_http_methods(["GET", "POST"])
def guest_keep(request: HttpRequest) -> HttpResponse:
    """Offer a guest to keep their games (GET); leave guest play for signup or ``next`` (POST).

    Leaving keeps a claim on the guest in the session: signing up in this browser turns the
    guest into the new account, games and all (see accounts.guests).
    """
    next_url = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = reverse("account_signup")
    if request.method == "POST":
        if is_guest(request.user):
            guest_leave(request, _player(request))
        return redirect(next_url)
    if not is_guest(request.user):
        return redirect("lobby:home")
    context = {"signup_open": settings.SIGNUP_MODE == "open", "waitlist_url": waitlist_url()}
    return render(request, "accounts/guest_keep.html", context)
