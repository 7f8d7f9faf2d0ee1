from django.contrib import admin

from .models import PokerTable


@admin.register(PokerTable)
class PokerTableAdmin(admin.ModelAdmin):
    list_display = ["number", "casino", "game", "betting_structure", "seats", "is_open", "bad_beat_participation"]
    list_filter = ["casino", "game", "is_open"]
