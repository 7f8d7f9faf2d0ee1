from django.contrib import admin

from .models import Claim, Contribution, Jackpot


@admin.register(Jackpot)
class JackpotAdmin(admin.ModelAdmin):
    list_display = ["name", "casino", "balance", "is_collecting", "qualifying_hand"]
    readonly_fields = ["balance"]


@admin.register(Contribution)
class ContributionAdmin(admin.ModelAdmin):
    list_display = ["round_of_play", "table", "gaming_day", "amount"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ["round_of_play", "seat", "losing_hand", "winning_hand", "status"]
