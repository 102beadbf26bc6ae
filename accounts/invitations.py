"""Keep the invitation a visitor arrived with in their session until they sign up."""

from django.http import HttpRequest

from accounts.models import Invitation
from accounts.selectors import invitation_usable

SESSION_KEY = "accounts_invitation_token"


def invitation_remember(request: HttpRequest, invitation: Invitation) -> None:
    """Hold the invitation for the signup that follows."""
    request.session[SESSION_KEY] = invitation.token


def invitation_in_session(request: HttpRequest) -> Invitation | None:
    """Return the usable invitation held in the session, if any."""
    return invitation_usable(request.session.get(SESSION_KEY))


def invitation_forget(request: HttpRequest) -> None:
    """Drop the invitation from the session."""
    request.session.pop(SESSION_KEY, None)
