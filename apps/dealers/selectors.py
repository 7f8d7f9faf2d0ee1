"""Reads: the dealer rotation of a shift as a grid."""
from dataclasses import dataclass
from datetime import datetime, timedelta

from apps.casinos.models import Casino

from .models import DealerDown


@dataclass(frozen=True)
class Schedule:
    times: list[datetime]
    rows: list[tuple[str, list[str]]]  # dealer name, one cell per time: "T3" or "Break" or ""


def shift_schedule(*, casino: Casino, start: datetime, end: datetime) -> Schedule:
    downs = list(DealerDown.objects.filter(casino=casino, starts_at__gte=start, starts_at__lt=end)
                 .select_related("dealer", "table"))
    times = sorted({d.starts_at for d in downs})
    cells: dict[str, dict[datetime, str]] = {}
    for down in downs:
        name = down.dealer.get_full_name() or down.dealer.username
        cells.setdefault(name, {})[down.starts_at] = f"Table {down.table.number}" if down.table is not None else "Break"
    return Schedule(times=times, rows=[(name, [row.get(t, "") for t in times]) for name, row in sorted(cells.items())])


#: The longest down `services.plan_rotation` plans (60 minutes): a down under way started less than this ago.
LONGEST_DOWN = timedelta(minutes=60)


def downs_in_force(*, casino: Casino, now: datetime) -> list[DealerDown]:
    """The casino's dealer downs under way at `now` (aware): each dealer in the box (`table` set) since `starts_at`,
    and each dealer on break (`table` None), with the dealer and table read along. One query over the last hour of
    the downs' start index (no down lasts longer than LONGEST_DOWN), whatever the tables and the history; empty when
    no rotation is planned for this moment."""
    return list(DealerDown.objects.filter(casino=casino, starts_at__gt=now - LONGEST_DOWN, starts_at__lte=now,
                                          ends_at__gt=now)
                .select_related("dealer", "table").order_by("starts_at", "pk"))


@dataclass(frozen=True)
class Break:
    """A dealer's break: from `starts_at` to `ends_at` (aware), the planned break downs that follow one another."""

    starts_at: datetime
    ends_at: datetime


@dataclass(frozen=True)
class DealerShift:
    """A dealer's downs around `now`: the one under way (`current`: at a table, or a break with `table` None; None when
    no down is planned for this moment), the next ones (`upcoming`, in order) and the next break that starts after
    `now` (`next_break`: its break downs in a row as one; None when none is planned)."""

    current: DealerDown | None
    upcoming: list[DealerDown]
    next_break: Break | None = None

    @property
    def table(self):
        """The table the dealer is dealing at now, or None (on break, or no down planned)."""
        return self.current.table if self.current is not None else None


#: How far `dealer_shift` looks for the next break beyond its `ahead`: the longest plan (plan_rotation: 12 hours).
LONGEST_PLAN = timedelta(hours=12)


def _first_break(downs: list[DealerDown]) -> Break | None:
    """The first break among `downs` (in order), with the break downs that follow it without a gap."""
    first = next((i for i, d in enumerate(downs) if d.table_id is None), None)
    if first is None:
        return None
    starts_at = ends_at = downs[first].starts_at
    for down in downs[first:]:
        if down.table_id is not None or down.starts_at != ends_at:
            break
        ends_at = down.ends_at
    return Break(starts_at=starts_at, ends_at=ends_at)


def dealer_shift(*, dealer, now: datetime, ahead: timedelta = timedelta(hours=4)) -> DealerShift:
    """`dealer`'s down under way at `now` (aware), the downs starting in the `ahead` that follows, with their tables,
    and the next break starting after `now` (its break downs in a row as one Break): one query on the
    (dealer, starts_at) index (no down lasts longer than LONGEST_DOWN), and a second only when downs are planned
    ahead but no break among them (the next break within LONGEST_PLAN after them)."""
    downs = list(DealerDown.objects.filter(dealer=dealer, starts_at__gt=now - LONGEST_DOWN, starts_at__lt=now + ahead)
                 .select_related("table").order_by("starts_at"))
    current = next((d for d in downs if d.starts_at <= now < d.ends_at), None)
    upcoming = [d for d in downs if d.starts_at > now]
    next_break = _first_break(upcoming)
    if next_break is None and upcoming:
        next_break = _first_break(list(
            DealerDown.objects.filter(dealer=dealer, table__isnull=True, starts_at__gte=now + ahead,
                                      starts_at__lt=now + ahead + LONGEST_PLAN).order_by("starts_at")[:12]))
    return DealerShift(current=current, upcoming=upcoming, next_break=next_break)
