"""Counts of the bad beat payout boxes and containers, the serial Bad Beat Payout Contribution Forms, their
daily reconciliation by accounting and the Master Game Report adjustments (N.J.A.C. 13:69F-14.19)."""
from decimal import Decimal

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models

from apps.casinos.models import Casino
from apps.core.fields import MoneyField
from apps.tables.models import PokerTable


class CountMethod(models.TextChoices):
    CLOSED_TABLE = "closed_table", "Box counted at a closed poker table (14.19(d)1)"
    CAGE = "cage", "Box counted at the cashiers' cage (14.19(d)2, (e))"
    TABLE_INVENTORY = "table_inventory", "Counted and returned to the table inventory, with a form (14.19(f))"


class CountReason(models.TextChoices):
    CONTAINER_FULL = "container_full", "Container filled to capacity"
    TABLE_CLOSING = "table_closing", "Table closing"
    DAILY = "daily", "Daily count"


class WitnessKind(models.TextChoices):
    SUPERVISOR = "supervisor", "Poker supervisor, under videotaped surveillance"
    SECOND_DEPARTMENT = "second_department", "Representative of a second department (14.19(f)2)"
    CASHIER = "cashier", "Casino cage cashier (14.19(e))"


@pghistory.track(pghistory.InsertEvent())  # append-only: its one event says who recorded it (the counts' history tab)
class BadBeatCount(models.Model):
    """One count of a table's bad beat contributions, by any of the permitted methods; append-only.

    The count covers the table's contributions recorded after its previous count, up to and including
    contribution `through_contribution_id` (every contribution is written under the jackpot row lock, which the
    count also holds, so the ids cover exactly what was committed); `expected` is their sum and `variance` the
    counted amount less it. A count with a `serial_number` is a Bad Beat Payout Contribution Form (14.19(f)3-serial,
    14.19(f)3-two-parts, 14.19(f)3-contents). """

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="bad_beat_counts")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="bad_beat_counts")
    gaming_day = models.DateField(db_index=True)
    counted_at = models.DateTimeField()
    method = models.CharField(max_length=16, choices=CountMethod.choices)
    reason = models.CharField(max_length=16, choices=CountReason.choices, default=CountReason.DAILY)
    serial_number = models.PositiveIntegerField(null=True, blank=True,
                                                help_text="Pre-numbered form serial (14.19(f)3).")
    chips = models.JSONField(default=dict, blank=True, help_text="Chip denomination (dollars) -> number of chips.")
    amount = MoneyField(help_text="Total value counted.")
    expected = MoneyField(help_text="Contributions recorded since the table's last count.")
    variance = MoneyField(help_text="Counted less expected.")
    through_contribution_id = models.BigIntegerField(default=0)
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    witness = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    witness_kind = models.CharField(max_length=20, choices=WitnessKind.choices)
    surveillance_recorded = models.BooleanField(default=False)
    transported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
                                       related_name="+", help_text="Security representative (14.19(d)1, 2).")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_in_person = models.BooleanField(default=False, help_text="The counter and the witness each signed with "
                                           "their own password at the device (14.19(d)1, (f)3.iv).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-counted_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["casino", "serial_number"], name="one_form_per_serial"),
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="count_not_negative"),
            models.CheckConstraint(condition=~models.Q(counted_by=models.F("witness")), name="count_witness_not_counter"),
        ]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        label = f"Form {self.serial_number}" if self.serial_number else f"Count {self.pk}"
        return f"{label}, table {self.table.number}: ${self.amount}"

    @property
    def is_form(self) -> bool:
        return self.serial_number is not None


class FormBook(models.Model):
    """The casino's stock of serially pre-numbered Bad Beat Payout Contribution Forms (14.19(f)3-serial): the next
    serial to use. Taken under a row lock, so serials are issued without gaps or repeats."""

    casino = models.OneToOneField(Casino, on_delete=models.PROTECT, related_name="form_book")
    next_serial = models.PositiveIntegerField(default=100001)

    def __str__(self) -> str:
        return f"{self.casino}: next form {self.next_serial}"


class FormPart(models.TextChoices):
    ORIGINAL = "original", "Original (table drop box, from the count room)"
    DUPLICATE = "duplicate", "Duplicate (locked accounting box)"


@pghistory.track(pghistory.InsertEvent())  # append-only: who received each part, in the form's history
class FormReceipt(models.Model):
    """Accounting's receipt of one part of a form (14.19(g), 14.19(h)-reconcile); append-only."""

    form = models.ForeignKey(BadBeatCount, on_delete=models.PROTECT, related_name="receipts")
    part = models.CharField(max_length=10, choices=FormPart.choices)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["form", "part"]
        constraints = [models.UniqueConstraint(fields=["form", "part"], name="one_receipt_per_part")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.part} of form {self.form.serial_number}"


class ReconciliationStatus(models.TextChoices):
    RECONCILED = "reconciled", "Reconciled"
    VARIANCE = "variance", "Variances"


class Reconciliation(models.Model):
    """Accounting's daily reconciliation of the forms (N.J.A.C. 13:69F-14.19(h)-reconcile). Redone while variances
    remain; the Master Game Report adjustments it makes are append-only."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="reconciliations")
    gaming_day = models.DateField()
    status = models.CharField(max_length=10, choices=ReconciliationStatus.choices)
    forms = models.PositiveIntegerField(default=0)
    originals = models.PositiveIntegerField(default=0)
    duplicates = models.PositiveIntegerField(default=0)
    missing_originals = models.JSONField(default=list, help_text="Serials of duplicates without an original.")
    missing_duplicates = models.JSONField(default=list, help_text="Serials of originals without a duplicate.")
    not_received = models.JSONField(default=list, help_text="Serials of forms of which neither part arrived.")
    count_variances = models.JSONField(default=list, help_text="Counts whose amount differs from the contributions.")
    revenue_adjustment = MoneyField(default=Decimal("0.00"))
    reconciled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reconciled_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [models.UniqueConstraint(fields=["casino", "gaming_day"], name="one_reconciliation_per_day")]

    def __str__(self) -> str:
        return f"{self.casino} {self.gaming_day}: {self.status}"


class MasterGameReportAdjustment(models.Model):
    """A duplicate form that could not be matched with an original: its value is added to poker revenue in
    the Master Game Report of the day (N.J.A.C. 13:69F-14.19(h)-revenue); append-only."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(db_index=True)
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, related_name="+")
    form = models.OneToOneField(BadBeatCount, on_delete=models.PROTECT, related_name="revenue_adjustment")
    amount = MoneyField()
    reason = models.CharField(max_length=300)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["gaming_day", "table"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"+${self.amount} poker revenue, form {self.form.serial_number}"


class CorrectionKind(models.TextChoices):
    """What money of a closed gaming day a late correction amends."""

    RAKE = "rake", "Rake taken from pots (14.14)"
    TIME_CHARGE = "time_charge", "Time charges (14.14(b)3)"
    CONTRIBUTION = "contribution", "Bad beat contributions (14.19(c))"
    COUNT = "count", "Amount counted (14.19(d)-(f))"


class LateCorrection(models.Model):
    """A correction of a closed gaming day's money, recorded by accounting in the open gaming day it is made in,
    referring to the closed day, with the reason; both days' Master Game Reports show it. The closed day's own
    records stay as they were. Append-only."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField(db_index=True, help_text="The open gaming day the correction is recorded in.")
    corrects_gaming_day = models.DateField(db_index=True, help_text="The closed gaming day it amends.")
    table = models.ForeignKey(PokerTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=16, choices=CorrectionKind.choices)
    amount = MoneyField(help_text="Signed: what the closed day's records should have had more of.")
    reason = models.CharField(max_length=300)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.CheckConstraint(condition=~models.Q(amount=0), name="late_correction_not_zero"),
                       models.CheckConstraint(condition=models.Q(corrects_gaming_day__lt=models.F("gaming_day")),
                                              name="late_correction_of_an_earlier_day")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"{self.amount:+} {self.kind} for {self.corrects_gaming_day}, recorded {self.gaming_day}"


@pghistory.track(pghistory.InsertEvent())  # append-only: its one event says who recorded it
class CombinedContainer(models.Model):
    """A locked container into which poker room personnel combined the contents of bad beat payout boxes counted at
    closed poker tables, for transport to the cashiers' cage or a satellite cage (N.J.A.C. 13:69F-14.19(d)1-transport
    and 14.19(e)-aggregate); append-only.

    `aggregate` (Decimal dollars) is the sum of the amounts of the counts it holds (CombinedCount, one row each),
    computed once when it is sealed; the cashier verifies it at the cage (AggregateCountVerification). `gaming_day`
    is the casino's gaming day of `sealed_at`. `combined_by`: the poker shift supervisor or floorperson who combined
    the contents; `transported_by`: the representative of security who carries the container to the cage."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="bad_beat_containers",
                               db_index=False)  # both indexes below lead with it
    gaming_day = models.DateField()
    sealed_at = models.DateTimeField()
    combined_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    help_text="Poker room personnel: a poker shift supervisor or floorperson.")
    transported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                       help_text="Representative of security (14.19(d)1).")
    aggregate = MoneyField(help_text="Sum of the counts combined in the container.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sealed_at", "-pk"]
        indexes = [models.Index(fields=["casino", "-sealed_at", "-id"], name="container_newest_first"),
                   models.Index(fields=["casino", "gaming_day"], name="container_casino_day")]
        constraints = [models.CheckConstraint(condition=models.Q(aggregate__gte=0), name="container_not_negative"),
                       models.CheckConstraint(condition=~models.Q(combined_by=models.F("transported_by")),
                                              name="container_transporter_not_combiner")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Container {self.pk}: ${self.aggregate}"


@pghistory.track(pghistory.InsertEvent())  # append-only
class CombinedCount(models.Model):
    """One count of a bad beat payout box at a closed poker table whose contents went into `container`; a count goes
    into at most one container (the unique `count`). Append-only, as the count itself is."""

    container = models.ForeignKey(CombinedContainer, on_delete=models.PROTECT, related_name="entries")
    count = models.OneToOneField(BadBeatCount, on_delete=models.PROTECT, related_name="combined_in")

    class Meta:
        ordering = ["container", "count"]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Count {self.count_id} in container {self.container_id}"


@pghistory.track(pghistory.InsertEvent())  # append-only: who verified, in the container's history
class AggregateCountVerification(models.Model):
    """The cashier's verification at the cage of a container's aggregate count (N.J.A.C. 13:69F-14.19(e)-aggregate);
    once per container, append-only.

    `amount`: what the cashier counted (Decimal dollars); `variance`: amount less the container's aggregate;
    `gaming_day`: the casino's gaming day of `verified_at`; `verified_by`: accounting (the cage cashier)."""

    container = models.OneToOneField(CombinedContainer, on_delete=models.PROTECT, related_name="verification")
    amount = MoneyField(help_text="Counted at the cage.")
    variance = MoneyField(help_text="Counted at the cage less the aggregate of the counts combined.")
    verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    verified_at = models.DateTimeField()
    gaming_day = models.DateField(db_index=True)

    class Meta:
        ordering = ["-verified_at", "-pk"]
        constraints = [models.CheckConstraint(condition=models.Q(amount__gte=0), name="verification_not_negative")]
        triggers = [pgtrigger.Protect(name="append_only", operation=pgtrigger.Update | pgtrigger.Delete)]

    def __str__(self) -> str:
        return f"Container {self.container_id} verified: ${self.amount}"
