from django.contrib import admin

from .models import PokerTable


@admin.register(PokerTable)
class PokerTableAdmin(admin.ModelAdmin):
    list_display = ["number", "casino", "game", "betting_structure", "seats", "is_open", "bad_beat_participation"]
    list_filter = ["casino", "game", "is_open"]
    #: A table opens and closes from the floor or the API (apps.tables.services.open_table/close_table), each time
    #: with its record (TableStatusChange): never by a checkbox that records nothing.
    readonly_fields = ["is_open", "opened_at"]
