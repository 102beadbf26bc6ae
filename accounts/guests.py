"""A guest's tie to one browser: the login that binds them, and the claim that outlives it.

A guest is logged in like any player (the table's socket serves authenticated users only), with
Django's model backend since they have no credentials. When they leave to sign up, the session
keeps a claim on the guest, so that the signup turns the guest into the new account (see
``accounts.services.guest_convert``) and Play now finds them again if they come back instead.
The session lives on the server: a claim cannot be forged by the browser.
"""

from django.contrib.auth import login, logout
from django.http import HttpRequest

from accounts.models import User

CLAIM_KEY = "accounts_guest_claim"
BACKEND = "django.contrib.auth.backends.ModelBackend"


def is_guest(user: object) -> bool:
    """Say whether the request's user (perhaps anonymous) is a guest."""
    return bool(getattr(user, "is_guest", False))


def guest_login(request: HttpRequest, guest: User) -> None:
    """Bind the guest to this browser's session."""
    login(request, guest, backend=BACKEND)


def guest_leave(request: HttpRequest, guest: User) -> None:
    """Log the guest out, keeping a claim on them in the new session."""
    logout(request)
    request.session[CLAIM_KEY] = guest.pk


def guest_claimed(request: HttpRequest) -> User | None:
    """Return the guest this session has a claim on, if they still exist."""
    guest_id = request.session.get(CLAIM_KEY)
    if not isinstance(guest_id, int):
        return None
    return User.objects.filter(pk=guest_id, is_guest=True, is_active=True).first()


def guest_claim_forget(request: HttpRequest) -> None:
    """Drop the claim, once it has been used."""
    request.session.pop(CLAIM_KEY, None)
