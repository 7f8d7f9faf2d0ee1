from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import Claim, Contribution, Jackpot


@admin.register(Jackpot)
class JackpotAdmin(admin.ModelAdmin):
    list_display = ["name", "casino", "balance", "is_collecting", "qualifying_hand"]
    readonly_fields = ["balance"]


@admin.register(Contribution)
class ContributionAdmin(AppendOnlyAdmin):
    list_display = ["round_of_play", "table", "gaming_day", "amount"]


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ["round_of_play", "seat", "losing_hand", "winning_hand", "status"]
