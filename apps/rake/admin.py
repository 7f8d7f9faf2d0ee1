from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import RakeRecord, RakeStructure


@admin.register(RakeStructure)
class RakeStructureAdmin(admin.ModelAdmin):
    list_display = ["table", "method", "percentage", "maximum", "minimum_pot", "increment", "no_flop_no_drop"]


@admin.register(RakeRecord)
class RakeRecordAdmin(AppendOnlyAdmin):
    list_display = ["round_of_play", "table", "gaming_day", "amount", "basis"]
    list_filter = ["gaming_day"]
