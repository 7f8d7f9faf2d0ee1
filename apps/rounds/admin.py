from django.contrib import admin

from .models import RoundOfPlay


@admin.register(RoundOfPlay)
class RoundOfPlayAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "started_at", "gaming_day", "pot_total", "went_to_showdown", "source"]
    list_filter = ["gaming_day", "source"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
