"""Reads about counts, forms, reconciliation and the Master Game Report (N.J.A.C. 13:69F-14.19)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from django.db.models import Count, Max, Prefetch, Q, QuerySet, Sum

from apps.badbeat.models import Contribution
from apps.casinos.models import Casino, Department, GamingDayClose, LicenseType, User
from apps.casinos.selectors import current_gaming_day, is_gaming_day_open
from apps.core.money import ZERO, dollars
from apps.core.roles import Role
from apps.rake.models import RakeRecord, TimeCharge
from apps.tables.models import PokerTable

from .models import (
    BadBeatCount,
    CombinedContainer,
    CombinedCount,
    CountMethod,
    FormPart,
    LateCorrection,
    MasterGameReportAdjustment,
    Reconciliation,
)

#: Departments whose employees may never witness a count (14.19(f)2.ii(1)): surveillance, internal audit and
#: the department responsible for the conduct of poker.
BARRED_DEPARTMENTS = {Department.SURVEILLANCE, Department.INTERNAL_AUDIT, Department.POKER}


def witness_problems(*, witness: User, counter: User) -> list[str]:
    """Why `witness` may not witness and verify a count as a representative of a second department
    (N.J.A.C. 13:69F-14.19(f)2-witness, 14.19(f)2-second-department); an empty list when they may."""
    problems = []
    if witness.pk == counter.pk:
        problems.append("The witness cannot be the dealer who counts.")
    if witness.license_type not in (LicenseType.CASINO_KEY_EMPLOYEE, LicenseType.CASINO):
        problems.append("The witness must hold a casino license or a casino key employee license (14.19(f)2.i).")
    if not witness.works_on_casino_floor:
        problems.append("The witness's position must require presence on the casino floor (14.19(f)2.i).")
    if witness.department in BARRED_DEPARTMENTS:
        problems.append(f"An employee of {witness.get_department_display().lower()} may not witness a bad beat count "
                        "(14.19(f)2.ii(1)).")
    elif witness.has_role(Role.SURVEILLANCE, Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.DEALER):
        problems.append("Surveillance and poker room staff may not witness as a second department "
                        "(14.19(f)2.ii(1)).")
    if not witness.approved_count_witness:
        problems.append("The witness's position is not identified in the approved internal controls (14.19(f)2.ii).")
    return problems


def last_count(*, table: PokerTable) -> BadBeatCount | None:
    return BadBeatCount.objects.filter(table=table).order_by("-through_contribution_id", "-pk").first()


def uncounted_contributions(*, table: PokerTable, through_id: int | None = None) -> QuerySet[Contribution]:
    """The table's contributions recorded since its last count (the contents of its box or container)."""
    previous = last_count(table=table)
    qs = Contribution.objects.filter(table=table, id__gt=previous.through_contribution_id if previous else 0)
    return qs.filter(id__lte=through_id) if through_id is not None else qs


def uncounted_total(*, table: PokerTable) -> Decimal:
    return uncounted_contributions(table=table).aggregate(t=Sum("amount", default=ZERO))["t"]


def uncounted_by_table(*, tables: list[PokerTable]) -> dict[int, Decimal]:
    """Decimal dollars in each of `tables`' box or container not yet counted (its contributions recorded since its
    last count, as `uncounted_total`), by table id; a table with nothing uncounted is left out. Two queries whatever
    the tables (none for no tables), each contribution range read through the index on (table, id)."""
    if not tables:
        return {}
    ids = [t.pk for t in tables]
    since = dict(BadBeatCount.objects.filter(table_id__in=ids).values("table_id")
                 .annotate(through=Max("through_contribution_id")).values_list("table_id", "through"))
    ranges = Q()
    for pk in ids:
        ranges |= Q(table_id=pk, id__gt=since.get(pk, 0))
    return dict(Contribution.objects.filter(ranges).order_by().values("table_id")
                .annotate(total=Sum("amount")).values_list("table_id", "total"))


def container_uncounted_at_closing(table: PokerTable) -> list[str]:
    """What a closing table's contribution container holds that no count has recorded (N.J.A.C.
    13:69F-14.19(f)1-closing: the container is counted "upon table closing"): one text naming the amount, e.g. ["$12.50
    of bad beat contributions not yet counted in its contribution container"], or [] when all is counted or the table
    posts no contribution container (`PokerTable.contribution_container_capacity` empty: its bad beat payout box is
    counted at the closed table or at the cage, 14.19(d)-place). The counts app's part in a closing
    (apps.tables.closing)."""
    if table.contribution_container_capacity is None:
        return []
    total = uncounted_total(table=table)
    return [f"{dollars(total)} of bad beat contributions not yet counted in its contribution container"] if total else []


@dataclass(frozen=True)
class ContainerFull:
    """A table whose contribution container is full: `uncounted` (Decimal dollars, contributions since its last
    count) has reached its posted `capacity` (Decimal dollars), so a count is due now (N.J.A.C.
    13:69F-14.19(f)1-full)."""

    table: PokerTable
    uncounted: Decimal
    capacity: Decimal

    @property
    def message(self) -> str:
        """E.g. "Count due: container full ($500.00 uncounted, capacity $500.00) (14.19(f)1-full)"."""
        return (f"Count due: container full ({dollars(self.uncounted)} uncounted, capacity {dollars(self.capacity)}) "
                "(14.19(f)1)")


def containers_full(*, casino: Casino, tables: list[PokerTable] | None = None) -> list[ContainerFull]:
    """The tables of `casino` (or of `tables`, the casino's as read already) whose contribution container is full, by
    number: the contributions not yet counted reach the capacity it posts — "prior to or whenever the container is
    filled to maximum capacity" the count is due (N.J.A.C. 13:69F-14.19(f)1-full); just below it, not yet. A table that
    posts no capacity is never listed. At most three queries whatever the tables (`uncounted_by_table`)."""
    if tables is None:
        tables = list(PokerTable.objects.filter(casino=casino, contribution_container_capacity__isnull=False))
    posted = sorted(((t, t.contribution_container_capacity) for t in tables
                     if t.contribution_container_capacity is not None), key=lambda pair: pair[0].number)
    uncounted = uncounted_by_table(tables=[t for t, _ in posted])
    return [ContainerFull(table=t, uncounted=uncounted[t.pk], capacity=capacity)
            for t, capacity in posted if uncounted.get(t.pk, ZERO) >= capacity]


def counts_for_gaming_day(*, casino: Casino, gaming_day: date) -> QuerySet[BadBeatCount]:
    return (BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day)
            .select_related("table", "counted_by", "witness", "recorded_by").prefetch_related("receipts")
            .order_by("counted_at", "pk"))


def forms_for_gaming_day(*, casino: Casino, gaming_day: date) -> QuerySet[BadBeatCount]:
    return counts_for_gaming_day(casino=casino, gaming_day=gaming_day).filter(serial_number__isnull=False).order_by(
        "serial_number")


@dataclass
class FormMatch:
    """The two parts of the day's forms, matched by serial number (14.19(h)-missing)."""

    forms: list[BadBeatCount]
    originals: set[int]
    duplicates: set[int]

    @property
    def serials(self) -> set[int]:
        return {f.serial_number for f in self.forms if f.serial_number is not None}  # forms: counts with a serial

    @property
    def missing_originals(self) -> list[int]:
        return sorted(self.duplicates - self.originals)

    @property
    def missing_duplicates(self) -> list[int]:
        return sorted(self.originals - self.duplicates)

    @property
    def not_received(self) -> list[int]:
        return sorted(self.serials - self.originals - self.duplicates)


def _matched(forms: list[BadBeatCount]) -> FormMatch:
    """The serials of `forms` (counts with a serial, their receipts prefetched) whose original and whose duplicate
    were received."""
    parts = {(f.serial_number, r.part) for f in forms if f.serial_number is not None for r in f.receipts.all()}
    return FormMatch(forms=forms, originals={s for s, p in parts if p == FormPart.ORIGINAL},
                     duplicates={s for s, p in parts if p == FormPart.DUPLICATE})


def match_forms(*, casino: Casino, gaming_day: date) -> FormMatch:
    return _matched(list(forms_for_gaming_day(casino=casino, gaming_day=gaming_day)))


@dataclass
class MasterGameReportRow:
    table_number: int
    game: str
    rounds: int = 0
    rake: Decimal = ZERO
    time_charges: Decimal = ZERO
    adjustments: Decimal = ZERO
    contributions: Decimal = ZERO
    counted: Decimal = ZERO
    count_variance: Decimal = ZERO
    #: The table's counts of the day (0: not counted; `counted` and `count_variance` then say nothing).
    counts: int = 0

    @property
    def revenue(self) -> Decimal:
        """Poker revenue: rake and time charges, plus the value of unmatched duplicate forms (14.19(h)-revenue)."""
        return self.rake + self.time_charges + self.adjustments


@dataclass
class MasterGameReport:
    casino: Casino
    gaming_day: date
    rows: list[MasterGameReportRow]
    adjustments: list[MasterGameReportAdjustment] = field(default_factory=list)
    reconciliation: Reconciliation | None = None
    corrections_made: list[LateCorrection] = field(default_factory=list)
    corrections_of_this_day: list[LateCorrection] = field(default_factory=list)

    def total(self, name: str) -> Decimal:
        return sum((getattr(r, name) for r in self.rows), ZERO)

    @property
    def totals(self) -> dict[str, Decimal]:
        return {name: self.total(name) for name in ("rake", "time_charges", "adjustments", "revenue",
                                                    "contributions", "counted", "count_variance")}


def master_game_report(*, casino: Casino, gaming_day: date) -> MasterGameReport:
    """The poker room's Master Game Report of a gaming day, table by table: rounds, rake, time charges, the
    adjustments for unmatched duplicate forms (14.19(h)-revenue) and poker revenue; beside it, the bad beat
    contributions recorded (not revenue) and the amounts counted (with the number of counts: a table with none was
    not counted); the late corrections recorded on the day for
    closed days, and those recorded later for this day once it was closed. Decimal dollars."""
    rows: dict[int, MasterGameReportRow] = {
        t.pk: MasterGameReportRow(t.number, t.get_game_display()) for t in PokerTable.objects.filter(casino=casino)}
    for rake in (RakeRecord.objects.filter(table__casino=casino, gaming_day=gaming_day).values("table")
                 .annotate(n=Count("pk"), total=Sum("amount")).order_by()):
        rows[rake["table"]].rounds, rows[rake["table"]].rake = rake["n"], rake["total"]
    for charged in (TimeCharge.objects.filter(table__casino=casino, gaming_day=gaming_day).values("table")
                    .annotate(total=Sum("amount")).order_by()):
        rows[charged["table"]].time_charges = charged["total"]
    for given in (Contribution.objects.filter(table__casino=casino, gaming_day=gaming_day).values("table")
                  .annotate(total=Sum("amount")).order_by()):
        rows[given["table"]].contributions = given["total"]
    for count in (BadBeatCount.objects.filter(casino=casino, gaming_day=gaming_day).values("table")
                  .annotate(n=Count("pk"), total=Sum("amount"), variance=Sum("variance")).order_by()):
        row = rows[count["table"]]
        row.counts, row.counted, row.count_variance = count["n"], count["total"], count["variance"]
    adjustments = list(MasterGameReportAdjustment.objects.filter(casino=casino, gaming_day=gaming_day)
                       .select_related("form", "table"))
    for a in adjustments:
        rows[a.table_id].adjustments += a.amount
    kept = sorted((r for r in rows.values() if r.rounds or r.rake or r.time_charges or r.adjustments
                   or r.contributions or r.counts), key=lambda r: r.table_number)
    corrections = LateCorrection.objects.filter(casino=casino).select_related("table", "made_by")
    return MasterGameReport(
        casino=casino, gaming_day=gaming_day, rows=kept, adjustments=adjustments,
        reconciliation=Reconciliation.objects.filter(casino=casino, gaming_day=gaming_day).first(),
        corrections_made=list(corrections.filter(gaming_day=gaming_day).order_by("created_at", "pk")),
        corrections_of_this_day=list(corrections.filter(corrects_gaming_day=gaming_day).order_by("created_at", "pk")))


def reconciliation_days(*, casino: Casino, days: list[date]) -> list[dict]:
    """For the accounting screen: each gaming day, its forms, the parts received, and its reconciliation."""
    recs = {r.gaming_day: r for r in Reconciliation.objects.filter(casino=casino, gaming_day__in=days)}
    forms: dict[date, list[BadBeatCount]] = {}
    for form in (BadBeatCount.objects.filter(casino=casino, gaming_day__in=days, serial_number__isnull=False)
                 .prefetch_related("receipts").order_by("serial_number")):  # the days' forms in one query
        forms.setdefault(form.gaming_day, []).append(form)
    out = []
    for day in days:
        match = _matched(forms.get(day, []))
        out.append({"gaming_day": day, "forms": len(match.forms), "originals": len(match.originals),
                    "duplicates": len(match.duplicates), "reconciliation": recs.get(day)})
    return out


def last_ledger_check(*, casino: Casino) -> GamingDayClose | None:
    """The casino's latest closed gaming day, whose summary holds the daily ledger check (`ledger_problems`: the kept
    running totals against their records; empty when they agree), or None before the first close."""
    return GamingDayClose.objects.filter(casino=casino).order_by("-gaming_day").first()


def ledger_check(*, casino: Casino, gaming_day: date) -> list[str]:
    """The daily ledger check (14.19(k)-official-record, 14.19(p)-documented): every running total kept beside the
    money records, re-derived from the records — each jackpot's balance, reset reserve and contributions over all of
    history and by gaming day, and each table's rounds, rake and contributions of `gaming_day`. One sentence per
    difference; empty when the books agree to the cent. Sums history: run by the close job, never on a request."""
    from apps.badbeat.selectors import ledger_problems
    from apps.badbeat.selectors import table_day_problems as contribution_problems
    from apps.rake.selectors import table_day_problems as rake_problems
    from apps.rounds.selectors import table_day_problems as round_problems

    problems = [p for jackpot in casino.jackpots.all() for p in ledger_problems(jackpot=jackpot)]
    for check in (round_problems, rake_problems, contribution_problems):
        problems += check(casino=casino, gaming_day=gaming_day)
    return problems


@dataclass(frozen=True)
class CountDay:
    """One gaming day of the casino's bad beat money, Decimal dollars: the contributions recorded, what
    the day's counts of the boxes, containers and forms found (14.19(d)-place, 14.19(e)-cashier-counts, 14.19(f)), what
    those counts expected (the contributions since each table's previous count) and their variance (counted less
    expected)."""

    gaming_day: date
    contributions: Decimal
    counted: Decimal
    expected: Decimal
    variance: Decimal


def contributions_against_counts(*, casino: Casino, start: date, end: date) -> list[CountDay]:
    """Every gaming day from `start` through `end` (inclusive, oldest first): the casino's contributions from the
    jackpots' running totals by day (GamingDayContributions) against its counts of the day (BadBeatCount, a few per
    table and day, read by their gaming-day index). Two grouped queries bounded by the span, whatever the rounds."""
    from datetime import timedelta

    from apps.badbeat.models import GamingDayContributions

    days = {start + timedelta(days=i): [ZERO, ZERO, ZERO, ZERO] for i in range((end - start).days + 1)}
    for row in (GamingDayContributions.objects.filter(jackpot__casino=casino, gaming_day__gte=start,
                                                      gaming_day__lte=end)
                .values("gaming_day").annotate(total=Sum("contributions")).order_by()):
        days[row["gaming_day"]][0] = row["total"]
    for count in (BadBeatCount.objects.filter(casino=casino, gaming_day__gte=start, gaming_day__lte=end)
                  .values("gaming_day").annotate(counted=Sum("amount"), expected=Sum("expected"),
                                                 variance=Sum("variance")).order_by()):
        days[count["gaming_day"]][1:] = [count["counted"], count["expected"], count["variance"]]
    return [CountDay(day, *figures) for day, figures in days.items()]


# --- containers of combined counts (requirement 14.19(e)-aggregate) ---------------------------------------------------

#: How many rows a page's list of counts to combine or of containers awaiting verification shows at most.
CONTAINER_LIST_LIMIT = 100


def counts_to_combine(*, casino: Casino, limit: int = CONTAINER_LIST_LIMIT) -> QuerySet[BadBeatCount]:
    """The counts of `casino` made at a closed poker table in its open gaming days (today's, and yesterday's until it
    is closed) that are in no container yet: what poker room personnel may combine in a container for the cage
    (apps.counts.services.combine_counts, requirement 14.19(e)-aggregate). Newest first, at most `limit`, read
    through the counts' gaming-day index."""
    today = current_gaming_day(casino=casino)
    days = [day for day in (today - timedelta(days=1), today) if is_gaming_day_open(casino=casino, gaming_day=day)]
    return (BadBeatCount.objects.filter(casino=casino, gaming_day__in=days, method=CountMethod.CLOSED_TABLE,
                                        combined_in__isnull=True)
            .select_related("table", "counted_by", "witness").order_by("-counted_at", "-pk")[:limit])


def containers_for_casino(*, casino: Casino) -> QuerySet[CombinedContainer]:
    """Every container of combined counts of `casino`, newest first by when it was sealed (the index
    container_newest_first), with who combined and carried it, its verification and its counts (two queries more for
    a page of them)."""
    entries = CombinedCount.objects.select_related("count__table").order_by("count__table__number", "count_id")
    return (CombinedContainer.objects.filter(casino=casino)
            .select_related("combined_by", "transported_by", "verification", "verification__verified_by")
            .prefetch_related(Prefetch("entries", queryset=entries)).order_by("-sealed_at", "-id"))


def containers_awaiting_verification(*, casino: Casino,
                                     limit: int = CONTAINER_LIST_LIMIT) -> QuerySet[CombinedContainer]:
    """The containers of `casino` that no cashier has verified yet (requirement 14.19(e)-aggregate), newest first, at
    most `limit`."""
    return containers_for_casino(casino=casino).filter(verification__isnull=True)[:limit]


def container_of(*, casino: Casino, pk: int) -> CombinedContainer | None:
    """The container `pk` of `casino` with its counts (each with its table, counter and witness) and its
    verification, or None when `casino` has no such container."""
    entries = (CombinedCount.objects.select_related("count__table", "count__counted_by", "count__witness")
               .order_by("count__table__number", "count_id"))
    return (CombinedContainer.objects.filter(casino=casino, pk=pk)
            .select_related("combined_by", "transported_by", "verification", "verification__verified_by")
            .prefetch_related(Prefetch("entries", queryset=entries)).first())
