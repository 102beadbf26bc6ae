"""Staff tools for the waitlist: search, filters, CSV export and sign-up invitations."""

import csv

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from lobby import selectors, services
from lobby.models import WaitlistEntry


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(admin.ModelAdmin):
    list_display = ("email", "language", "status", "created_at", "confirmed_at", "invited_at")
    list_filter = ("status", "language", ("created_at", admin.DateFieldListFilter))
    search_fields = ("email",)
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    readonly_fields = (
        "email",
        "created_at",
        "confirmed_at",
        "unsubscribed_at",
        "invited_at",
        "ip_hash",
    )
    fields = ("email", "language", "status", *readonly_fields[1:])
    actions = ("export_csv", "send_invitations")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Addresses join through the double opt-in only, never typed in by staff.
        return False

    @admin.action(description=_("Export selected as CSV"), permissions=["view"])
    def export_csv(self, request: HttpRequest, queryset: QuerySet[WaitlistEntry]) -> HttpResponse:
        """Download the selected entries as a CSV file."""
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="waitlist-{stamp}.csv"'
        writer = csv.writer(response)
        writer.writerows(selectors.waitlist_export_rows(entries=queryset.order_by("created_at")))
        return response

    @admin.action(description=_("Send an invitation to sign up"), permissions=["change"])
    def send_invitations(self, request: HttpRequest, queryset: QuerySet[WaitlistEntry]) -> None:
        """Invite the confirmed entries to sign up; skip the others and say so."""
        invited, skipped = services.waitlist_invite(entries=queryset)
        if invited:
            message = ngettext(
                "Sent %(count)d invitation.", "Sent %(count)d invitations.", invited
            ) % {"count": invited}
            self.message_user(request, message, messages.SUCCESS)
        if skipped:
            message = ngettext(
                "Skipped %(count)d entry: only confirmed addresses can be invited.",
                "Skipped %(count)d entries: only confirmed addresses can be invited.",
                skipped,
            ) % {"count": skipped}
            self.message_user(request, message, messages.WARNING)
