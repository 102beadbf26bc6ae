"""Writes: invitations, friend requests, friendships, account status and deletion, guests."""

import secrets
from collections.abc import Iterable
from functools import partial

from allauth.account.models import EmailAddress
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import tasks
from accounts.models import FriendRequest, Friendship, Invitation, User
from accounts.selectors import are_friends


@transaction.atomic
def invitation_create(*, email: str, inviter: User | None, language: str) -> Invitation:
    """Create an invitation and email its link, in the given language, once committed."""
    invitation = Invitation.objects.create(
        email=User.objects.normalize_email(email.strip()), inviter=inviter, language=language
    )
    transaction.on_commit(partial(tasks.send_invitation_email.delay, invitation.pk))
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> bool:
    """Mark the invitation as used by the user, who becomes the inviter's friend.

    Return False, changing nothing, when the invitation was used meanwhile or has expired.
    """
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_usable:
        return False
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    inviter = invitation.inviter
    if inviter is not None and inviter.pk != user.pk and inviter.is_active:
        _friendship_create(user, inviter)
    return True


def _friendship_create(a: User, b: User) -> Friendship:
    """Make the two users friends and drop the requests between them."""
    low, high = Friendship.ordered_ids(a, b)
    friendship, _created = Friendship.objects.get_or_create(user_low_id=low, user_high_id=high)
    FriendRequest.objects.filter(Q(from_user=a, to_user=b) | Q(from_user=b, to_user=a)).delete()
    return friendship


def _check_can_befriend(from_user: User, to_user: User) -> None:
    if from_user.pk == to_user.pk:
        raise ValidationError(_("You cannot be your own friend."), code="self")
    if not to_user.is_active or to_user.is_deleted:
        raise ValidationError(_("This player cannot receive friend requests."), code="inactive")


@transaction.atomic
def friend_request_send(*, from_user: User, to_user: User) -> FriendRequest | Friendship:
    """Ask to_user to be friends, or accept their own pending request to from_user.

    Asking twice returns the pending request and emails nothing new.
    """
    _check_can_befriend(from_user, to_user)
    if are_friends(from_user, to_user):
        raise ValidationError(_("You are already friends."), code="already_friends")
    reverse_request = FriendRequest.objects.select_for_update().filter(
        from_user=to_user, to_user=from_user
    )
    if reverse_request.exists():
        return _friendship_create(from_user, to_user)
    friend_request, created = FriendRequest.objects.get_or_create(
        from_user=from_user, to_user=to_user
    )
    if created:
        transaction.on_commit(partial(tasks.send_friend_request_email.delay, friend_request.pk))
    elif friend_request.by_email:
        # Asked again by name: the sender knows who it is now, so the request may be listed.
        friend_request.by_email = False
        friend_request.save(update_fields=["by_email"])
    return friend_request


@transaction.atomic
def friend_add_by_email(*, inviter: User, email: str, language: str) -> None:
    """Send a friend request to the account with this address, or else an invitation to join.

    Whatever happens, the inviter learns nothing about the address: a request made this way is
    kept out of the inviter's lists, and an address that is already a friend, already asked or
    already invited gets nothing new.
    """
    email = User.objects.normalize_email(email.strip())
    target = User.objects.filter(email__iexact=email).first()
    if target is None:
        already_invited = Invitation.objects.filter(
            inviter=inviter, email__iexact=email, accepted_at__isnull=True
        )
        if not any(invitation.is_usable for invitation in already_invited):
            invitation_create(email=email, inviter=inviter, language=language)
        return
    if (
        target.pk == inviter.pk
        or not target.is_active
        or target.is_deleted
        or are_friends(inviter, target)
        or FriendRequest.objects.filter(
            Q(from_user=inviter, to_user=target) | Q(from_user=target, to_user=inviter)
        ).exists()
    ):
        return
    friend_request = FriendRequest.objects.create(from_user=inviter, to_user=target, by_email=True)
    transaction.on_commit(partial(tasks.send_friend_request_email.delay, friend_request.pk))


@transaction.atomic
def friend_request_accept(*, friend_request: FriendRequest, user: User) -> Friendship:
    """Accept a request addressed to the user."""
    if friend_request.to_user_id != user.pk:
        raise PermissionDenied
    return _friendship_create(friend_request.from_user, user)


@transaction.atomic
def friend_request_decline(*, friend_request: FriendRequest, user: User) -> None:
    """Turn down a request addressed to the user."""
    if friend_request.to_user_id != user.pk:
        raise PermissionDenied
    friend_request.delete()


@transaction.atomic
def friend_request_cancel(*, friend_request: FriendRequest, user: User) -> None:
    """Withdraw a request the user sent."""
    if friend_request.from_user_id != user.pk:
        raise PermissionDenied
    friend_request.delete()


@transaction.atomic
def friendship_remove(*, user: User, friend: User) -> bool:
    """End a friendship; return False when the two were not friends."""
    low, high = Friendship.ordered_ids(user, friend)
    deleted, _rows = Friendship.objects.filter(user_low_id=low, user_high_id=high).delete()
    return deleted > 0


@transaction.atomic
def user_delete_account(*, user: User) -> None:
    """Erase the player's personal data and keep an anonymous, inactive row.

    Finished games keep pointing at the row and show it as a deleted player.
    """
    Friendship.objects.filter(Q(user_low=user) | Q(user_high=user)).delete()
    FriendRequest.objects.filter(Q(from_user=user) | Q(to_user=user)).delete()
    Invitation.objects.filter(
        Q(inviter=user) | Q(accepted_by=user) | Q(email__iexact=user.email)
    ).delete()
    EmailAddress.objects.filter(user=user).delete()
    user.email = f"deleted-{user.pk}@deleted.invalid"
    user.display_name = None
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.deleted_at = timezone.now()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


@transaction.atomic
def users_set_active(*, users: Iterable[User], active: bool) -> int:
    """Deactivate or reactivate accounts (never deleted ones); return how many changed."""
    ids = [user.pk for user in users if not user.is_deleted and user.is_active != active]
    return User.objects.filter(pk__in=ids, deleted_at__isnull=True).update(is_active=active)


def email_verification_resend(*, request: HttpRequest, user: User) -> bool:
    """Send the user a new verification link; return False when the address is verified."""
    if user.is_deleted:
        return False
    address = EmailAddress.objects.filter(user=user, email__iexact=user.email).first()
    if address is None:
        address = EmailAddress.objects.create(
            user=user, email=user.email, primary=True, verified=False
        )
    if address.verified:
        return False
    address.send_confirmation(request)
    return True


@transaction.atomic
def user_profile_update(*, user: User, display_name: str, preferred_language: str) -> User:
    """Change the player's display name and preferred language."""
    user.display_name = display_name
    user.preferred_language = preferred_language
    user.full_clean(exclude=["password"])
    user.save(update_fields=["display_name", "preferred_language"])
    return user


# Four digits while they last; a name that is taken is drawn again, with six after a few tries.
GUEST_NAME_ATTEMPTS = 12
GUEST_SHORT_NAME_ATTEMPTS = 6


def _guest_number(attempt: int) -> int:
    digits = 4 if attempt < GUEST_SHORT_NAME_ATTEMPTS else 6
    low = 10 ** (digits - 1)
    return low + secrets.randbelow(9 * low)


@transaction.atomic
def guest_create(*, language: str) -> User:
    """Make a guest player: a drawn name such as "Guest 4821", no email, no usable password.

    The name is written once in the visitor's language (the only person who sees it at their
    table), and is unique among all names whatever their case, as every display name is.
    """
    for attempt in range(GUEST_NAME_ATTEMPTS):
        with translation.override(language):
            name = gettext("Guest %(number)s") % {"number": _guest_number(attempt)}
        if User.objects.filter(display_name__iexact=name).exists():
            continue
        guest = User(email=None, display_name=name, preferred_language=language, is_guest=True)
        guest.set_unusable_password()
        try:
            with transaction.atomic():
                guest.save()
        except IntegrityError:
            continue  # another visitor drew the same name meanwhile
        return guest
    raise RuntimeError("no free guest name was found")


@transaction.atomic
def guest_convert(*, guest_id: int, account: User) -> User | None:
    """Turn a guest into the account just signed up, keeping every game the guest played.

    ``account`` is the unsaved user the signup form filled in. The guest's own row takes its
    email, password, name and language, so the rooms, seats and actions that point at the guest
    now belong to the account, and nothing has to move. Return None, changing nothing, when the
    guest is gone (deleted as inactive, or already turned into an account by another signup).
    """
    guest = User.objects.select_for_update().filter(pk=guest_id, is_guest=True).first()
    if guest is None:
        return None
    guest.email = account.email
    guest.password = account.password
    guest.display_name = account.display_name
    guest.preferred_language = account.preferred_language
    guest.is_guest = False
    guest.date_joined = timezone.now()
    guest.save()
    return guest


@transaction.atomic
def staff_user_ensure(*, email: str, password: str, display_name: str) -> tuple[User, bool]:
    """Make the account with this address a superuser with this password and a verified,
    primary address, so that they can log in at once; return it and whether it is new.

    For development, where no one should have to read a verification email first.
    """
    user = User.objects.filter(email__iexact=email).first()
    created = user is None
    if user is None:
        user = User(email=email, display_name=display_name)
    user.is_staff = user.is_superuser = user.is_active = True
    user.set_password(password)
    user.full_clean(exclude=["password"] if created else ["password", "display_name"])
    user.save()
    # allauth keeps addresses in lower case and looks them up so.
    address, _new = EmailAddress.objects.get_or_create(
        user=user, email__iexact=email, defaults={"email": email.lower()}
    )
    EmailAddress.objects.filter(user=user).exclude(pk=address.pk).update(primary=False)
    address.verified = address.primary = True
    address.save(update_fields=["verified", "primary"])
    return user, created
