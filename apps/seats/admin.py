from django.contrib import admin

from .models import RoomRules, Waitlist


@admin.register(RoomRules)
class RoomRulesAdmin(admin.ModelAdmin):
    """The room's posted seat and waitlist rules (one row per casino)."""

    list_display = ("casino", "away_limit_minutes", "check_in_minutes", "call_minutes", "table_change_minutes",
                    "feed_absent_rounds", "feed_absent_minutes", "retention_hours")


@admin.register(Waitlist)
class WaitlistAdmin(admin.ModelAdmin):
    list_display = ("casino", "game", "limits", "must_move_table")
    fields = ("casino", "key", "game", "limits", "rotation", "must_move_table")
    readonly_fields = ("casino", "key", "game", "limits", "rotation")

    def has_add_permission(self, request) -> bool:  # lists are started from the board (services.start_list)
        return False
