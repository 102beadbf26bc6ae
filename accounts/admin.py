"""Staff tools for players, invitations and friendships.

The admin's own login form is replaced by the site's (allauth's) login, which is rate limited.
"""

from typing import Any

from allauth.account.models import EmailAddress
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import selectors, services
from accounts.models import FriendRequest, Friendship, Invitation, User


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """Send visitors to the site's rate-limited login; refuse players who are not staff."""
    next_url = request.GET.get(REDIRECT_FIELD_NAME, "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = reverse("admin:index")
    if not request.user.is_authenticated:
        return redirect_to_login(next_url, login_url=reverse("account_login"))
    if request.user.is_active and request.user.is_staff:
        return redirect(next_url)
    raise PermissionDenied


admin.site.login = admin_login  # type: ignore[method-assign]


class VerifiedEmailFilter(admin.SimpleListFilter):
    title = _("verified email")
    parameter_name = "verified"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        verified = Exists(EmailAddress.objects.filter(user=OuterRef("pk"), verified=True))
        if self.value() == "yes":
            return queryset.filter(verified)
        if self.value() == "no":
            return queryset.filter(~verified)
        return queryset


class GuestFilter(admin.SimpleListFilter):
    """Players with an account, or guests (visitors playing the computers), each with its count."""

    title = _("account")
    parameter_name = "guest"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        counts = User.objects.aggregate(
            guests=Count("pk", filter=Q(is_guest=True)),
            players=Count("pk", filter=Q(is_guest=False)),
        )
        return [
            ("no", _("Players (%(count)d)") % {"count": counts["players"]}),
            ("yes", _("Guests (%(count)d)") % {"count": counts["guests"]}),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(is_guest=self.value() == "yes")
        return queryset


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    ordering = ("-date_joined",)
    list_display = ("email", "display_name", "is_guest", "is_active", "is_staff", "date_joined")
    list_filter = (GuestFilter, "is_active", VerifiedEmailFilter, "is_staff", "date_joined")
    search_fields = ("email", "display_name")
    readonly_fields = ("friends", "is_guest", "deleted_at", "last_login", "date_joined")
    actions = ("deactivate", "reactivate", "resend_verification")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (
            _("Profile"),
            {"fields": ("display_name", "preferred_language", "is_guest", "friends")},
        ),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Important dates"), {"fields": ("last_login", "date_joined", "deleted_at")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)

    @admin.display(description=_("friends"))
    def friends(self, user: User) -> str:
        return ", ".join(friend.table_name for friend in selectors.friends_of(user)) or "—"

    @admin.action(description=_("Deactivate the selected users"))
    def deactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = services.users_set_active(users=queryset, active=False)
        self.message_user(
            request,
            ngettext("%(count)d user deactivated.", "%(count)d users deactivated.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Reactivate the selected users"))
    def reactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = services.users_set_active(users=queryset, active=True)
        self.message_user(
            request,
            ngettext("%(count)d user reactivated.", "%(count)d users reactivated.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("Resend the email verification link"))
    def resend_verification(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        count = sum(
            services.email_verification_resend(request=request, user=user) for user in queryset
        )
        self.message_user(
            request,
            ngettext(
                "Verification link sent to %(count)d user.",
                "Verification link sent to %(count)d users.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("email", "inviter", "language", "created_at", "accepted_at", "accepted_by")
    list_filter = ("language", "created_at", "accepted_at")
    search_fields = ("email", "inviter__email", "inviter__display_name")
    raw_id_fields = ("inviter", "accepted_by")
    readonly_fields = ("token", "created_at", "accepted_at", "accepted_by")
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ("user_low", "user_high", "created_at")
    search_fields = (
        "user_low__email",
        "user_low__display_name",
        "user_high__email",
        "user_high__display_name",
    )
    raw_id_fields = ("user_low", "user_high")


@admin.register(FriendRequest)
class FriendRequestAdmin(admin.ModelAdmin):
    list_display = ("from_user", "to_user", "by_email", "created_at")
    list_filter = ("by_email", "created_at")
    search_fields = (
        "from_user__email",
        "from_user__display_name",
        "to_user__email",
        "to_user__display_name",
    )
    raw_id_fields = ("from_user", "to_user")
