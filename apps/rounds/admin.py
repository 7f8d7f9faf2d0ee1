from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import RoundOfPlay


@admin.register(RoundOfPlay)
class RoundOfPlayAdmin(AppendOnlyAdmin):
    list_display = ["id", "table", "started_at", "gaming_day", "pot_total", "went_to_showdown", "source"]
    list_filter = ["gaming_day", "source"]
