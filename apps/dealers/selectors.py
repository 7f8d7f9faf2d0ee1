"""Reads: the dealer rotation of a shift as a grid."""
from dataclasses import dataclass
from datetime import datetime

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
        cells.setdefault(name, {})[down.starts_at] = f"Table {down.table.number}" if down.table_id else "Break"
    return Schedule(times=times, rows=[(name, [row.get(t, "") for t in times]) for name, row in sorted(cells.items())])
