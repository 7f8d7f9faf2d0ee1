from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import (
    AggregateCountVerification,
    BadBeatCount,
    CombinedContainer,
    CombinedCount,
    FormBook,
    FormReceipt,
    MasterGameReportAdjustment,
    Reconciliation,
)

for model, columns in ((BadBeatCount, ["serial_number", "table", "gaming_day", "method", "amount", "expected",
                                       "variance", "counted_by", "witness"]),
                       (FormReceipt, ["form", "part", "received_by", "received_at"]),
                       (MasterGameReportAdjustment, ["gaming_day", "table", "form", "amount"]),
                       (CombinedContainer, ["casino", "gaming_day", "sealed_at", "aggregate", "combined_by",
                                            "transported_by"]),
                       (CombinedCount, ["container", "count"]),
                       (AggregateCountVerification, ["container", "amount", "variance", "verified_by", "verified_at"])):
    admin.site.register(model, type(f"{model.__name__}Admin", (AppendOnlyAdmin,), {"list_display": columns}))


@admin.register(Reconciliation)
class ReconciliationAdmin(AppendOnlyAdmin):
    list_display = ["casino", "gaming_day", "status", "forms", "originals", "duplicates", "revenue_adjustment"]


@admin.register(FormBook)
class FormBookAdmin(admin.ModelAdmin):
    """The next serial of the pre-numbered forms; set when a new stock of forms is received."""

    list_display = ["casino", "next_serial"]
