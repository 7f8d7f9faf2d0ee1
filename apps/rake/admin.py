from django.contrib import admin

from .models import RakeRecord, RakeStructure


@admin.register(RakeStructure)
class RakeStructureAdmin(admin.ModelAdmin):
    list_display = ["table", "method", "percentage", "maximum", "minimum_pot", "increment"]


@admin.register(RakeRecord)
class RakeRecordAdmin(admin.ModelAdmin):
    list_display = ["round_of_play", "table", "gaming_day", "amount", "basis"]
    list_filter = ["gaming_day"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
