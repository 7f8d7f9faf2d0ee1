from django.contrib import admin

from .models import Irregularity


@admin.register(Irregularity)
class IrregularityAdmin(admin.ModelAdmin):
    list_display = ["at", "table", "kind", "deck", "round_of_play", "reported_by"]
    list_filter = ["kind", "gaming_day"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
