"""The revenue page's charts (issue 15): rake by gaming day, week and table, and rounds settled per hour by table,
equal to a re-derivation from the rake records, read in a number of queries that does not grow with the rounds."""
from collections import defaultdict
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rake.charts import rake_span_charts, rounds_per_hour_chart
from apps.rake.models import RakeRecord
from apps.rake.selectors import rake_over_days, rounds_per_hour_by_table
from tests.factories import RakeStructureFactory

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
D = Decimal
FRIDAY = date(2026, 11, 20)


def play(table, at, each="40"):
    """A round of play dealt at `at`, recorded as it was dealt (its gaming day open then)."""
    with time_machine.travel(at + timedelta(seconds=30), tick=False):
        return record_round_of_play(table=table, round_in=RoundIn(started_at=at, board="Ah Kd 5c 9s 3h", players=[
            PlayerIn(seat=1, contributed=D(each), hole_cards="As Ks"), PlayerIn(seat=2, contributed=D(each),
                                                                                hole_cards="2c 7d")]))


@pytest.fixture
def rounds(casino):
    """Rounds at two tables over nine gaming days across two weeks, at several hours (one after midnight, which
    belongs to the gaming day before), with pots of different sizes."""
    first = RakeStructureFactory(table__casino=casino, table__number=1).table
    second = RakeStructureFactory(table__casino=casino, table__number=2, maximum=D("3.00")).table
    for offset in range(9):
        day = FRIDAY - timedelta(days=offset)
        for hour, minute, table, each in ((9, 10, first, "40"), (9, 40, first, "12"), (11, 5, second, "60"),
                                          (23, 59, first, "7"), (1, 30, second, "30")):
            moment = datetime.combine(day + timedelta(days=1 if hour < 6 else 0), datetime.min.time(),
                                      tzinfo=NEW_YORK).replace(hour=hour, minute=minute)
            if offset % 3 == 0 or table is first:
                play(table, moment, each)
    return first, second


def test_rake_by_day_week_and_table_equal_the_records(casino, rounds):
    start, end = FRIDAY - timedelta(days=29), FRIDAY
    with CaptureQueriesContext(connection) as queries:
        rake = rake_over_days(casino=casino, start=start, end=end)
    assert len(queries) == 1
    records = RakeRecord.objects.filter(table__casino=casino, gaming_day__range=(start, end))
    by_day = {r["gaming_day"]: r["total"] for r in records.values("gaming_day").annotate(total=Sum("amount"))}
    assert len(rake.days) == 30 and rake.days[0][0] == start and rake.days[-1][0] == end
    assert {day: amount for day, amount in rake.days if amount} == by_day
    assert all(amount == D("0.00") for day, amount in rake.days if day not in by_day)
    weeks = defaultdict(lambda: D("0.00"))
    for day, amount in by_day.items():
        weeks[day - timedelta(days=day.weekday())] += amount
    assert {monday: amount for monday, amount in rake.weeks if amount} == dict(weeks)
    assert all(monday.weekday() == 0 for monday, _ in rake.weeks) and rake.weeks[0][0] <= start
    tables = {(r["table__number"], r["n"], r["total"]) for r in records.values("table__number")
              .annotate(n=Count("pk"), total=Sum("amount"))}
    assert set(rake.tables) == tables
    assert sum(amount for _, amount in rake.days) == sum(amount for _, amount in rake.weeks) == \
        sum(amount for *_, amount in rake.tables) == records.aggregate(t=Sum("amount"))["t"]


def test_rounds_per_hour_by_table_equal_the_records(casino, rounds):
    hours, tables = rounds_per_hour_by_table(casino=casino, gaming_day=FRIDAY)
    assert len(hours) == 24 and hours[0] == datetime(2026, 11, 20, 6, tzinfo=NEW_YORK)
    derived = defaultdict(lambda: [0] * 24)
    for number, started_at in RakeRecord.objects.filter(table__casino=casino, gaming_day=FRIDAY).values_list(
            "table__number", "round_of_play__started_at"):
        local = started_at.astimezone(NEW_YORK)
        derived[number][(local.hour - 6) % 24] += 1
    assert tables == dict(derived)
    assert tables[1][3] == 2 and tables[2][19] == 1  # 09:10 and 09:40 at table 1; 01:30 at table 2


def test_the_charts_carry_exact_amounts_and_read_the_same_queries_whatever_the_rounds(casino, rounds):
    first, _ = rounds
    with CaptureQueriesContext(connection) as before:
        charts = rake_span_charts(casino=casino, end=FRIDAY, days=30) + [
            rounds_per_hour_chart(casino=casino, gaming_day=FRIDAY)]
    by_day = charts[0]
    assert by_day.data["labels"][-1] == "Fri Nov 20" and len(by_day.data["labels"]) == 30
    assert by_day.data["series"][0]["values"][-1] == f"{by_day.series[0].values[-1]:.2f}"
    assert charts[3].data["series"][0] == {"label": "Table 1", "money": False, "kind": "bar", "axis": "y",
                                           "values": charts[3].series[0].values}
    for _ in range(5):
        play(first, datetime(2026, 11, 20, 10, tzinfo=NEW_YORK))
    with CaptureQueriesContext(connection) as after:
        rake_span_charts(casino=casino, end=FRIDAY, days=30)
        rounds_per_hour_chart(casino=casino, gaming_day=FRIDAY)
    assert len(before) == len(after) == 2


def test_the_revenue_page_shows_the_charts_with_their_figures(client, casino, staff, rounds):
    client.force_login(staff(Role.ACCOUNTING))
    page = client.get("/rake/?day=2026-11-20&span=90").content.decode()
    for chart in ("rake-by-day", "rake-by-week", "rake-by-table", "rounds-per-hour"):
        assert f'data-chart="chart-{chart}-data"' in page and f'id="chart-{chart}-data" type="application/json"' in page
        assert f'data-testid="chart-table-{chart}"' in page
    assert "Rake over the last 90 gaming days" in page
    assert 'href="?day=2026-11-20&amp;span=30"' in page  # the other span keeps the day
    assert 'src="/static/vendor/chart.js/chart.umd.min.js"' in page and 'src="/static/js/charts.js"' in page
    assert 'aria-label="Rake by table' in page


@pytest.mark.parametrize("days", ["7", "abc", "30;drop", "-30"])
def test_a_span_the_charts_do_not_offer_is_a_400_naming_it(client, staff, days):
    client.force_login(staff(Role.ACCOUNTING))
    response = client.get(f"/rake/?span={days}")
    assert response.status_code == 400 and "span" in response.content.decode()


def test_dealers_do_not_see_the_revenue_charts(client, staff):
    client.force_login(staff(Role.DEALER))
    assert client.get("/rake/?span=30").status_code == 403
