"""Reads about rake."""
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from django.db.models import Count, Sum, TextField, Value
from django.db.models.functions import Cast, NullIf, TruncHour

from apps.casinos.models import Casino
from apps.core.functions import LocalIsoformat
from apps.core.writer import KeptRead, total_differences
from apps.tables.models import PokerTable

from .models import RakeRecord, RakeStructure, TableHourRake, TimeCharge

_RAKE_STRUCTURES = KeptRead(lambda ids: RakeStructure.objects.filter(table_id__in=ids))


def rake_structures_for(*, table_ids) -> dict[tuple[int, int | None], RakeStructure]:
    """The posted rake structures of the tables, by (table id, rotation game id or None for the table's own): one
    query, for every round of play recorded, its SQL kept (apps.core.writer)."""
    return {(s.table_id, s.rotation_game_id): s for s in _RAKE_STRUCTURES(sorted(set(table_ids)))}


def rake_structure_of(*, table: PokerTable, rotation_game=None) -> RakeStructure | None:
    """The rake the sign of `table` describes for a game (N.J.A.C. 13:69F-14.14(c)-sign), the one a round of it pays:
    its rotation game's own (`rotation_game`), else the table's; None when no rake is posted."""
    structures = rake_structures_for(table_ids=[table.pk])
    return (structures.get((table.pk, rotation_game.pk)) if rotation_game is not None else None) or \
        structures.get((table.pk, None))


def rake_for_gaming_day(*, casino: Casino, gaming_day: date) -> Decimal:
    """Total rake (Decimal dollars) of a gaming day: taken from pots (the tables' running totals by hour) plus
    time charges collected (14.14(b))."""
    from_pots = TableHourRake.objects.filter(table__casino=casino, gaming_day=gaming_day).aggregate(
        total=Sum("amount", default=Decimal("0.00")))["total"]
    return from_pots + time_charges_for_gaming_day(casino=casino, gaming_day=gaming_day)


def time_charges_for_gaming_day(*, casino: Casino, gaming_day: date) -> Decimal:
    """Time charges (Decimal dollars) collected at the casino's tables on a gaming day."""
    return TimeCharge.objects.filter(table__casino=casino, gaming_day=gaming_day).aggregate(
        total=Sum("amount", default=Decimal("0.00")))["total"]


def time_charges_by_table(*, casino: Casino, gaming_day: date) -> dict[int, Decimal]:
    """Table number -> time charges collected on a gaming day."""
    rows = (TimeCharge.objects.filter(table__casino=casino, gaming_day=gaming_day).values("table__number")
            .annotate(total=Sum("amount")).order_by())
    return {row["table__number"]: row["total"] for row in rows}


#: The three shifts of a gaming day, as hours after the gaming day starts (e.g. 06:00 day, 14:00 swing,
#: 22:00 grave when the day starts at 06:00).
SHIFTS = (("Day", 0, 8), ("Swing", 8, 16), ("Grave", 16, 24))


def _hour_totals(casino: Casino, gaming_day: date):
    return TableHourRake.objects.filter(table__casino=casino, gaming_day=gaming_day)


def rake_by_table(*, casino: Casino, gaming_day: date) -> list[dict]:
    """Per table, by table number: {"table__number", "table__game", "rounds", "basis", "rake"} — rounds raked, sums
    bet and rake (Decimal dollars) on a gaming day, from the tables' running totals by hour (TableHourRake)."""
    return list(_hour_totals(casino, gaming_day).values("table__number", "table__game")
                .annotate(rounds=Sum("rounds"), basis=Sum("basis"), rake=Sum("amount")).order_by("table__number"))


def rake_by_table_id(*, casino: Casino, gaming_day: date) -> dict[int, Decimal]:
    """Table id -> rake taken from its pots on a gaming day (Decimal dollars), from the running totals."""
    return {row["table_id"]: row["rake"] for row in _hour_totals(casino, gaming_day).values("table_id")
            .annotate(rake=Sum("amount")).order_by()}


def table_day_problems(*, casino: Casino, gaming_day: date) -> list[str]:
    """Each table's kept rake of the gaming day by hour and game (TableHourRake) against the RakeRecord rows of the
    day: one sentence per difference, empty when they agree (14.14)."""
    derived = {(r["table__number"], r["hour"].astimezone(UTC), r["round_of_play__game"],
                r["round_of_play__betting_structure"]): (r["n"], r["basis"], r["amount"]) for r in (
        RakeRecord.objects.filter(table__casino=casino, gaming_day=gaming_day)
        .annotate(hour=TruncHour("round_of_play__started_at", tzinfo=UTC))
        .values("table__number", "hour", "round_of_play__game", "round_of_play__betting_structure")
        .annotate(n=Count("pk"), basis=Sum("basis"), amount=Sum("amount")).order_by())}
    kept = {(t.table.number, t.hour.astimezone(UTC), t.game, t.betting_structure): (t.rounds, t.basis, t.amount)
            for t in _hour_totals(casino, gaming_day).select_related("table")}
    return total_differences(kept, derived, lambda key, k, d: (
        f"Rake at table {key[0]} on {gaming_day:%Y-%m-%d}, hour {key[1]:%H:00} UTC, {key[2]}"
        f"{' ' + key[3] if key[3] else ''} (records, basis, rake): kept {k}, records say {d}."))


def rake_by_game(*, casino: Casino, gaming_day: date) -> list[dict]:
    """Per game dealt (game and betting structure; at a mixed-game table each game of its rotation on its own):
    {"game", "structure", "rounds", "rake", "basis"} — rounds raked, sums bet and rake (Decimal dollars) on a gaming
    day, most rake first, from the running totals by hour."""
    from apps.tables.models import BettingStructure, Game

    rows = (_hour_totals(casino, gaming_day).values("game", "betting_structure")
            .annotate(rounds=Sum("rounds"), rake=Sum("amount"), basis=Sum("basis")).order_by("-rake", "game"))
    return [{"game": Game(row["game"]).label,
             "structure": BettingStructure(row["betting_structure"]).label if row["betting_structure"] else "",
             "rounds": row["rounds"], "rake": row["rake"], "basis": row["basis"]} for row in rows]


def rake_by_hour(*, casino: Casino, gaming_day: date) -> list[tuple[datetime, Decimal]]:
    """Each real hour of a gaming day (23 or 25 across a DST change) as an aware local datetime, with the rake
    of the rounds that started in it (Decimal dollars), from the running totals by hour."""
    from apps.casinos.selectors import gaming_day_bounds

    start, end = (moment.astimezone(UTC) for moment in gaming_day_bounds(casino=casino, gaming_day=gaming_day))
    rows = _hour_totals(casino, gaming_day).values("hour").annotate(rake=Sum("amount")).order_by()
    by_hour = {row["hour"].astimezone(UTC): row["rake"] for row in rows}
    count = int((end - start).total_seconds() // 3600)
    hours = [start + timedelta(hours=h) for h in range(count)]
    return [(h.astimezone(casino.zone), by_hour.get(h, Decimal("0.00"))) for h in hours]


def rake_by_shift(*, casino: Casino, gaming_day: date) -> list[tuple[str, Decimal]]:
    """Rake per shift (Day, Swing, Grave) of a gaming day, from the hourly totals."""
    hourly = rake_by_hour(casino=casino, gaming_day=gaming_day)
    bounds = [(name, a, b if b < 24 else len(hourly)) for name, a, b in SHIFTS]
    return [(name, sum((amount for _, amount in hourly[a:b]), Decimal("0.00"))) for name, a, b in bounds]


#: The columns of the rake export, one line per round of play.
EXPORT_COLUMNS = ("gaming_day", "table", "game", "betting_structure", "round", "started_at", "basis", "percentage",
                  "maximum", "rake", "explanation")


def rake_records_for_export(*, casino: Casino, gaming_day: date) -> Iterator[tuple]:
    """Every rake record of a gaming day in the order the rounds started, as the CSV export writes them: tuples of
    EXPORT_COLUMNS, each value text (None for no percentage, and for no maximum or a maximum of $0.00), started_at in
    the casino's time zone as ISO 8601 and money in dollars and cents ("5.00"). Read from the database in chunks (a
    busy day holds some 13,500). PostgreSQL writes the text itself (apps.core.functions.LocalIsoformat, casts to
    text), so that the export builds no datetime and no Decimal a row."""
    # The round's gaming day is its rake record's (take_rake copies it): filtered on both, each side of the join is
    # read by its day's index. On the record's alone, a day of 88,000 rounds had PostgreSQL hash all 5,000,000 rounds
    # of the history (1.6 s).
    records = (RakeRecord.objects.filter(table__casino=casino, gaming_day=gaming_day,
                                         round_of_play__gaming_day=gaming_day)
               .order_by("round_of_play__started_at", "pk"))
    return (records.annotate(
        x_day=Cast("gaming_day", TextField()),
        x_started=LocalIsoformat("round_of_play__started_at", zone=casino.time_zone),
        **{f"x_{name}": Cast(name, TextField()) for name in ("basis", "percentage", "amount")},
        x_maximum=Cast(NullIf("maximum", Value(Decimal("0.00"))), TextField()))
        .values_list("x_day", "table__number", "round_of_play__game", "round_of_play__betting_structure",
                     "round_of_play_id", "x_started", "x_basis", "x_percentage", "x_maximum", "x_amount",
                     "explanation").iterator(chunk_size=2000))


@dataclass(frozen=True)
class RakeOverDays:
    """Rake taken from pots (14.14) over a span of gaming days, Decimal dollars, for the revenue page's charts:
    `days` every gaming day of the span oldest first (0.00 for a day with none), `weeks` the days summed by week
    (keyed by the week's Monday; the first and last weeks may be partial), `tables` (table number, rounds settled,
    rake) over the span by table number. Time charges are not in these figures."""

    start: date
    end: date
    days: list[tuple[date, Decimal]]
    weeks: list[tuple[date, Decimal]]
    tables: list[tuple[int, int, Decimal]]


def rake_over_days(*, casino: Casino, start: date, end: date) -> RakeOverDays:
    """The casino's rake from pots from gaming day `start` through `end` (inclusive), by day, week and table: one
    grouped query on the tables' running totals by hour (TableHourRake, index rake_hour_total_by_day), at most
    days × tables rows whatever the rounds of play."""
    rows = list(TableHourRake.objects.filter(table__casino=casino, gaming_day__gte=start, gaming_day__lte=end)
                .values("gaming_day", "table__number").annotate(rounds=Sum("rounds"), rake=Sum("amount"))
                .order_by("gaming_day", "table__number"))
    zero = Decimal("0.00")
    by_day: dict[date, Decimal] = {start + timedelta(days=i): zero for i in range((end - start).days + 1)}
    by_table: dict[int, list] = {}
    for row in rows:
        by_day[row["gaming_day"]] += row["rake"]
        table = by_table.setdefault(row["table__number"], [0, zero])
        table[0] += row["rounds"]
        table[1] += row["rake"]
    by_week: dict[date, Decimal] = {}
    for day, amount in by_day.items():
        monday = day - timedelta(days=day.weekday())
        by_week[monday] = by_week.get(monday, zero) + amount
    return RakeOverDays(start=start, end=end, days=list(by_day.items()), weeks=list(by_week.items()),
                        tables=[(number, rounds, rake) for number, (rounds, rake) in sorted(by_table.items())])


def rounds_per_hour_by_table(*, casino: Casino, gaming_day: date) -> tuple[list[datetime], dict[int, list[int]]]:
    """The real hours of a gaming day (aware, local, as `rake_by_hour` gives them) and, for each table number with a
    round settled that day, the rounds settled in each of those hours (one rake record per settled round, 14.14):
    one grouped query on the running totals by hour (TableHourRake), whatever the rounds."""
    from apps.casinos.selectors import gaming_day_bounds

    start, end = (moment.astimezone(UTC) for moment in gaming_day_bounds(casino=casino, gaming_day=gaming_day))
    hours = [start + timedelta(hours=h) for h in range(int((end - start).total_seconds() // 3600))]
    index = {hour: i for i, hour in enumerate(hours)}
    tables: dict[int, list[int]] = {}
    for row in (_hour_totals(casino, gaming_day).values("table__number", "hour").annotate(rounds=Sum("rounds"))
                .order_by("table__number")):
        counts = tables.setdefault(row["table__number"], [0] * len(hours))
        at = index.get(row["hour"].astimezone(UTC))
        if at is not None:
            counts[at] += row["rounds"]
    return [h.astimezone(casino.zone) for h in hours], tables
