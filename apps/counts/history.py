"""The counts page's history tab (apps.core.history): each count and form of a gaming day as it was recorded (who
counted, who witnessed, the amount, the contributions it was compared with, 14.19(d)-place, 14.19(e)-cashier-counts,
14.19(f)) and each part of a form as accounting received it (14.19(g), 14.19(h)-reconcile), from their pghistory events.
Counts and receipts are append-only: each has one event, its recording. Read-only."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

from apps.casinos.models import Casino
from apps.core.history import Source, events_of
from apps.core.money import dollars
from apps.tables.models import PokerTable

from .models import BadBeatCount, FormReceipt

COUNT_FIELDS = {
    "table": "Table", "counted_at": "Counted at", "method": "Method", "reason": "Reason", "serial_number": "Form",
    "amount": "Counted", "chips": "Chips", "expected": "Contributions recorded", "variance": "Variance",
    "counted_by": "Counted by", "witness": "Witness", "witness_kind": "Witness as", "surveillance_recorded":
    "Under surveillance", "transported_by": "Transported by", "signed_in_person": "Signed in person",
    "recorded_by": "Recorded by", "gaming_day": "Gaming day",
}
RECEIPT_FIELDS = {"part": "Part", "received_by": "Received by", "received_at": "Received at"}


def _chips(chips: dict) -> str:
    """Chips counted, {denomination in dollars: number}: "3 × $1.00, 2 × $5.00"."""
    return ", ".join(f"{number} × {dollars(value)}" for value, number in sorted(chips.items(), key=lambda c: Decimal(c[0])))


def count_sources(*, casino: Casino, gaming_day: date, count_id: int | None = None) -> list[Source]:
    """The events of the casino's counts of `gaming_day` (or of the one count `count_id`) and of their forms' parts
    received: for the counts page's history tab (counts.view_counts)."""
    counts = BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day)
    if count_id is not None:
        counts = counts.filter(pk=count_id)
    serials = dict(counts.values_list("pk", "serial_number"))
    numbers = dict(PokerTable.objects.filter(casino=casino).values_list("pk", "number"))

    def count_label(event) -> str:
        where = f"table {numbers.get(event.table_id, '?')}"
        return f"Form {event.serial_number}, {where}" if event.serial_number else f"Count #{event.pgh_obj_id}, {where}"

    return [
        Source(events=events_of(BadBeatCount).filter(pgh_obj_id__in=list(serials)), fields=COUNT_FIELDS,
               record=count_label, formats={"chips": _chips, "table": lambda pk: str(numbers.get(pk, f"#{pk}"))}),
        Source(events=events_of(FormReceipt).filter(form_id__in=[pk for pk, s in serials.items() if s]),
               fields=RECEIPT_FIELDS, record=lambda e: f"Form {serials.get(e.form_id)}", created="Received"),
    ]
