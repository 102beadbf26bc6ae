"""Users, invitations and friendships.

The email is the login; the display name is what the table shows. A deleted account keeps its row,
emptied of personal data, so that finished games still point at a "Deleted player". A guest is a
visitor who plays the computers without an account: a row with no email and no usable password,
bound to one browser's session, and deleted some days after its last game.
"""

import secrets
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.validators import DISPLAY_NAME_MAX_LENGTH, validate_display_name


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **fields: Any) -> "User":
        if not email:
            raise ValueError("The email must be set")
        user = self.model(email=self.normalize_email(email), **fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **fields: Any) -> "User":
        """Create a player."""
        fields.setdefault("is_staff", False)
        fields.setdefault("is_superuser", False)
        return self._create_user(email, password, **fields)

    def create_superuser(self, email: str, password: str | None = None, **fields: Any) -> "User":
        """Create a staff member with every permission."""
        fields["is_staff"] = True
        fields["is_superuser"] = True
        return self._create_user(email, password, **fields)

    def get_by_natural_key(self, username: str | None) -> "User":
        """Find a user by email, whatever its case."""
        return self.get(**{f"{self.model.USERNAME_FIELD}__iexact": username})


class User(AbstractBaseUser, PermissionsMixin):
    # Every account has an address; a guest has none: NULL, which never clashes with another
    # NULL under the unique constraints, where "" would.
    email = models.EmailField(_("email address"), unique=True, null=True)  # noqa: DJ001
    display_name = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        unique=True,
        null=True,
        blank=True,
        validators=[validate_display_name],
        help_text=_("The name other players see at the table."),
    )
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    is_staff = models.BooleanField(
        _("staff status"),
        default=False,
        help_text=_("Designates whether the user can log into the admin site."),
    )
    is_active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("Unselect this instead of deleting accounts."),
    )
    is_guest = models.BooleanField(
        _("guest"),
        default=False,
        db_index=True,
        help_text=_("Plays the computers from one browser, without an account."),
    )
    date_joined = models.DateTimeField(_("date joined"), default=timezone.now)
    deleted_at = models.DateTimeField(
        _("deleted"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("When the player deleted the account and its personal data."),
    )

    objects = UserManager()

    EMAIL_FIELD = "email"
    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints: ClassVar = [
            models.UniqueConstraint(
                Lower("email"),
                name="accounts_user_email_ci_unique",
                violation_error_message=_("A user with this email address already exists."),
            ),
            models.UniqueConstraint(
                Lower("display_name"),
                name="accounts_user_display_name_ci_unique",
                violation_error_message=_("This display name is taken."),
            ),
            models.CheckConstraint(
                condition=models.Q(is_guest=True, email__isnull=True)
                | models.Q(is_guest=False, email__isnull=False),
                name="accounts_user_email_unless_guest",
                violation_error_message=_("An account needs an email address; a guest has none."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.email or str(self.pk)

    def clean(self) -> None:
        super().clean()
        if self.email is not None:
            self.email = self.__class__.objects.normalize_email(self.email)

    @property
    def is_deleted(self) -> bool:
        """Tell whether the player deleted this account."""
        return self.deleted_at is not None

    @property
    def table_name(self) -> str:
        """Return the name shown at the table, never the email."""
        if self.is_deleted:
            return gettext("Deleted player")
        return self.display_name or gettext("Player %(id)s") % {"id": self.pk}


def new_invitation_token() -> str:
    """Return an unguessable token for an invitation link."""
    return secrets.token_urlsafe(32)


class Invitation(models.Model):
    """A link that lets someone sign up, sent by a friend or by the staff."""

    email = models.EmailField(_("email address"))
    inviter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("inviter"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations_sent",
        help_text=_("Empty for invitations from the staff or the waitlist."),
    )
    token = models.CharField(
        _("token"), max_length=64, unique=True, editable=False, default=new_invitation_token
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("The language of the invitation email."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("accepted by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering: ClassVar = ["-created_at"]

    def __str__(self) -> str:
        return self.email

    @property
    def expires_at(self) -> datetime:
        """Return the moment the link stops working."""
        return self.created_at + timedelta(days=settings.INVITATION_MAX_AGE_DAYS)

    @property
    def is_expired(self) -> bool:
        """Tell whether the link is too old to use."""
        return timezone.now() >= self.expires_at

    @property
    def is_usable(self) -> bool:
        """Tell whether someone can still sign up with this invitation."""
        return self.accepted_at is None and not self.is_expired


class Friendship(models.Model):
    """Two players who are friends, stored once with the lower id first."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_as_low"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships_as_high"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["user_low", "user_high"], name="accounts_friendship_unique_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(user_low__lt=models.F("user_high")),
                name="accounts_friendship_ordered_pair",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_low} & {self.user_high}"

    @staticmethod
    def ordered_ids(a: "User", b: "User") -> tuple[int, int]:
        """Return the two users' ids in the order they are stored."""
        return (a.pk, b.pk) if a.pk < b.pk else (b.pk, a.pk)


class FriendRequest(models.Model):
    """A pending request to become friends; it is deleted once answered or withdrawn."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=pgettext_lazy("friend request", "from"),
        on_delete=models.CASCADE,
        related_name="friend_requests_sent",
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=pgettext_lazy("friend request", "to"),
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    by_email = models.BooleanField(
        _("sent by email address"),
        default=False,
        help_text=_(
            "Hidden from the sender's lists, so that an email address never reveals an account."
        ),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        ordering: ClassVar = ["-created_at"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["from_user", "to_user"], name="accounts_friendrequest_unique_pending"
            ),
            models.CheckConstraint(
                condition=~models.Q(from_user=models.F("to_user")),
                name="accounts_friendrequest_not_to_self",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_user} → {self.to_user}"
