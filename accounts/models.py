"""Users: the email is the login; the display name is what the table shows."""

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(
        _("display name"),
        max_length=30,
        unique=True,
        null=True,
        blank=True,
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
    date_joined = models.DateTimeField(_("date joined"), default=timezone.now)

    objects = UserManager()

    EMAIL_FIELD = "email"
    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints: ClassVar = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
            models.UniqueConstraint(
                Lower("display_name"), name="accounts_user_display_name_ci_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.email

    def clean(self) -> None:
        super().clean()
        self.email = self.__class__.objects.normalize_email(self.email)

    @property
    def table_name(self) -> str:
        """Return the name shown at the table, never the email."""
        return self.display_name or _("Player %(id)s") % {"id": self.pk}
