from django.contrib import admin

from apps.core.admin import AppendOnlyAdmin

from .models import (
    BadBeatCount,
    FormBook,
    FormReceipt,
    MasterGameReportAdjustment,
    Reconciliation,
)

for model, columns in ((BadBeatCount, ["serial_number", "table", "gaming_day", "method", "amount", "expected",
                                       "variance", "counted_by", "witness"]),
                       (FormReceipt, ["form", "part", "received_by", "received_at"]),
                       (MasterGameReportAdjustment, ["gaming_day", "table", "form", "amount"])):
    admin.site.register(model, type(f"{model.__name__}Admin", (AppendOnlyAdmin,), {"list_display": columns}))


@admin.register(Reconciliation)
class ReconciliationAdmin(AppendOnlyAdmin):
    list_display = ["casino", "gaming_day", "status", "forms", "originals", "duplicates", "revenue_adjustment"]


@admin.register(FormBook)
class FormBookAdmin(admin.ModelAdmin):
    """The next serial of the pre-numbered forms; set when a new stock of forms is received."""

    list_display = ["casino", "next_serial"]
