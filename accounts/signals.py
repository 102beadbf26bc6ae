"""Accept the invitation a new player signed up with."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.invitations import invitation_forget, invitation_in_session
from accounts.models import User
from accounts.services import invitation_accept


@receiver(user_signed_up, dispatch_uid="accounts_accept_invitation")
def accept_invitation_on_signup(
    sender: Any, request: HttpRequest, user: User, **kwargs: Any
) -> None:
    invitation = invitation_in_session(request)
    if invitation is not None:
        invitation_accept(invitation=invitation, user=user)
    invitation_forget(request)
