from django.contrib import admin

from .models import Deck, DeckAlert, DeckEvent


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["serial", "casino", "back_colour", "status", "table", "in_use", "opened_at", "last_sorted_at"]
    list_filter = ["status", "casino"]


@admin.register(DeckEvent)
class DeckEventAdmin(admin.ModelAdmin):
    list_display = ["deck", "kind", "at", "table", "by", "card_count"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DeckAlert)
class DeckAlertAdmin(admin.ModelAdmin):
    list_display = ["table", "deck", "kind", "raised_at", "cleared_at"]
