"""Writes about counts, forms and reconciliation (N.J.A.C. 13:69F-14.19, 14.19(p)-documented,
14.19(k)-official-record).

A count reads a table's contributions under the row locks of the casino's jackpots, which every contribution
is written under, so a count and the hand feed never split a contribution between them.
"""
from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from apps.badbeat.models import Contribution
from apps.badbeat.selectors import displays_not_adjusted_upon_verification, live_jackpots
from apps.badbeat.services import apply_due_rule_changes, document_daily_reset, lock_casino_jackpots
from apps.casinos.models import Backfill, Casino, GamingDay, GamingDayClose, User
from apps.casinos.selectors import current_gaming_day, gaming_day_of, is_gaming_day_closed
from apps.casinos.services import close_gaming_day_books, gaming_days_to_close, hold_open_gaming_days
from apps.core.exceptions import AlreadyRecorded, DomainError, unique_violation_on
from apps.core.money import ZERO, dollars, money
from apps.core.roles import Role
from apps.core.validation import COUNT_MAX, fits_column
from apps.tables.models import PokerTable

from .models import (
    AggregateCountVerification,
    BadBeatCount,
    CombinedContainer,
    CombinedCount,
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
    since the table's last count) and `variance` (amount less expected). N.J.A.C. 13:69F-14.19(d)-place,
    14.19(e)-cashier-counts, 14.19(f)."""

    def __init__(self, *, amount: Decimal, expected: Decimal, variance: Decimal) -> None:
        super().__init__(f"The count differs from the contributions recorded: {dollars(amount)} counted, "
                         f"{dollars(expected)} recorded, a variance of {dollars(variance)}. Count again, or confirm "
                         "the variance and sign again to record it.", field="confirm_variance")
        self.amount, self.expected, self.variance = amount, expected, variance


def _check_people(*, method: str, counted_by: User, witness: User, witness_kind: str,
                  surveillance_recorded: bool, table: PokerTable) -> None:
    """Who may count a table's contributions, and who must witness it, by the count's method (each method's
    helper below); the witness is never the one who counts. Raises DomainError naming the field."""
    if counted_by.pk == witness.pk:
        raise DomainError("The witness cannot be the person who counts.", field="witness")
    if method == CountMethod.CLOSED_TABLE:
        _check_closed_table(table)
        _check_closed_table_people(counted_by=counted_by, witness=witness, witness_kind=witness_kind,
                                   surveillance_recorded=surveillance_recorded)
    elif method == CountMethod.CAGE:
        _check_cage_people(counted_by=counted_by, witness=witness, witness_kind=witness_kind)
    elif method == CountMethod.TABLE_INVENTORY:
        _check_table_inventory_people(counted_by=counted_by, witness=witness, witness_kind=witness_kind,
                                      surveillance_recorded=surveillance_recorded)
    else:
        raise DomainError(f"Choose one of {', '.join(CountMethod.values)}.", field="method")


def _check_closed_table(table: PokerTable) -> None:
    """The box of a table counted at the table is counted once the table is closed (N.J.A.C.
    13:69F-14.19(d)1-closed-table). Raises DomainError (field "table")."""
    if table.is_open:
        raise DomainError(f"Table {table.number} is open: count its box at a closed table (14.19(d)1).",
                          field="table")


def _check_closed_table_people(*, counted_by: User, witness: User, witness_kind: str,
                               surveillance_recorded: bool) -> None:
    """The box of a table counted at the closed table by a poker dealer, in the presence of a poker supervisor,
    recorded by surveillance (N.J.A.C. 13:69F-14.19(d)1-people). Raises DomainError naming the field."""
    if not counted_by.has_role(Role.DEALER):
        raise DomainError("A poker dealer counts the box (14.19(d)1).", field="counted_by")
    if witness_kind != WitnessKind.SUPERVISOR or not witness.has_role(Role.POKER_SHIFT_SUPERVISOR):
        raise DomainError("The count is made in the presence of a poker supervisor (14.19(d)1).", field="witness")
    if not surveillance_recorded:
        raise DomainError("The count at a closed table is recorded by surveillance (14.19(d)1).",
                          field="surveillance_recorded")


def _check_cage_people(*, counted_by: User, witness: User, witness_kind: str) -> None:
    """The boxes counted at the cage (N.J.A.C. 13:69F-14.19(e)-cashier-counts: by a casino cage cashier;
    14.19(d)2-supervisor-accounts: a poker supervisor accounts for the boxes delivered). Raises DomainError naming
    the field."""
    if not counted_by.has_role(Role.ACCOUNTING):
        raise DomainError("A casino cage cashier counts the box at the cage (14.19(e)).", field="counted_by")
    if witness_kind != WitnessKind.SUPERVISOR or not witness.has_role(Role.POKER_SHIFT_SUPERVISOR):
        raise DomainError("A poker supervisor accounts for the boxes delivered to the cage (14.19(d)2).",
                          field="witness")


def _check_table_inventory_people(*, counted_by: User, witness: User, witness_kind: str,
                                  surveillance_recorded: bool) -> None:
    """The container counted into the table inventory (N.J.A.C. 13:69F-14.19(f)2-witness: by the dealer assigned to
    the table, with a poker supervisor under videotaped surveillance; 14.19(f)2-second-department: or else a
    representative of a second department who meets (f)2). Raises DomainError naming the field."""
    if not counted_by.has_role(Role.DEALER):
        raise DomainError("The dealer assigned to the table counts the container (14.19(f)2).", field="counted_by")
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


@transaction.atomic
def record_count(*, table: PokerTable, method: str, counted_by: User, witness: User, witness_kind: str,
                 recorded_by: User, amount: Decimal | None = None, chips: dict | None = None,
                 reason: str = CountReason.DAILY, surveillance_recorded: bool = False,
                 transported_by: User | None = None, counted_at: datetime | None = None,
                 signed_in_person: bool = False, variance_confirmed: Decimal | None = None) -> BadBeatCount:
    """Record a count of a table's bad beat contributions (N.J.A.C. 13:69F-14.19(d)-place, 14.19(e)-cashier-counts,
    14.19(f)), signed by the counter and the witness.

    method: closed_table or cage (the box; `amount` counted, Decimal dollars), or table_inventory (the
    container, counted and returned to the table inventory: `chips` {denomination: count}; a serially
    pre-numbered Bad Beat Payout Contribution Form is issued, `_issue_form_serial`). The count is compared with
    the contributions recorded since the table's last count; the difference is the variance. Raises DomainError
    naming the field: wrong people for the method (`_check_people`, whose helpers cite what each method asks), one
    who transports the boxes who is not of security (`verify_transport`), an ineligible witness, bad amounts.

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
    verify_transport(method=method, transported_by=transported_by)
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
    serial = _issue_form_serial(casino_id=table.casino_id) if method == CountMethod.TABLE_INVENTORY else None
    return BadBeatCount.objects.create(
        casino_id=table.casino_id, table=table, gaming_day=gaming_day,
        counted_at=counted_at, method=method, reason=reason, serial_number=serial, chips=chips or {},
        amount=amount, expected=contents["total"], variance=variance,
        through_contribution_id=through, counted_by=counted_by, witness=witness, witness_kind=witness_kind,
        surveillance_recorded=surveillance_recorded, transported_by=transported_by, recorded_by=recorded_by,
        signed_in_person=signed_in_person)


def verify_transport(*, method: str, transported_by: User | None) -> None:
    """Who carries a counted box: a representative of the casino security department carries the locked boxes from
    the tables to the cage (N.J.A.C. 13:69F-14.19(d)2-security-transports), or the locked container from the closed
    table (14.19(d)1-transport). A count returned to the table inventory (14.19(f), in lieu of (d) and (e)) is not
    transported: it names no one. `transported_by` None: not recorded (the count is at the table). Raises
    DomainError (field "transported_by") naming the clause."""
    if transported_by is None:
        return
    if method not in _TRANSPORTS:
        raise DomainError("A count returned to the table inventory is not transported (14.19(f)): name no one who "
                          "transported it.", field="transported_by")
    if not transported_by.has_role(Role.SECURITY):
        what, clause = _TRANSPORTS[method]
        raise DomainError(f"A representative of security transports {what} ({clause}).", field="transported_by")


#: What is transported after a count by each method that transports one, and the clause that says so.
_TRANSPORTS: dict[str, tuple[str, str]] = {CountMethod.CLOSED_TABLE: ("the container", "14.19(d)1"),
                                           CountMethod.CAGE: ("the boxes to the cage", "14.19(d)2")}


def _issue_form_serial(*, casino_id: int) -> int:
    """The serial number of the next Bad Beat Payout Contribution Form of a casino (N.J.A.C.
    13:69F-14.19(f)3-serial: serially pre-numbered): its form book's next number, taken under the book's row lock
    (two counts never get the same one, none is skipped) and advanced by one, in the count's transaction."""
    book, _ = FormBook.objects.select_for_update().get_or_create(casino_id=casino_id)
    serial = book.next_serial
    book.next_serial += 1
    book.save(update_fields=["next_serial"])
    return serial


#: The most counts one container may hold (the boxes of a poker room's closed tables, with room to spare).
MAX_COUNTS_PER_CONTAINER = 200
#: pg_advisory_xact_lock(space, count id): a count being combined into a container (`_hold_counts`).
COMBINE_LOCK_SPACE = 0x14E0


def _hold_counts(ids: list[int]) -> None:
    """Hold each count of `ids` until the transaction ends, one after the other in pk order (`ids` sorted), so that
    two requests combining counts in common wait for each other and never deadlock. A transaction-level advisory lock
    keyed by the count's id: a count is append-only, and PostgreSQL lets the app's database role (SELECT and INSERT
    only on it, apps.core.database_roles) take no row lock on it (SELECT ... FOR UPDATE or FOR KEY SHARE needs the
    UPDATE privilege)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, mod(id, 2147483648)::int) FROM unnest(%s::bigint[]) AS id",
                       [COMBINE_LOCK_SPACE, ids])


def _already_combined(ids: list[int]) -> AlreadyRecorded | None:
    """The refusal (409, field "counts", existing_id: the container) of the first of `ids` already in a container,
    or None when none is."""
    combined = CombinedCount.objects.filter(count_id__in=ids).order_by("count_id").first()
    if combined is None:
        return None
    return AlreadyRecorded(f"Count {combined.count_id} is already in container {combined.container_id}: the contents "
                           "of a box go into one container.", field="counts", existing_id=combined.container_id)


def _check_container_transporter(*, casino: Casino, combined_by: User, transported_by: User) -> None:
    """The locked container is carried to the cage by a representative of the casino's security department
    (N.J.A.C. 13:69F-14.19(d)1-transport), not the person who combined it. Raises DomainError (field
    "transported_by")."""
    if transported_by.casino_id != casino.pk or not transported_by.has_role(Role.SECURITY):
        raise DomainError("A representative of security of this casino transports the container (14.19(d)1).",
                          field="transported_by")
    if transported_by.pk == combined_by.pk:
        raise DomainError("The representative of security who transports the container is not the person who "
                          "combined it.", field="transported_by")


@transaction.atomic
def combine_counts(*, casino: Casino, count_ids: Collection[int], combined_by: User, transported_by: User,
                   sealed_at: datetime | None = None) -> CombinedContainer:
    """Record a locked container into which poker room personnel combined the contents of bad beat payout boxes
    counted at closed poker tables, for a representative of security to carry to the cashiers' cage, where a cashier
    verifies its aggregate count (`verify_aggregate_count`). Requirement 14.19(e)-aggregate; who carries it,
    `_check_container_transporter`.

    count_ids: ids of BadBeatCount, 1 to MAX_COUNTS_PER_CONTAINER (a repeat is read once): each a count of `casino`
    made at a closed poker table (method closed_table), at or before `sealed_at`, in a gaming day still open, and in
    no other container. combined_by: a poker shift supervisor or floorperson of the casino; transported_by: a
    representative of security of the casino, not the same person. sealed_at: timezone-aware, not in the future
    (default: now); the container's gaming day is the casino's gaming day of it, which must be open. The container's
    `aggregate` is the sum of the counts' amounts, Decimal dollars with cents.

    The counts are held in pk order while they are read and combined (`_hold_counts`), so two requests cannot put one
    count in two containers; the unique key of CombinedCount.count stands behind that.

    Raises DomainError (400) naming the field, and writes nothing: combined_by, transported_by, sealed_at (naive, in
    the future, a gaming day not open), counts (none, too many, not of this casino, not at a closed table, counted
    after the sealing, of a gaming day no longer open, an aggregate beyond the column); AlreadyRecorded (409, field
    "counts", existing_id: that container) for a count already in a container.
    """
    if combined_by.casino_id != casino.pk or not combined_by.has_role(Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON):
        raise DomainError("Poker room personnel (a poker shift supervisor or a floorperson of this casino) combine the "
                          "contents of the boxes in the container (14.19(e)).", field="combined_by")
    _check_container_transporter(casino=casino, combined_by=combined_by, transported_by=transported_by)
    now = timezone.now()
    sealed_at = sealed_at or now
    if timezone.is_naive(sealed_at) or sealed_at > now:
        raise DomainError("The container is sealed at a time with its time zone, not in the future.", field="sealed_at")
    ids = sorted(set(count_ids))
    if not ids:
        raise DomainError("Choose the counts whose contents the container holds.", field="counts")
    if len(ids) > MAX_COUNTS_PER_CONTAINER:
        raise DomainError(f"A container holds the counts of at most {MAX_COUNTS_PER_CONTAINER} boxes.", field="counts")
    gaming_day = gaming_day_of(casino=casino, moment=sealed_at)
    hold_open_gaming_days(casino=casino, days=[gaming_day], what="a container", field="sealed_at")
    _hold_counts(ids)
    counts = list(BadBeatCount.objects.filter(casino=casino, pk__in=ids).select_related("table").order_by("pk"))
    unknown = sorted(set(ids) - {c.pk for c in counts})
    if unknown:
        raise DomainError(f"No count of this casino has the id {', '.join(map(str, unknown[:10]))}.", field="counts")
    for count in counts:
        if count.method != CountMethod.CLOSED_TABLE:
            raise DomainError(f"Count {count.pk} (table {count.table.number}) was not made at a closed poker table: a "
                              "container holds the contents of boxes counted at closed tables (14.19(d)1).",
                              field="counts")
        if count.counted_at > sealed_at:
            raise DomainError(f"Count {count.pk} (table {count.table.number}) was made after the container was sealed.",
                              field="counts")
    hold_open_gaming_days(casino=casino, days={c.gaming_day for c in counts}, what="combining a count",
                          field="counts")
    if refusal := _already_combined(ids):
        raise refusal
    aggregate = fits_column(CombinedContainer, "aggregate", sum((c.amount for c in counts), ZERO), field="counts",
                            what="The aggregate of the counts")
    try:
        with transaction.atomic():  # a savepoint: the unique count is the backstop of the hold above
            container = CombinedContainer.objects.create(
                casino=casino, gaming_day=gaming_day, sealed_at=sealed_at, combined_by=combined_by,
                transported_by=transported_by, aggregate=aggregate)
            CombinedCount.objects.bulk_create([CombinedCount(container=container, count=c) for c in counts])
    except IntegrityError as exc:
        if not unique_violation_on(exc, CombinedCount):
            raise
        raise (_already_combined(ids) or DomainError("These counts are being combined by another request: try again.",
                                                     field="counts")) from exc
    return container


class AggregateVarianceToConfirm(DomainError):
    """A cashier's count of a container that differs from its aggregate count and was not confirmed
    (`verify_aggregate_count`'s `variance_confirmed`): nothing was recorded. Carries the figures, Decimal dollars:
    `amount` counted at the cage, `aggregate` (the sum of the counts combined) and `variance` (amount less
    aggregate). Requirement 14.19(e)-aggregate."""

    def __init__(self, *, amount: Decimal, aggregate: Decimal, variance: Decimal) -> None:
        super().__init__(f"The cage's count differs from the container's aggregate count: {dollars(amount)} counted, "
                         f"{dollars(aggregate)} aggregate, a variance of {dollars(variance)}. Count again, or confirm "
                         "the variance to record it.", field="variance_confirmed")
        self.amount, self.aggregate, self.variance = amount, aggregate, variance


@transaction.atomic
def verify_aggregate_count(*, container: CombinedContainer, amount: Decimal, verified_by: User,
                           variance_confirmed: Decimal = ZERO) -> AggregateCountVerification:
    """A cashier at the cashiers' cage verifies the aggregate count of a container in which poker room personnel
    combined the contents of boxes counted at closed tables: the amount the cashier counted is recorded beside the
    container's aggregate, with the variance between them. Once per container. Requirement 14.19(e)-aggregate.

    amount: Decimal dollars with cents counted at the cage, not negative, within the column. verified_by: accounting
    (the cage cashier) of the container's casino. variance_confirmed: Decimal dollars, the variance (amount less the
    aggregate) the cashier confirmed after counting again; ZERO (the default) confirms none, so a count that agrees
    with the aggregate is recorded at once and one that differs only when confirmed with its exact variance, else
    AggregateVarianceToConfirm (a DomainError, field "variance_confirmed", carrying the figures) and nothing is
    recorded. The verification's gaming day is the casino's gaming day of now (an open one).

    Raises DomainError (400) naming the field, and writes nothing: verified_by, amount (not dollars and cents,
    negative, beyond the column), variance_confirmed (not dollars and cents; the variance not confirmed);
    AlreadyRecorded (409, field "container", existing_id: the verification) for a container verified already.
    """
    if verified_by.casino_id != container.casino_id or not verified_by.has_role(Role.ACCOUNTING):
        raise DomainError("A cashier of the casino's cage (accounting) verifies the aggregate count (14.19(e)).",
                          field="verified_by")
    done = AggregateCountVerification.objects.filter(container=container).first()
    if done is not None:
        raise AlreadyRecorded(f"Container {container.pk} was verified already: {dollars(done.amount)} counted at the "
                              "cage.", field="container", existing_id=done.pk)
    try:
        amount = money(amount)
    except (InvalidOperation, TypeError, ValueError) as exc:
        raise DomainError("Give the amount counted at the cage in dollars and cents.", field="amount") from exc
    if not amount.is_finite():
        raise DomainError("Give the amount counted at the cage in dollars and cents.", field="amount")
    if amount < 0:
        raise DomainError("An amount counted is not negative.", field="amount")
    fits_column(AggregateCountVerification, "amount", amount, field="amount")
    try:
        confirmed = money(variance_confirmed)
    except (InvalidOperation, TypeError, ValueError) as exc:
        raise DomainError("Give the variance confirmed in dollars and cents.", field="variance_confirmed") from exc
    if not confirmed.is_finite():
        raise DomainError("Give the variance confirmed in dollars and cents.", field="variance_confirmed")
    variance = amount - container.aggregate
    if variance != confirmed:
        raise AggregateVarianceToConfirm(amount=amount, aggregate=container.aggregate, variance=variance)
    casino = container.casino
    verified_at = timezone.now()
    gaming_day = gaming_day_of(casino=casino, moment=verified_at)
    hold_open_gaming_days(casino=casino, days=[gaming_day], what="a verification of an aggregate count",
                          field="container")
    try:
        with transaction.atomic():  # a savepoint: the unique container decides between two cashiers at once
            return AggregateCountVerification.objects.create(
                container=container, amount=amount, variance=variance, verified_by=verified_by,
                verified_at=verified_at, gaming_day=gaming_day)
    except IntegrityError as exc:
        if not unique_violation_on(exc, AggregateCountVerification):
            raise
        done = AggregateCountVerification.objects.get(container=container)
        raise AlreadyRecorded(f"Container {container.pk} was verified already: {dollars(done.amount)} counted at the "
                              "cage.", field="container", existing_id=done.pk) from exc


@transaction.atomic
def receive_form_part(*, casino: Casino, serial_number: int, part: str, received_by: User) -> FormReceipt:
    """Accounting records a part of a form: an original from the count room or a duplicate collected from the
    locked accounting box (N.J.A.C. 13:69F-14.19(g), 14.19(h)-reconcile). Idempotent per part. Raises DomainError for
    an unknown serial or part."""
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
    """Accounting's daily reconciliation of the forms (N.J.A.C. 13:69F-14.19(h)-reconcile, 14.19(h)-missing): the
    duplicates collected are counted against the originals received from the count room; missing forms are found by
    serial number; each duplicate that cannot be matched with an original adds its value to poker revenue in the
    Master Game Report (once, append-only). Originals without a duplicate, forms of which nothing arrived, and counts
    that differ from the recorded contributions are listed as variances. May be redone while variances remain. Raises
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
    """Close one gaming day: the official record of its contributions, with what is out of order (N.J.A.C.
    13:69F-14.19(k)-official-record); idempotent: a closed day is returned as is. The close job and the command
    close every ended day in order (`close_gaming_days`); this closes one.

    The figures (`_close_figures`): each jackpot's reset amount of the day, documented (`_documented_resets`); the
    tables whose contributions were not all counted during the day (`_uncounted_tables`); counts with a variance;
    the jackpots whose display accounting did not adjust that day (`_displays_not_adjusted`), and displays not
    adjusted since a supervisor verified a bad beat that day (badbeat's `displays_not_adjusted_upon_verification`);
    containers of combined counts sealed that day that no cashier verified and the day's verifications with a
    variance (`_container_findings`); and any running total that differs from its records (the daily ledger check,
    `selectors.ledger_check`). The close record (casinos.GamingDayClose: who, when, these figures) is append-only.
    `backfill`: the backfill that filled the day and closes it. Raises DomainError for a day that has not ended.
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
    resets = _documented_resets(casino=casino, gaming_day=gaming_day)
    uncounted = _uncounted_tables(casino=casino, gaming_day=gaming_day)
    variances = [{"table": c.table.number, "serial_number": c.serial_number, "variance": f"{c.variance:.2f}"}
                 for c in BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day).exclude(
                     variance=0).select_related("table")]
    not_adjusted = _displays_not_adjusted(casino=casino, gaming_day=gaming_day)
    # each display of a bad beat verified during the day that accounting has not adjusted since the verification
    # (14.19(k) upon a verification: apps.badbeat.selectors.displays_not_adjusted_upon_verification)
    not_adjusted_upon_verification = [item.figures() for item in displays_not_adjusted_upon_verification(
        casino=casino, gaming_day=gaming_day)]
    contributions = Contribution.objects.filter(jackpot__casino=casino, gaming_day=gaming_day).aggregate(
        t=Sum("amount", default=ZERO))["t"]
    # the daily ledger check: every running total against its records (an alert when one differs)
    problems = ledger_check(casino=casino, gaming_day=gaming_day)
    not_verified, container_variances = _container_findings(casino=casino, gaming_day=gaming_day)
    return {"contributions": f"{contributions:.2f}", "resets": resets, "uncounted_tables": uncounted,
            "count_variances": variances, "displays_not_adjusted": not_adjusted, "ledger_problems": problems,
            "displays_not_adjusted_upon_verification": not_adjusted_upon_verification,
            "containers_not_verified": not_verified, "container_variances": container_variances,
            "in_order": not (uncounted or variances or not_adjusted or problems or not_verified
                             or container_variances or not_adjusted_upon_verification)}


def _documented_resets(*, casino: Casino, gaming_day: date) -> list[dict]:
    """Each live jackpot's reset amount of `gaming_day`, documented (N.J.A.C. 13:69F-14.19(p)-documented:
    `document_daily_reset`) and listed for the close: [{"jackpot": name, "contributions", "percentage", "amount"}],
    amounts as text with cents; a jackpot with no reset record for the day is not listed."""
    resets = []
    for jackpot in live_jackpots(casino=casino):
        reset = document_daily_reset(jackpot=jackpot, gaming_day=gaming_day)
        if reset:
            resets.append({"jackpot": jackpot.name, "contributions": f"{reset.contributions:.2f}",
                           "percentage": f"{reset.percentage}", "amount": f"{reset.amount:.2f}"})
    return resets


def _displays_not_adjusted(*, casino: Casino, gaming_day: date) -> list[str]:
    """The names of the casino's live jackpots whose display accounting did not adjust and verify during
    `gaming_day` (N.J.A.C. 13:69F-14.19(k)-daily: at least once each gaming day), in the jackpots' order."""
    return [j.name for j in live_jackpots(casino=casino)
            if not j.display_adjustments.filter(gaming_day=gaming_day).exists()]


def _uncounted_tables(*, casino: Casino, gaming_day: date) -> list[dict]:
    """Every box or container is counted at least once each gaming day (N.J.A.C. 13:69F-14.19(d)-daily,
    14.19(f)1-daily): the casino's participating tables whose contributions up to the end of `gaming_day` were not
    all counted, [{"table": number, "amount": "d.dd" not counted}] by table number (the close flags them)."""
    uncounted = []
    for table in PokerTable.objects.filter(casino=casino, bad_beat_participation=True).order_by("number"):
        left = Contribution.objects.filter(table=table, gaming_day__lte=gaming_day)
        previous = last_count(table=table)
        if previous:
            left = left.filter(id__gt=previous.through_contribution_id)
        total = left.aggregate(t=Sum("amount", default=ZERO))["t"]
        if total:
            uncounted.append({"table": table.number, "amount": f"{total:.2f}"})
    return uncounted


def _container_findings(*, casino: Casino, gaming_day: date) -> tuple[list[dict], list[dict]]:
    """The day close's findings about the containers of combined counts (requirement 14.19(e)-aggregate): those
    sealed in `gaming_day` that no cashier has verified yet, and the verifications recorded in `gaming_day` whose
    amount differs from the container's aggregate. JSON: amounts as text with cents, oldest first."""
    not_verified = [{"container": c.pk, "sealed_at": c.sealed_at.isoformat(), "aggregate": f"{c.aggregate:.2f}"}
                    for c in CombinedContainer.objects.filter(casino=casino, gaming_day=gaming_day,
                                                              verification__isnull=True).order_by("sealed_at", "pk")]
    variances = [{"container": v.container_id, "aggregate": f"{v.container.aggregate:.2f}",
                  "amount": f"{v.amount:.2f}", "variance": f"{v.variance:.2f}"}
                 for v in AggregateCountVerification.objects.filter(
                     container__casino=casino, gaming_day=gaming_day).exclude(variance=0)
                 .select_related("container").order_by("verified_at", "pk")]
    return not_verified, variances


def close_gaming_days(*, casino: Casino, through: date | None = None,
                      closed_by: User | None = None) -> list[GamingDayClose]:
    """Close every ended gaming day of `casino` since it went live that is not closed yet, through `through`
    (default: the day that ended last), oldest first, each with its own close record (`close_gaming_day`): a day
    missed while the scheduler was down is caught up, a day with no records is closed empty (14.19(d)-daily,
    14.19(k)-official-record). Returns the closes made now. Raises DomainError for a `through` that has not ended."""
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
    refers to the closed day, and both days' Master Game Reports show it (N.J.A.C. 13:69F-14.19(h)-revenue,
    14.19(k)-official-record).

    amount: signed Decimal dollars with cents, not zero. Raises DomainError naming the field: not accounting, a day
    that is not closed (record the money itself then), no reason, an amount that is not dollars and cents (a
    fraction of a cent is refused, never rounded), zero or too large, a table of another casino."""
    if not made_by.has_role(Role.ACCOUNTING) or made_by.casino_id != casino.pk:
        raise DomainError("Accounting records a late correction.", field="made_by")
    if kind not in CorrectionKind.values:
        raise DomainError(f"Choose one of {', '.join(CorrectionKind.values)}.", field="kind")
    try:
        if isinstance(amount, float | bool):
            raise TypeError("money is never a float")
        given = Decimal(amount)
        amount = money(given)
    except (InvalidOperation, TypeError, ValueError) as exc:
        raise DomainError("Give the amount in dollars and cents.", field="amount") from exc
    if amount != given:
        raise DomainError("Give the amount in dollars and cents, not a fraction of a cent.", field="amount")
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
