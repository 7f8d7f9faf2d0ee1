"""Reads about rounds of play: a day's running totals per table, and their re-derivation from the records."""
from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, Sum

from apps.casinos.models import Casino
from apps.core.bulk import total_differences

from .models import RoundOfPlay, TableGamingDay


def rounds_by_table(*, casino: Casino, gaming_day: date) -> dict[int, TableGamingDay]:
    """Table id -> the table's running total of the gaming day (rounds, dead rounds, sums bet in Decimal dollars):
    one row per table, whatever the day's rounds."""
    return {t.table_id: t for t in TableGamingDay.objects.filter(table__casino=casino, gaming_day=gaming_day)}


def table_day_problems(*, casino: Casino, gaming_day: date) -> list[str]:
    """Each table's kept running total of the gaming day (TableGamingDay) against the RoundOfPlay records of the
    day: one sentence per difference, empty when they agree."""
    derived = {r["table__number"]: (r["n"], r["dead"], r["pot"]) for r in (
        RoundOfPlay.objects.filter(table__casino=casino, gaming_day=gaming_day).values("table__number")
        .annotate(n=Count("pk"), dead=Count("pk", filter=Q(is_dead=True)), pot=Sum("pot_total")).order_by())}
    kept = {t.table.number: (t.rounds, t.dead_rounds, t.pot_total) for t in TableGamingDay.objects.filter(
        table__casino=casino, gaming_day=gaming_day).select_related("table")}
    return total_differences(kept, derived, lambda number, k, d: (
        f"Rounds at table {number} on {gaming_day:%Y-%m-%d} (rounds, dead, sums bet): kept {k}, records say {d}."))
