from django.contrib import admin, messages

from apps.core.admin import AppendOnlyAdmin
from apps.core.exceptions import DomainError

from .models import (
    Claim,
    ClaimShare,
    Contribution,
    DailyReset,
    DisplayAdjustment,
    Jackpot,
    Payout,
    PayoutNotification,
    ResetSeed,
    RuleChange,
    Transfer,
)
from .services import withdraw_rule_change


@admin.register(Jackpot)
class JackpotAdmin(admin.ModelAdmin):
    """Balances move only through the services (contributions, payouts, transfers, resets)."""

    list_display = ["name", "casino", "kind", "status", "balance", "reset_reserve", "displayed_amount", "is_collecting"]
    readonly_fields = ["balance", "reset_reserve", "displayed_amount", "status"]


@admin.register(Contribution)
class ContributionAdmin(AppendOnlyAdmin):
    list_display = ["round_of_play", "jackpot", "table", "gaming_day", "amount", "to_reset"]


@admin.register(Claim)
class ClaimAdmin(admin.ModelAdmin):
    list_display = ["round_of_play", "jackpot", "seat", "losing_hand", "winning_hand", "status", "payout_amount"]
    readonly_fields = ["status", "payout_amount", "evaluation", "decided_by", "decided_at"]


for model, columns in ((ClaimShare, ["claim", "seat", "role", "amount"]),
                       (Payout, ["claim", "debited", "amount", "method", "location", "delivered_by", "paid_at"]),
                       (ResetSeed, ["jackpot", "amount", "created_at"]),
                       (DailyReset, ["jackpot", "gaming_day", "contributions", "percentage", "amount"]),
                       (Transfer, ["source", "target", "amount", "reset_amount", "made_by", "created_at"]),
                       (DisplayAdjustment, ["jackpot", "previous_amount", "displayed_amount", "adjusted_by",
                                            "supervisor_present", "created_at"])):
    admin.site.register(model, type(f"{model.__name__}Admin", (AppendOnlyAdmin,), {"list_display": columns}))


@admin.register(RuleChange)
class RuleChangeAdmin(admin.ModelAdmin):
    """Notices of rule changes (14.19(q)-notice): a failed one shows its reason; the status moves only through the
    services (applied by the scheduled job, withdrawn by the action below, the rules page or the API)."""

    list_display = ["jackpot", "summary", "effective_at", "status", "failure_reason", "failed_at",
                    "makes_qualifying_harder"]
    list_filter = ["status", "jackpot__casino"]
    search_fields = ["summary", "failure_reason"]
    readonly_fields = ["changes", "makes_qualifying_harder", "status", "applied_at", "proposed_by", "failure_reason",
                       "failed_at", "withdrawn_by", "withdrawn_at"]
    actions = ["withdraw"]

    @admin.action(description="Withdraw the selected scheduled changes (14.19(q))")
    def withdraw(self, request, queryset):
        done = 0
        for change in queryset.order_by("pk"):
            try:
                withdraw_rule_change(change=change, withdrawn_by=request.user)
            except DomainError as exc:
                self.message_user(request, f"Rule change {change.pk}: {exc.message}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"{done} rule change(s) withdrawn.", messages.SUCCESS)


@admin.register(PayoutNotification)
class PayoutNotificationAdmin(admin.ModelAdmin):
    list_display = ["claim", "message", "created_at", "acknowledged_by", "acknowledged_at"]
