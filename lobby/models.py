"""Lobby models: the public waitlist."""

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

# ---------------------------------------------------------------------------------------------
# Waitlist
# ---------------------------------------------------------------------------------------------


class WaitlistEntry(models.Model):
    """One address on the waitlist, from signup through double opt-in to the invitation."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        UNSUBSCRIBED = "unsubscribed", _("unsubscribed")
        INVITED = "invited", _("invited")

    email = models.EmailField(_("email address"), max_length=254)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("signed up"), auto_now_add=True)
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    unsubscribed_at = models.DateTimeField(_("unsubscribed"), null=True, blank=True)
    invited_at = models.DateTimeField(_("invited"), null=True, blank=True)
    # A keyed hash, never the address itself: enough to spot abuse from one source.
    ip_hash = models.CharField(_("IP hash"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("waitlist entry")
        verbose_name_plural = _("waitlist entries")
        ordering = ("-created_at",)
        constraints: ClassVar = [
            models.UniqueConstraint(Lower("email"), name="lobby_waitlist_email_ci_unique"),
        ]
        indexes: ClassVar = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return self.email
