"""Reads: friends, friend requests, player search and invitations."""

from dataclasses import dataclass

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Lower

from accounts.models import FriendRequest, Friendship, Invitation, User

SEARCH_LIMIT = 20


def friends_of(user: User) -> QuerySet[User]:
    """Return the user's friends, by display name."""
    as_high = Friendship.objects.filter(user_low=user).values("user_high")
    as_low = Friendship.objects.filter(user_high=user).values("user_low")
    return User.objects.filter(Q(pk__in=as_high) | Q(pk__in=as_low)).order_by(
        Lower("display_name"), "pk"
    )


def are_friends(a: User, b: User) -> bool:
    """Tell whether the two users are friends."""
    if a.pk == b.pk:
        return False
    low, high = Friendship.ordered_ids(a, b)
    return Friendship.objects.filter(user_low_id=low, user_high_id=high).exists()


@dataclass(frozen=True)
class PendingRequests:
    incoming: QuerySet[FriendRequest]
    outgoing: QuerySet[FriendRequest]


def pending_requests_for(user: User) -> PendingRequests:
    """Return the requests waiting for the user's answer and those the user is waiting on.

    Requests the user sent by email address are left out of ``outgoing``: listing them would tell
    the sender which addresses belong to an account.
    """
    return PendingRequests(
        incoming=FriendRequest.objects.filter(to_user=user).select_related("from_user"),
        outgoing=FriendRequest.objects.filter(from_user=user, by_email=False).select_related(
            "to_user"
        ),
    )


def players() -> QuerySet[User]:
    """Return the accounts other players can find and befriend (never a guest)."""
    return User.objects.filter(
        is_active=True, is_guest=False, deleted_at__isnull=True, display_name__isnull=False
    )


def user_search(query: str, viewer: User) -> list[User]:
    """Find players by display name: the exact name first, then names that start with the query."""
    query = " ".join(query.split())
    if not query or "@" in query:
        return []
    exact_first = Case(
        When(display_name__iexact=query, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    matches = (
        players()
        .filter(display_name__istartswith=query)
        .exclude(pk=viewer.pk)
        .order_by(exact_first, Lower("display_name"))
    )
    return list(matches[:SEARCH_LIMIT])


@dataclass(frozen=True)
class Relations:
    """Who the viewer is linked to, to label search results."""

    friend_ids: frozenset[int]
    requested_ids: frozenset[int]
    requesting_ids: frozenset[int]


def relations_of(viewer: User) -> Relations:
    """Return the ids of the viewer's friends and of pending requests in either direction."""
    pending = pending_requests_for(viewer)
    return Relations(
        friend_ids=frozenset(friends_of(viewer).values_list("pk", flat=True)),
        requested_ids=frozenset(pending.outgoing.values_list("to_user_id", flat=True)),
        requesting_ids=frozenset(pending.incoming.values_list("from_user_id", flat=True)),
    )


def invitation_usable(token: str | None) -> Invitation | None:
    """Return the invitation with this token if it can still be used."""
    if not token:
        return None
    invitation = Invitation.objects.select_related("inviter").filter(token=token).first()
    if invitation is None or not invitation.is_usable:
        return None
    return invitation
