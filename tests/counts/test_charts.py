"""The reconciliation page's chart (issue 15): contributions recorded against the counts, by gaming day, equal to a
re-derivation from the Contribution and BadBeatCount records (14.19(c), (d)-(f))."""
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import Contribution
from apps.core.roles import Role
from apps.counts.charts import contributions_against_counts_chart
from apps.counts.models import BadBeatCount, CountMethod, WitnessKind
from apps.counts.selectors import contributions_against_counts
from apps.counts.services import record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
D = Decimal
TODAY = date(2026, 11, 20)


def pot(table):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("15"), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D("15"),
                                                                          hole_cards="Qh Qd")]))


@pytest.fixture
def days_of_counts(casino, staff, supervisor):
    """Three gaming days at two tables: pots every day, a form counted every day at table 1 (one short by a dollar),
    none on the second day at table 2 (its count the next day takes in both days)."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    tables = [PokerTableFactory(casino=casino, number=n) for n in (1, 2)]
    dealer = staff(Role.DEALER)
    for offset, chips in ((2, {"1": 3}), (1, {"1": 1}), (0, {"1": 2})):
        with time_machine.travel(datetime(2026, 11, 20 - offset, 12, tzinfo=NEW_YORK), tick=False):
            for table in tables:
                for _ in range(3 if table.number == 1 else 2):
                    pot(table)
            for table in tables:
                if table.number == 2 and offset == 1:
                    continue
                record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips=chips, counted_by=dealer,
                             witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                             recorded_by=supervisor)
    return tables


def test_each_day_equals_the_records(casino, days_of_counts):
    start = TODAY - timedelta(days=29)
    with CaptureQueriesContext(connection) as queries:
        days = contributions_against_counts(casino=casino, start=start, end=TODAY)
    assert len(queries) == 2 and len(days) == 30 and days[-1].gaming_day == TODAY
    for row in days:
        contributions = Contribution.objects.filter(jackpot__casino=casino, gaming_day=row.gaming_day).aggregate(
            t=Sum("amount", default=D("0.00")))["t"]
        counts = BadBeatCount.objects.filter(casino=casino, gaming_day=row.gaming_day).aggregate(
            counted=Sum("amount", default=D("0.00")), expected=Sum("expected", default=D("0.00")),
            variance=Sum("variance", default=D("0.00")))
        assert (row.contributions, row.counted, row.expected, row.variance) == (
            contributions, counts["counted"], counts["expected"], counts["variance"]), row
    assert [row.contributions for row in days[-3:]] == [D("5.00")] * 3
    assert days[-2].variance == D("-2.00")  # table 1 counted $1 against $3
    assert days[-1].expected == D("7.00")  # table 2's count took in two days


def test_the_reconciliation_page_charts_them_for_accounting_only(client, casino, staff, days_of_counts):
    with time_machine.travel(datetime(2026, 11, 20, 13, tzinfo=NEW_YORK), tick=False):
        chart = contributions_against_counts_chart(casino=casino, end=TODAY, days=90)
        client.force_login(staff(Role.ACCOUNTING))
        page = client.get("/accounting/reconciliation/?span=90").content.decode()
        refused = client.get("/accounting/reconciliation/?span=0")
        client.force_login(staff(Role.DEALER))
        dealer = client.get("/accounting/reconciliation/")
    assert len(chart.labels) == 90 and chart.data["series"][2] == {
        "label": "Variance of the counts", "money": True, "kind": "line", "axis": "y",
        "values": [f"{v:.2f}" for v in chart.series[2].values]}
    assert 'data-chart="chart-contributions-against-counts-data"' in page
    assert "Contributions against counts, last 90 gaming days" in page
    assert refused.status_code == 400 and dealer.status_code == 403
