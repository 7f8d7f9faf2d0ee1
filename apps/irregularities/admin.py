from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import Irregularity, IrregularityResolution


@admin.register(Irregularity)
class IrregularityAdmin(AppendOnlyAdmin):
    list_display = ["at", "table", "kind", "deck", "round_of_play", "reported_by"]
    list_filter = ["kind", "gaming_day"]


@admin.register(IrregularityResolution)
class IrregularityResolutionAdmin(AppendOnlyAdmin):
    list_display = ["resolved_at", "irregularity", "resolved_by", "note"]
