"""allauth, fitted to Pilotta.io: invitation-only signup (a room's share link counts as an
invitation), display names, languages, Celery mail."""

from functools import partial
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.core.exceptions import ImmediateHttpResponse
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import tasks
from accounts.guests import guest_claim_forget, guest_claimed
from accounts.invitations import invitation_in_session
from accounts.language import set_language_cookie, url_in_language
from accounts.models import User
from accounts.services import guest_convert
from config.clientip import client_ip
from games.invite_links import room_link_opens_signup, room_link_seat


def waitlist_url() -> str:
    """Return the waitlist's own page if the lobby has one, else the landing page's form."""
    try:
        return reverse("lobby:waitlist")
    except NoReverseMatch:
        return f"{reverse('lobby:home')}#waitlist"


def _as_player(user: object) -> User:
    assert isinstance(user, User)
    return user


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """Let anyone sign up in open mode; otherwise only holders of a usable invitation, or of
        a room's share link that may still seat them."""
        if (
            settings.SIGNUP_MODE == "open"
            or invitation_in_session(request) is not None
            or room_link_opens_signup(request)
        ):
            return True
        messages.info(
            request,
            _("Signing up is by invitation for now. Join the waitlist and we will invite you."),
        )
        raise ImmediateHttpResponse(redirect(waitlist_url()))

    def get_client_ip(self, request: HttpRequest) -> str:
        """Key allauth's per-address limits on the address our own limits use."""
        address = client_ip(request)
        if not address:
            raise PermissionDenied("Unable to determine client IP address")
        return address

    def is_email_verified(self, request: HttpRequest, email: str) -> bool:
        """Trust the address an invitation was sent to: its holder followed the emailed link."""
        invitation = invitation_in_session(request)
        if invitation is not None and invitation.email.lower() == email.lower():
            return True
        return super().is_email_verified(request, email)

    def save_user(
        self, request: HttpRequest, user: AbstractBaseUser, form: BaseForm, commit: bool = True
    ) -> AbstractBaseUser:
        """Save the display name and take the signup page's language as the preferred one.

        A guest who left their table to sign up becomes the new account, games and all.
        """
        player = _as_player(super().save_user(request, user, form, commit=False))
        player.display_name = form.cleaned_data["display_name"]
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            player.preferred_language = language
        if not commit:
            return player
        guest = guest_claimed(request)
        if guest is not None:
            guest_claim_forget(request)
            if (converted := guest_convert(guest_id=guest.pk, account=player)) is not None:
                return converted
        player.save()
        return player

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Land on the default page in the player's preferred language."""
        url = super().get_login_redirect_url(request)
        return url_in_language(url, _as_player(request.user).preferred_language)

    def post_login(
        self, request: HttpRequest, user: AbstractBaseUser, **kwargs: Any
    ) -> HttpResponse:
        """Log in as allauth does, then remember the player's preferred language.

        A newcomer who signed up through a room's share link is seated and lands at its table.
        """
        player = _as_player(user)
        if (landing := room_link_seat(request, player)) is not None:
            kwargs["redirect_url"] = url_in_language(landing, player.preferred_language)
        response = super().post_login(request, user, **kwargs)
        set_language_cookie(response, player.preferred_language)
        return response

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Render the message now, in the page's language, and let Celery send it after commit."""
        request = allauth_context.request
        context = {
            "request": request,
            "email": email,
            "current_site": get_current_site(request),
            **context,
        }
        message = self.render_mail(template_prefix, email, context)
        alternatives = getattr(message, "alternatives", [])
        html = next((str(body) for body, mimetype in alternatives if mimetype == "text/html"), None)
        transaction.on_commit(
            partial(
                tasks.send_rendered_email.delay,
                subject=str(message.subject),
                body=str(message.body),
                to=list(message.to),
                html=html,
                from_email=message.from_email,
                headers=dict(message.extra_headers) or None,
            )
        )
