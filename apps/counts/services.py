"""Writes about counts, forms and reconciliation (N.J.A.C. 13:69F-14.19(d)-(h), (k), (p)).

A count reads a table's contributions under the row locks of the casino's jackpots, which every contribution
is written under, so a count and the hand feed never split a contribution between them.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from apps.badbeat.models import Contribution
from apps.badbeat.selectors import live_jackpots
from apps.badbeat.services import apply_due_rule_changes, document_daily_reset, lock_casino_jackpots
from apps.casinos.models import Backfill, Casino, GamingDay, GamingDayClose, User
from apps.casinos.selectors import current_gaming_day, gaming_day_of, is_gaming_day_closed
from apps.casinos.services import close_gaming_day_books, gaming_days_to_close, hold_open_gaming_days
from apps.core.exceptions import DomainError
from apps.core.money import ZERO, dollars, money
from apps.core.roles import Role
from apps.core.validation import COUNT_MAX, fits_column
from apps.tables.models import PokerTable

from .models import (
    BadBeatCount,
    CorrectionKind,
    CountMethod,
    CountReason,
    FormBook,
    FormPart,
    FormReceipt,
    LateCorrection,
    MasterGameReportAdjustment,
    Reconciliation,
    ReconciliationStatus,
    WitnessKind,
)
from .selectors import last_count, ledger_check, match_forms, witness_problems

#: Chip denominations accepted on a form, in dollars.
DENOMINATIONS = (Decimal("0.25"), Decimal("0.50"), Decimal("1"), Decimal("5"), Decimal("25"), Decimal("100"),
                 Decimal("500"), Decimal("1000"))


def chips_value(chips: dict) -> tuple[dict[str, int], Decimal]:
    """Normalise a {denomination: number of chips} mapping and total its value (Decimal dollars). Raises
    DomainError (field "chips") for an unknown denomination, a negative or non-whole count, more than COUNT_MAX chips
    of a denomination or a value more than the count's column holds."""
    normalised: dict[str, int] = {}
    total = ZERO
    for denomination, count in (chips or {}).items():
        try:
            value = Decimal(str(denomination))
            number = int(count)
        except (InvalidOperation, TypeError, ValueError) as exc:
            raise DomainError(f"Unreadable chips entry {denomination!r}: {count!r}.", field="chips") from exc
        if value not in DENOMINATIONS:
            raise DomainError(f"${denomination} is not a chip denomination.", field="chips")
        if number < 0 or str(count).strip() not in (str(number), f"{number}.0"):
            raise DomainError("Chip counts are whole numbers, not negative.", field="chips")
        if number > COUNT_MAX:
            raise DomainError(f"No container holds {number:,} chips of ${denomination}.", field="chips")
        if number:
            normalised[f"{value:.2f}"] = number
            total += value * number
    return normalised, fits_column(BadBeatCount, "amount", money(total), field="chips", what="The chips' value")


class VarianceToConfirm(DomainError):
    """A count whose variance was not confirmed (record_count's `variance_confirmed`): nothing was recorded. Carries
    the figures read under the locks, Decimal dollars: `amount` counted, `expected` (the contributions recorded
    since the table's last count) and `variance` (amount less expected). N.J.A.C. 13:69F-14.19(d)-(f)."""

    def __init__(self, *, amount: Decimal, expected: Decimal, variance: Decimal) -> None:
        super().__init__(f"The count differs from the contributions recorded: {dollars(amount)} counted, "
                         f"{dollars(expected)} recorded, a variance of {dollars(variance)}. Count again, or confirm "
                         "the variance and sign again to record it.", field="confirm_variance")
        self.amount, self.expected, self.variance = amount, expected, variance


def _check_people(*, method: str, counted_by: User, witness: User, witness_kind: str,
                  surveillance_recorded: bool, table: PokerTable) -> None:
    if counted_by.pk == witness.pk:
        raise DomainError("The witness cannot be the person who counts.", field="witness")
    if method == CountMethod.CLOSED_TABLE:
        # 14.19(d)1: a poker dealer, in the presence of a poker supervisor, recorded by surveillance.
        if table.is_open:
            raise DomainError(f"Table {table.number} is open: count its box at a closed table (14.19(d)1).",
                              field="table")
        if not counted_by.has_role(Role.DEALER):
            raise DomainError("A poker dealer counts the box (14.19(d)1).", field="counted_by")
        if witness_kind != WitnessKind.SUPERVISOR or not witness.has_role(Role.POKER_SHIFT_SUPERVISOR):
            raise DomainError("The count is made in the presence of a poker supervisor (14.19(d)1).", field="witness")
        if not surveillance_recorded:
            raise DomainError("The count at a closed table is recorded by surveillance (14.19(d)1).",
                              field="surveillance_recorded")
    elif method == CountMethod.CAGE:
        # 14.19(d)2, (e): cage cashiers count; a poker supervisor accounts for the boxes.
        if not counted_by.has_role(Role.ACCOUNTING):
            raise DomainError("A casino cage cashier counts the box at the cage (14.19(e)).", field="counted_by")
        if witness_kind != WitnessKind.SUPERVISOR or not witness.has_role(Role.POKER_SHIFT_SUPERVISOR):
            raise DomainError("A poker supervisor accounts for the boxes delivered to the cage (14.19(d)2).",
                              field="witness")
    elif method == CountMethod.TABLE_INVENTORY:
        # 14.19(f)2: the table's dealer, with a poker supervisor under videotaped surveillance, or else a
        # representative of a second department who meets (f)2.
        if not counted_by.has_role(Role.DEALER):
            raise DomainError("The dealer assigned to the table counts the container (14.19(f)2).",
                              field="counted_by")
        if witness_kind == WitnessKind.SUPERVISOR:
            if not witness.has_role(Role.POKER_SHIFT_SUPERVISOR):
                raise DomainError("The witness named as poker supervisor is not one (14.19(f)2).", field="witness")
            if not surveillance_recorded:
                raise DomainError("Without videotaped surveillance, a second department must witness (14.19(f)2).",
                                  field="surveillance_recorded")
        elif witness_kind == WitnessKind.SECOND_DEPARTMENT:
            problems = witness_problems(witness=witness, counter=counted_by)
            if problems:
                raise DomainError(" ".join(problems), field="witness")
        else:
            raise DomainError("Choose who witnessed the count.", field="witness_kind")
    else:
        raise DomainError(f"Choose one of {', '.join(CountMethod.values)}.", field="method")


@transaction.atomic
def record_count(*, table: PokerTable, method: str, counted_by: User, witness: User, witness_kind: str,
                 recorded_by: User, amount: Decimal | None = None, chips: dict | None = None,
                 reason: str = CountReason.DAILY, surveillance_recorded: bool = False,
                 transported_by: User | None = None, counted_at: datetime | None = None,
                 signed_in_person: bool = False, variance_confirmed: Decimal | None = None) -> BadBeatCount:
    """Record a count of a table's bad beat contributions (N.J.A.C. 13:69F-14.19(d)-(f)), signed by the counter
    and the witness.

    method: closed_table or cage (the box; `amount` counted, Decimal dollars), or table_inventory (the
    container, counted and returned to the table inventory: `chips` {denomination: count}; a serially
    pre-numbered Bad Beat Payout Contribution Form is issued, 14.19(f)3). The count is compared with the
    contributions recorded since the table's last count; the difference is the variance. Raises DomainError
    naming the field: wrong people for the method (14.19(d)1, (d)2, (e), (f)2), an ineligible witness, bad amounts.

    variance_confirmed: Decimal dollars, the variance the counter and the witness confirmed (the count page: ZERO
    until they confirm one); when given, the count is recorded only if its variance, read under the jackpot locks,
    is that amount, else VarianceToConfirm (a DomainError, field "confirm_variance", carrying the figures) and
    nothing is recorded. None (the API, imports): recorded whatever the variance.
    """
    if table.casino_id != recorded_by.casino_id:
        raise DomainError("The table is at another casino.", field="table")
    if reason not in CountReason.values:
        raise DomainError(f"Choose one of {', '.join(CountReason.values)}.", field="reason")
    _check_people(method=method, counted_by=counted_by, witness=witness, witness_kind=witness_kind,
                  surveillance_recorded=surveillance_recorded, table=table)
    if method == CountMethod.TABLE_INVENTORY:
        chips, amount = chips_value(chips or {})
    else:
        if chips:
            chips, chip_total = chips_value(chips)
            if amount is not None and money(amount) != chip_total:
                raise DomainError("The amount differs from the value of the chips.", field="amount")
            amount = chip_total
        if amount is None:
            raise DomainError("Give the amount counted.", field="amount")
        try:
            amount = money(amount)
        except (InvalidOperation, TypeError, ValueError) as exc:
            raise DomainError("Give the amount counted in dollars and cents.", field="amount") from exc
        if amount < 0:
            raise DomainError("An amount counted is not negative.", field="amount")
        fits_column(BadBeatCount, "amount", amount, field="amount")
        # A representative of the casino security department carries the locked container from the closed table
        # (14.19(d)1), or the locked boxes from the tables to the cage (14.19(d)2).
        if transported_by is not None and not transported_by.has_role(Role.SECURITY):
            clause = "14.19(d)1" if method == CountMethod.CLOSED_TABLE else "14.19(d)2"
            what = "the container" if method == CountMethod.CLOSED_TABLE else "the boxes to the cage"
            raise DomainError(f"A representative of security transports {what} ({clause}).", field="transported_by")
    counted_at = counted_at or timezone.now()
    gaming_day = gaming_day_of(casino=table.casino, moment=counted_at)
    hold_open_gaming_days(casino=table.casino, days=[gaming_day], what="a count", field="counted_at")
    lock_casino_jackpots(casino_id=table.casino_id)  # no contribution commits while the box is read
    previous = last_count(table=table)
    since = previous.through_contribution_id if previous else 0
    contents = Contribution.objects.filter(table=table, id__gt=since).aggregate(
        total=Sum("amount", default=ZERO), last=Max("id"))
    through = contents["last"] or since
    variance = amount - contents["total"]
    if variance_confirmed is not None and variance != money(variance_confirmed):
        raise VarianceToConfirm(amount=amount, expected=contents["total"], variance=variance)
    serial = None
    if method == CountMethod.TABLE_INVENTORY:
        book, _ = FormBook.objects.select_for_update().get_or_create(casino_id=table.casino_id)
        serial = book.next_serial
        book.next_serial += 1
        book.save(update_fields=["next_serial"])
    return BadBeatCount.objects.create(
        casino_id=table.casino_id, table=table, gaming_day=gaming_day,
        counted_at=counted_at, method=method, reason=reason, serial_number=serial, chips=chips or {},
        amount=amount, expected=contents["total"], variance=variance,
        through_contribution_id=through, counted_by=counted_by, witness=witness, witness_kind=witness_kind,
        surveillance_recorded=surveillance_recorded, transported_by=transported_by, recorded_by=recorded_by,
        signed_in_person=signed_in_person)


@transaction.atomic
def receive_form_part(*, casino: Casino, serial_number: int, part: str, received_by: User) -> FormReceipt:
    """Accounting records a part of a form: an original from the count room or a duplicate collected from the
    locked accounting box (N.J.A.C. 13:69F-14.19(g), (h)). Idempotent per part. Raises DomainError for an
    unknown serial or part."""
    if not received_by.has_role(Role.ACCOUNTING):
        raise DomainError("A casino accounting department representative collects the forms (14.19(h)).",
                          field="received_by")
    if part not in FormPart.values:
        raise DomainError("Original or duplicate.", field="part")
    form = BadBeatCount.objects.filter(casino=casino, serial_number=serial_number).first()
    if form is None:
        raise DomainError(f"No Bad Beat Payout Contribution Form numbered {serial_number} was issued.",
                          field="serial_number")
    receipt, _ = FormReceipt.objects.get_or_create(form=form, part=part, defaults={"received_by": received_by})
    return receipt


@transaction.atomic
def reconcile_gaming_day(*, casino: Casino, gaming_day: date, reconciled_by: User) -> Reconciliation:
    """Accounting's daily reconciliation of the forms (N.J.A.C. 13:69F-14.19(h)): the duplicates collected are
    counted against the originals received from the count room; missing forms are found by serial number; each
    duplicate that cannot be matched with an original adds its value to poker revenue in the Master Game Report
    (once, append-only). Originals without a duplicate, forms of which nothing arrived, and counts that differ
    from the recorded contributions are listed as variances. May be redone while variances remain. Raises
    DomainError (field gaming_day) for a day not ended, before the casino's records (`records_kept_since`) or already
    reconciled."""
    if not reconciled_by.has_role(Role.ACCOUNTING):
        raise DomainError("Only accounting reconciles the forms (14.19(h)).", field="reconciled_by")
    if gaming_day >= current_gaming_day(casino=casino):
        raise DomainError("A gaming day is reconciled once it has ended.", field="gaming_day")
    if gaming_day < casino.records_kept_since:
        raise DomainError(f"The casino keeps records from {casino.records_kept_since:%Y-%m-%d}.", field="gaming_day")
    existing = Reconciliation.objects.select_for_update().filter(casino=casino, gaming_day=gaming_day).first()
    if existing and existing.status == ReconciliationStatus.RECONCILED:
        raise DomainError("This gaming day is already reconciled.", field="gaming_day")
    match = match_forms(casino=casino, gaming_day=gaming_day)
    by_serial = {f.serial_number: f for f in match.forms}
    adjustment = ZERO
    for serial in match.missing_originals:
        form = by_serial[serial]
        made, _ = MasterGameReportAdjustment.objects.get_or_create(
            form=form, defaults={"casino": casino, "gaming_day": gaming_day, "table": form.table, "amount": form.amount,
                                 "made_by": reconciled_by,
                                 "reason": f"Duplicate form {serial} has no original (14.19(h))."})
        adjustment += made.amount
    counts = [c for c in BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day).select_related("table")
              if c.variance]
    variances = [{"count": c.pk, "serial_number": c.serial_number, "table": c.table.number,
                  "amount": f"{c.amount:.2f}", "expected": f"{c.expected:.2f}", "variance": f"{c.variance:.2f}"}
                 for c in counts]
    clean = not (match.missing_originals or match.missing_duplicates or match.not_received or variances)
    values = {"status": ReconciliationStatus.RECONCILED if clean else ReconciliationStatus.VARIANCE,
              "forms": len(match.forms), "originals": len(match.originals), "duplicates": len(match.duplicates),
              "missing_originals": match.missing_originals, "missing_duplicates": match.missing_duplicates,
              "not_received": match.not_received, "count_variances": variances,
              "revenue_adjustment": sum((a.amount for a in MasterGameReportAdjustment.objects.filter(
                  casino=casino, gaming_day=gaming_day)), ZERO),
              "reconciled_by": reconciled_by, "reconciled_at": timezone.now()}
    reconciliation, _ = Reconciliation.objects.update_or_create(casino=casino, gaming_day=gaming_day,
                                                                defaults=values)
    return reconciliation


def close_gaming_day(*, casino: Casino, gaming_day: date, closed_by: User | None = None,
                     backfill: Backfill | None = None) -> GamingDayClose:
    """Close one gaming day (N.J.A.C. 13:69F-14.19(d), (f)1, (k), (p)); idempotent: a closed day is returned as is.
    The close job and the command close every ended day in order (`close_gaming_days`); this closes one.

    Documents each jackpot's reset amount of the day, and records what is out of order: tables whose
    contributions were not all counted during the day (every box or container is counted at least once each
    gaming day), counts with a variance, jackpots whose display accounting did not adjust that day, and any running
    total that differs from its records (the daily ledger check, `selectors.ledger_check`). The close record
    (casinos.GamingDayClose: who, when, these figures) is append-only. `backfill`: the backfill that filled the day
    and closes it. Raises DomainError for a day that has not ended.
    """
    if gaming_day >= current_gaming_day(casino=casino):
        raise DomainError(f"Gaming day {gaming_day:%Y-%m-%d} has not ended.", field="gaming_day")
    done = GamingDayClose.objects.filter(casino=casino, gaming_day=gaming_day).first()
    if done:
        return done
    apply_due_rule_changes()
    # from the lock on no write changes the day's money: those in flight commit first, later ones are refused
    return close_gaming_day_books(casino=casino, gaming_day=gaming_day, closed_by=closed_by, backfill=backfill,
                                  figures=lambda: _close_figures(casino=casino, gaming_day=gaming_day))


def _close_figures(*, casino: Casino, gaming_day: date) -> dict:
    """What a day closes with (see close_gaming_day): JSON, amounts as text with cents."""
    resets = []
    for jackpot in live_jackpots(casino=casino):
        reset = document_daily_reset(jackpot=jackpot, gaming_day=gaming_day)
        if reset:
            resets.append({"jackpot": jackpot.name, "contributions": f"{reset.contributions:.2f}",
                           "percentage": f"{reset.percentage}", "amount": f"{reset.amount:.2f}"})
    uncounted = []
    for table in PokerTable.objects.filter(casino=casino, bad_beat_participation=True).order_by("number"):
        previous = last_count(table=table)
        left = Contribution.objects.filter(table=table, gaming_day__lte=gaming_day,
                                           id__gt=previous.through_contribution_id if previous else 0)
        total = left.aggregate(t=Sum("amount", default=ZERO))["t"]
        if total:
            uncounted.append({"table": table.number, "amount": f"{total:.2f}"})
    variances = [{"table": c.table.number, "serial_number": c.serial_number, "variance": f"{c.variance:.2f}"}
                 for c in BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day).exclude(
                     variance=0).select_related("table")]
    not_adjusted = [j.name for j in live_jackpots(casino=casino)
                    if not j.display_adjustments.filter(gaming_day=gaming_day).exists()]
    contributions = Contribution.objects.filter(jackpot__casino=casino, gaming_day=gaming_day).aggregate(
        t=Sum("amount", default=ZERO))["t"]
    # the daily ledger check: every running total against its records (an alert when one differs)
    problems = ledger_check(casino=casino, gaming_day=gaming_day)
    return {"contributions": f"{contributions:.2f}", "resets": resets, "uncounted_tables": uncounted,
            "count_variances": variances, "displays_not_adjusted": not_adjusted, "ledger_problems": problems,
            "in_order": not (uncounted or variances or not_adjusted or problems)}


def close_gaming_days(*, casino: Casino, through: date | None = None,
                      closed_by: User | None = None) -> list[GamingDayClose]:
    """Close every ended gaming day of `casino` since it went live that is not closed yet, through `through`
    (default: the day that ended last), oldest first, each with its own close record (`close_gaming_day`): a day
    missed while the scheduler was down is caught up, a day with no records is closed empty (14.19(d), (k)).
    Returns the closes made now. Raises DomainError for a `through` that has not ended."""
    if through is not None and through >= current_gaming_day(casino=casino):
        raise DomainError(f"Gaming day {through:%Y-%m-%d} has not ended.", field="gaming_day")
    return [close_gaming_day(casino=casino, gaming_day=day, closed_by=closed_by)
            for day in gaming_days_to_close(casino=casino, through=through)]


def close_backfilled_days(*, backfill: Backfill) -> list[GamingDayClose]:
    """Close each past gaming day `backfill` filled (the days that were not open when it wrote them), oldest first,
    closed by whoever ran it: the end of an administrator's backfill (manage.py import_phh FOLDER --backfill).
    Days the backfill wrote into while they were open (today's, and yesterday's until closed) are closed by the
    close job as usual."""
    previous = current_gaming_day(casino=backfill.casino) - timedelta(days=1)
    days = (GamingDay.objects.filter(backfill=backfill, gaming_day__lt=previous).order_by("gaming_day")
            .values_list("gaming_day", flat=True))
    return [close_gaming_day(casino=backfill.casino, gaming_day=day, closed_by=backfill.run_by, backfill=backfill)
            for day in days]


def close_due_gaming_days() -> list[GamingDayClose]:
    """For every casino of this deployment, close every ended gaming day not closed yet (`close_gaming_days`): the
    scheduled job, minutes after each casino's gaming-day boundary; idempotent."""
    closed = []
    for casino in Casino.objects.order_by("pk"):
        closed += close_gaming_days(casino=casino)
    return closed


@transaction.atomic
def record_late_correction(*, casino: Casino, corrects_gaming_day: date, kind: str, amount: Decimal, reason: str,
                           made_by: User, table: PokerTable | None = None) -> LateCorrection:
    """Accounting corrects a closed gaming day's money: the correction is recorded in today's open gaming day,
    refers to the closed day, and both days' Master Game Reports show it (N.J.A.C. 13:69F-14.19(h), (k)).

    amount: signed Decimal dollars with cents, not zero. Raises DomainError naming the field: not accounting, a day
    that is not closed (record the money itself then), no reason, an amount that is zero or too large, a table of
    another casino."""
    if not made_by.has_role(Role.ACCOUNTING) or made_by.casino_id != casino.pk:
        raise DomainError("Accounting records a late correction.", field="made_by")
    if kind not in CorrectionKind.values:
        raise DomainError(f"Choose one of {', '.join(CorrectionKind.values)}.", field="kind")
    try:
        amount = money(amount)
    except (InvalidOperation, TypeError, ValueError) as exc:
        raise DomainError("Give the amount in dollars and cents.", field="amount") from exc
    if not amount or abs(amount) >= Decimal("1e12"):
        raise DomainError("Give an amount other than zero, below $1,000,000,000,000.", field="amount")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("Say why the closed day is corrected.", field="reason")
    if table is not None and table.casino_id != casino.pk:
        raise DomainError("The table is at another casino.", field="table")
    if not is_gaming_day_closed(casino=casino, gaming_day=corrects_gaming_day):
        raise DomainError(f"Gaming day {corrects_gaming_day:%Y-%m-%d} is not closed: record its money itself.",
                          field="corrects_gaming_day")
    today = current_gaming_day(casino=casino)
    hold_open_gaming_days(casino=casino, days=[today], what="a late correction")
    return LateCorrection.objects.create(casino=casino, gaming_day=today, corrects_gaming_day=corrects_gaming_day,
                                         table=table, kind=kind, amount=amount, reason=reason[:300], made_by=made_by)
