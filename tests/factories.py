"""Test data for every test folder: players, invitations, friend requests and rooms."""

import itertools
import re
from typing import Any

import factory
from allauth.account.models import EmailAddress

from accounts.models import FriendRequest, Invitation, User
from games.models import Room
from games.services import rooms as room_services

PASSWORD = "kafenio-Table-2024"


class UserFactory(factory.django.DjangoModelFactory):
    """A player whose email address is verified, so that they can log in."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"player{n}@example.com")
    display_name = factory.Sequence(lambda n: f"Player{n}")
    preferred_language = "en"
    password = factory.django.Password(PASSWORD)

    @factory.post_generation
    def verified(self, create: bool, extracted: bool | None, **kwargs: object) -> None:
        if create and extracted is not False:
            EmailAddress.objects.create(user=self, email=self.email, primary=True, verified=True)


class InvitationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invitation

    email = factory.Sequence(lambda n: f"guest{n}@example.com")
    inviter = factory.SubFactory(UserFactory)
    language = "en"


class FriendRequestFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = FriendRequest

    from_user = factory.SubFactory(UserFactory)
    to_user = factory.SubFactory(UserFactory)


_names = itertools.count(1)


def make_user(name: str | None = None, language: str = "en") -> User:
    """Create a verified player called ``name`` (a fresh name when None)."""
    number = next(_names)
    user = UserFactory.create(
        email=f"seat-player{number}@example.com",
        display_name=name or f"Player{number}",
        preferred_language=language,
    )
    assert isinstance(user, User)
    return user


def seated_room(players: list[User], **settings: Any) -> Room:
    """Open a room owned by players[0] with the four players in seats 0 to 3."""
    room = room_services.room_create(owner=players[0], **settings)
    for seat, player in enumerate(players[1:], start=1):
        room_services.room_take_seat(
            room_id=room.pk, user=player, seat=seat, token=room.invite_token
        )
    return room


def bot_room(owner: User, **settings: Any) -> Room:
    """Open a room with its owner in seat 0 and computers in seats 1 to 3."""
    room = room_services.room_create(owner=owner, **settings)
    for seat in (1, 2, 3):
        room_services.room_fill_seat_with_bot(room_id=room.pk, user=owner, seat=seat)
    return room


def signup_data(
    email: str = "maria@example.com", display_name: str = "Maria", **overrides: str
) -> dict[str, str]:
    """Return the sign-up form's fields for a new player, the password typed twice."""
    return {
        "email": email,
        "display_name": display_name,
        "password1": PASSWORD,
        "password2": PASSWORD,
    } | overrides


def confirmation_link(message: Any) -> str:
    """Return the email-confirmation link an email carries."""
    found = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body)
    assert found is not None, message.body
    return found.group(0)
