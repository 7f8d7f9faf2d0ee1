from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import Deck, DeckAlert, DeckEvent


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["serial", "casino", "back_colour", "status", "table", "in_use", "opened_at", "last_sorted_at"]
    list_filter = ["status", "casino"]


@admin.register(DeckEvent)
class DeckEventAdmin(AppendOnlyAdmin):
    list_display = ["deck", "kind", "at", "table", "by", "card_count"]


@admin.register(DeckAlert)
class DeckAlertAdmin(admin.ModelAdmin):
    list_display = ["table", "deck", "kind", "raised_at", "cleared_at"]
