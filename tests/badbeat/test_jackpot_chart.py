"""The jackpot chart (issue 15): each fund's amount at the end of every gaming day, with its contributions and
payouts, equal to the ledger re-derived from the records up to that day (14.19(c), (j), (k), (l), (p))."""
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.charts import jackpot_chart
from apps.badbeat.models import Jackpot, Payout, ResetSeed, Transfer
from apps.badbeat.selectors import jackpot_days
from apps.badbeat.services import create_secondary_jackpot, discontinue_jackpot, record_payout, verify_claim
from apps.casinos.selectors import gaming_day_bounds
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")
D = Decimal
DAY1 = date(2026, 11, 17)


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=NEW_YORK)


def play(table, *, bad_beat=False):
    board, first, second = (("9h 9d 6s 7s 8s", "9s 9c", "5s 4s") if bad_beat else ("Ah Kd 5c 9s 3h", "As Ks", "2c 7d"))
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=1, contributed=D("40"), hole_cards=first), PlayerIn(seat=2, contributed=D("40"),
                                                                          hole_cards=second)]))


def derived_balance(jackpot: Jackpot, day: date) -> Decimal:
    """The ledger's arithmetic (selectors.ledger) over the records up to the end of gaming day `day`."""
    end = gaming_day_bounds(casino=jackpot.casino, gaming_day=day)[1]

    def total(qs, name="amount"):
        return qs.aggregate(t=Sum(name, default=D("0.00")))["t"]
    contributions = jackpot.contributions.filter(gaming_day__lte=day)
    return (total(contributions) - total(contributions, "to_reset")
            - total(Payout.objects.filter(debited=jackpot, gaming_day__lte=day))
            + total(ResetSeed.objects.filter(jackpot=jackpot, created_at__lt=end))
            + total(Transfer.objects.filter(target=jackpot, created_at__lt=end))
            - total(Transfer.objects.filter(source=jackpot, created_at__lt=end)))


@pytest.fixture
def history(casino, staff, supervisor):
    """Four gaming days: contributions every day (10% of each day's set aside for the next payout); a bad beat
    verified and paid on the second (the reset reserve then seeds the amount); on the third a secondary payout with
    its own contributions is discontinued into the primary (a transfer)."""
    guard = staff(Role.SECURITY)
    table = RakeStructureFactory(table__casino=casino, table__number=3).table
    with time_machine.travel(noon(DAY1), tick=False):
        primary = JackpotFactory(casino=casino, reset_percentage=D("10.00"))
        secondary = create_secondary_jackpot(primary=primary, name="Aces full", qualifying_hand="full_house",
                                             funding="contributions", contribution_amount=D("0.50"),
                                             maximum_contribution=D("0.50"), minimum_pot=D("20.00"))
        for _ in range(4):
            play(table)
    with time_machine.travel(noon(DAY1 + timedelta(days=1)), tick=False):
        play(table)
        claim = play(table, bad_beat=True).bad_beat_claims.get(jackpot=primary)
        verify_claim(claim=claim, supervisor=supervisor)
        record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)
        play(table)
    with time_machine.travel(noon(DAY1 + timedelta(days=2)), tick=False):
        play(table)
        discontinue_jackpot(jackpot=secondary, target=primary, reason="Replaced.", made_by=supervisor)
        play(table)
    with time_machine.travel(noon(DAY1 + timedelta(days=3)), tick=False):
        for _ in range(3):
            play(table)
    primary.refresh_from_db()
    secondary.refresh_from_db()
    return primary, secondary


def test_the_amount_at_the_end_of_each_day_equals_the_ledger_of_the_records_up_to_it(history):
    primary, secondary = (Jackpot.objects.select_related("casino").get(pk=j.pk) for j in history)
    start, end = DAY1 - timedelta(days=2), DAY1 + timedelta(days=3)
    with CaptureQueriesContext(connection) as queries:
        days = jackpot_days(jackpot=primary, start=start, end=end)
    assert len(queries) == 5  # the casino is read with the jackpot
    assert [d.gaming_day for d in days] == [start + timedelta(days=i) for i in range(6)]
    for row in days:
        assert row.balance == derived_balance(primary, row.gaming_day), row
        assert row.contributions == primary.contributions.filter(gaming_day=row.gaming_day).aggregate(
            t=Sum("amount", default=D("0.00")))["t"]
        assert row.payouts == Payout.objects.filter(debited=primary, gaming_day=row.gaming_day).aggregate(
            t=Sum("amount", default=D("0.00")))["t"]
    assert days[-1].balance == primary.balance
    paid_day = days[3]
    assert paid_day.payouts > 0 and paid_day.moved > 0  # the payout, then the reset reserve seeded (14.19(p))
    assert days[4].moved > 0  # the secondary's amount transferred in (14.19(l))
    assert days[0].balance == days[1].balance == D("0.00")
    # a span that ends before today walks back over the later days too
    earlier = jackpot_days(jackpot=primary, start=DAY1, end=DAY1 + timedelta(days=1))
    assert [(d.gaming_day, d.balance) for d in earlier] == [(d.gaming_day, d.balance) for d in days[2:4]]
    # the discontinued fund: its amount went out with the transfer
    gone = jackpot_days(jackpot=secondary, start=DAY1, end=end)
    assert [d.balance for d in gone] == [derived_balance(secondary, d.gaming_day) for d in gone]
    assert gone[2].moved < 0 and gone[-1].balance == D("0.00")


def test_the_chart_and_the_ledger_page(client, staff, history):
    primary, _ = history
    with time_machine.travel(noon(DAY1 + timedelta(days=3)), tick=False):
        chart = jackpot_chart(jackpot=primary, end=DAY1 + timedelta(days=3), days=30)
        client.force_login(staff(Role.ACCOUNTING))
        page = client.get("/accounting/contributions/?span=90").content.decode()
        refused = client.get("/accounting/contributions/?span=1000")
        client.force_login(staff(Role.DEALER))
        dealer = client.get("/accounting/contributions/")
    assert [s["label"] for s in chart.data["series"]] == ["Amount at the end of the day", "Payouts", "Contributions"]
    assert chart.data["series"][0]["values"][-1] == f"{primary.balance:.2f}"
    assert chart.data["series"][2]["axis"] == "y2" and chart.data["series"][0]["kind"] == "line"
    assert f'data-chart="chart-jackpot-{primary.pk}-data"' in page and "Amount over the last 90 gaming days" in page
    assert f"${primary.balance:,.2f}" in page.split(f'data-testid="chart-table-jackpot-{primary.pk}"')[1]
    assert refused.status_code == 400 and dealer.status_code == 403
