import factory
from allauth.account.models import EmailAddress

from accounts.models import FriendRequest, Invitation, User

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
