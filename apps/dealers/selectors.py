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
class DealerShift:
    """A dealer's downs around `now`: the one under way (`current`: at a table, or a break with `table` None; None when
    no down is planned for this moment) and the next ones (`upcoming`, in order)."""

    current: DealerDown | None
    upcoming: list[DealerDown]

    @property
    def table(self):
        """The table the dealer is dealing at now, or None (on break, or no down planned)."""
        return self.current.table if self.current is not None else None


def dealer_shift(*, dealer, now: datetime, ahead: timedelta = timedelta(hours=4)) -> DealerShift:
    """`dealer`'s down under way at `now` (aware) and the downs starting in the `ahead` that follows, with their tables:
    one query on the (dealer, starts_at) index (no down lasts longer than LONGEST_DOWN)."""
    downs = list(DealerDown.objects.filter(dealer=dealer, starts_at__gt=now - LONGEST_DOWN, starts_at__lt=now + ahead)
                 .select_related("table").order_by("starts_at"))
    current = next((d for d in downs if d.starts_at <= now < d.ends_at), None)
    return DealerShift(current=current, upcoming=[d for d in downs if d.starts_at > now])
