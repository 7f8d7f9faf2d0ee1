"""Reads about rounds of play: a day's running totals per table, their re-derivation from the records, and the
seats the newest round of each table reported."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum

from apps.casinos.models import Casino
from apps.core.writer import total_differences
from apps.tables.models import PokerTable

from .models import RoundOfPlay, RoundPlayer, TableGamingDay


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


@dataclass(frozen=True)
class SeatsSeen:
    """The seats the feed last reported at a table: the newest round of play's players (seat number -> name, names
    may be blank), when that round started, and whether it is recent enough to be taken as the table as it is now;
    `round_id`: that round's id."""
    table_id: int
    seats: dict[int, str]
    seen_at: datetime
    current: bool
    round_id: int


#: A table's newest round older than this says nothing about who sits there now.
SEATS_FRESH_FOR = timedelta(minutes=30)


def seats_seen(*, table_ids: Iterable[int], now: datetime) -> dict[int, SeatsSeen]:
    """Table id -> the seats its newest round of play reported (SeatsSeen); tables with no round are left out.

    Two queries whatever the history: one index-backed lookup of each table's newest round (round_table_newest_first),
    one read of those rounds' players. ``current`` is False when the round started more than SEATS_FRESH_FOR before
    ``now`` (a timezone-aware datetime): the round then says nothing of who sits there now. This is the rounds'
    report, evidence the floor's seats record (apps.seats.selectors.seats_of) is compared against (14.18)."""
    table_ids = list(table_ids)
    if not table_ids:
        return {}
    newest = RoundOfPlay.objects.filter(table_id=OuterRef("pk")).order_by("-started_at", "-id")
    rounds = {round_id: (table_id, started_at) for table_id, round_id, started_at in (
        PokerTable.objects.filter(pk__in=table_ids)
        .annotate(round_id=Subquery(newest.values("pk")[:1]), started_at=Subquery(newest.values("started_at")[:1]))
        .filter(round_id__isnull=False).values_list("pk", "round_id", "started_at"))}
    seats: dict[int, dict[int, str]] = {pk: {} for pk in rounds}
    for round_id, seat, name in (RoundPlayer.objects.filter(round_of_play_id__in=list(rounds)).order_by()
                                 .values_list("round_of_play_id", "seat", "name")):
        seats[round_id][seat] = name
    return {table_id: SeatsSeen(table_id=table_id, seats=dict(sorted(seats[pk].items())), seen_at=started_at,
                                current=now - started_at <= SEATS_FRESH_FOR, round_id=pk)
            for pk, (table_id, started_at) in rounds.items()}


def casino_rounds(*, casino_id: int | None) -> QuerySet[RoundOfPlay]:
    """The rounds of play of the casino `casino_id` (none for None: a user of no casino), newest first (started_at,
    id: the index round_newest_first), each read with its seats, pots and awards (prefetched): what the API answers
    a round with (GET /api/rounds/ and /api/rounds/{id}/)."""
    if casino_id is None:
        return RoundOfPlay.objects.none()
    return (RoundOfPlay.objects.filter(table__casino_id=casino_id).prefetch_related("players", "pots__awards")
            .order_by("-started_at", "-id"))
