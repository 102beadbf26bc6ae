from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Match, Room, RoomSeat, Round, RoundAction


class RoomSeatInline(admin.TabularInline):
    model = RoomSeat
    extra = 0
    fields = ("seat", "user", "is_bot", "away", "disconnected_at")
    raw_id_fields = ("user",)


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "title",
        "owner",
        "status",
        "variant",
        "players",
        "target",
        "bot_level",
        "turn_seconds",
        "changed",
        "created",
    )
    list_display_links = ("id", "title")
    list_select_related = ("owner",)
    list_filter = ("status", "variant", "players", "bot_level", "target")
    search_fields = ("name", "owner__email", "owner__display_name")
    raw_id_fields = ("owner",)
    exclude = ("invite_token",)
    inlines = (RoomSeatInline,)

    @admin.display(description=_("name"), ordering="name")
    def title(self, room: Room) -> str:
        """Show the name players read, the default one included."""
        return room.title


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "dealer", "status", "result")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "status", "winner", "totals", "created")
    list_filter = ("status",)
    raw_id_fields = ("room",)
    inlines = (RoundInline,)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    # The dealt hands and a classic deal's stock stay out of the admin pages: staff see the
    # log (and the turned card, which everyone saw), as in a hand record.
    list_display = ("id", "match", "number", "dealer", "status")
    list_filter = ("status",)
    exclude = ("hands", "stock")
    readonly_fields = (
        "match",
        "number",
        "dealer",
        "turned",
        "deck_handling",
        "cut",
        "status",
        "result",
    )


@admin.register(RoundAction)
class RoundActionAdmin(admin.ModelAdmin):
    list_display = ("round", "seq", "seat", "action", "is_bot", "created")
    readonly_fields = ("round", "seq", "seat", "action", "actor", "is_bot")
