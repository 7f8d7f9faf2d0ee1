"""The Master Game Report of a gaming day (N.J.A.C. 13:69F-14.19(h)-revenue): table by table, rounds, rake, time
charges and the value of duplicate forms without their original, which together are poker revenue; beside them the
bad beat contributions (not revenue) and the amounts counted. A table with nothing that day is left out. Page, CSV
and PDF give the same figures; a closed day is corrected late, in an open day that refers to it."""
import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone
from pypdf import PdfReader

from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountMethod, LateCorrection, WitnessKind
from apps.counts.selectors import master_game_report
from apps.counts.services import (
    close_gaming_day,
    receive_form_part,
    reconcile_gaming_day,
    record_count,
    record_late_correction,
)
from apps.rake.services import collect_time_charge, post_time_charge_structure
from tests.counts.test_services import pot
from tests.factories import (
    CasinoFactory,
    JackpotFactory,
    PokerTableFactory,
    RakeStructureFactory,
    StaffFactory,
)

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def day(casino, staff, supervisor):
    """Today's gaming day at six tables (the jackpot takes $1.00 from a pot of $20.00 or more):
    1 raked: two pots of $40.00, 10 % rake ($4.00 each), two $1.00 contributions;
    2 a time charge of $36.00 (six players, 30 minutes at $12.00 an hour each), no round;
    3 a pot of $10.00 that takes no rake (no structure posted) and no contribution (below the jackpot's minimum);
    4 a form of $1.00 chips whose duplicate reached accounting without its original: $1.00 of revenue once the day
      is reconciled, and the form's $1.00 count;
    5 counted at the cage only ($0.00, no contribution to count: no variance);
    6 nothing: not on the report."""
    JackpotFactory(casino=casino, minimum_pot=D("20.00"))
    tables = {n: PokerTableFactory(casino=casino, number=n) for n in range(1, 7)}
    RakeStructureFactory(table=tables[1], percentage=D("10"), maximum=D("5.00"))
    for _ in range(2):
        pot(tables[1], each="20.00")
    post_time_charge_structure(table=tables[2], hourly_fee=D("12.00"), interval_minutes=30)
    collect_time_charge(table=tables[2], period_start=timezone.now() - timedelta(minutes=30), players_seated=6,
                        collected_by=staff(Role.DEALER))
    pot(tables[3], each="5.00")
    clerk, dealer = staff(Role.ACCOUNTING), staff(Role.DEALER)
    form = record_count(table=tables[4], method=CountMethod.TABLE_INVENTORY, chips={"1": 1}, counted_by=dealer,
                        witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                        recorded_by=supervisor)
    receive_form_part(casino=casino, serial_number=form.serial_number, part="duplicate", received_by=clerk)
    record_count(table=tables[5], method=CountMethod.CAGE, amount=D("0"), counted_by=clerk, witness=supervisor,
                 witness_kind=WitnessKind.SUPERVISOR, recorded_by=clerk)
    gaming_day = form.gaming_day
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        reconcile_gaming_day(casino=casino, gaming_day=gaming_day, reconciled_by=clerk)
    return {"gaming_day": gaming_day, "clerk": clerk, "tables": tables}


#: table: (rounds, rake, time charges, form adjustments, poker revenue, contributions, counts, counted, variance)
EXPECTED = {1: (2, "8.00", "0.00", "0.00", "8.00", "2.00", 0, "0.00", "0.00"),
            2: (0, "0.00", "36.00", "0.00", "36.00", "0.00", 0, "0.00", "0.00"),
            3: (1, "0.00", "0.00", "0.00", "0.00", "0.00", 0, "0.00", "0.00"),
            4: (0, "0.00", "0.00", "1.00", "1.00", "0.00", 1, "1.00", "1.00"),
            5: (0, "0.00", "0.00", "0.00", "0.00", "0.00", 1, "0.00", "0.00")}
TOTALS = {"rake": "8.00", "time_charges": "36.00", "adjustments": "1.00", "revenue": "45.00",
          "contributions": "2.00", "counted": "1.00", "count_variance": "1.00"}


@pytest.mark.proves("14.19(h)-revenue")
def test_14_19_h_poker_revenue_is_rake_time_charges_and_unmatched_forms_table_by_table(casino, day):
    report = master_game_report(casino=casino, gaming_day=day["gaming_day"])
    got = {r.table_number: (r.rounds, r.rake, r.time_charges, r.adjustments, r.revenue, r.contributions, r.counts,
                            r.counted, r.count_variance) for r in report.rows}
    assert got == {n: (rounds, D(rake), D(time), D(adj), D(revenue), D(given), counts, D(counted), D(variance))
                   for n, (rounds, rake, time, adj, revenue, given, counts, counted, variance) in EXPECTED.items()}
    assert [r.table_number for r in report.rows] == [1, 2, 3, 4, 5]  # by table; table 6 had nothing
    assert report.totals == {name: D(value) for name, value in TOTALS.items()}
    assert [(a.table.number, a.amount) for a in report.adjustments] == [(4, D("1.00"))]
    assert report.reconciliation is not None and report.reconciliation.revenue_adjustment == D("1.00")
    other = CasinoFactory()  # another casino's report of the same day holds none of it
    assert master_game_report(casino=other, gaming_day=day["gaming_day"]).rows == []
    assert master_game_report(casino=casino, gaming_day=day["gaming_day"] - timedelta(days=1)).rows == []


@pytest.mark.proves("14.19(h)-revenue")
def test_14_19_h_the_report_reads_the_same_as_page_csv_and_pdf(client, casino, day):
    client.force_login(day["clerk"])
    url = f"/accounting/master-game-report/{day['gaming_day']}/"
    rows = list(csv.reader(io.StringIO(client.get(url + "report.csv").content.decode())))
    assert rows[0] == ["gaming_day", "table", "game", "rounds", "rake", "time_charges", "form_adjustments",
                       "poker_revenue", "bad_beat_contributions", "counted", "count_variance"]
    table_rows = {int(r[1]): r for r in rows[1:-1]}
    for number, (rounds, rake, time, adj, revenue, given, counts, counted, variance) in EXPECTED.items():
        assert table_rows[number][0] == str(day["gaming_day"])
        assert table_rows[number][3:] == [str(rounds), rake, time, adj, revenue, given,
                                          *((counted, variance) if counts else ("", ""))], number
    assert rows[-1] == [str(day["gaming_day"]), "total", "", "3", *TOTALS.values()]
    page = client.get(url)
    assert page.status_code == 200 and page.context["report"].totals["revenue"] == D("45.00")
    assert "$45.00" in page.content.decode().split('data-testid="mgr-revenue"')[1]
    pdf = client.get(url + "report.pdf")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert pdf["Content-Type"] == "application/pdf" and "$45.00" in text and "$8.00" in text and "$36.00" in text


@pytest.mark.proves("14.19(h)-revenue")
def test_14_19_h_a_late_correction_is_checked_whole_and_listed_on_both_days(client, casino, day, staff):
    """Accounting corrects a closed day late: the correction goes into today's open gaming day, refers to the closed
    day, and shows on both days' reports (page and CSV). Refused, naming the field and writing nothing: anyone but this
    casino's accounting, a kind that is not one, an amount that is not money or not in whole cents (never rounded),
    zero or $1,000,000,000,000 and more either way, no reason, a table of another casino, and a day still open. A reason is kept to its 300 characters."""
    closed = day["gaming_day"]
    clerk, table = day["clerk"], day["tables"][1]
    elsewhere = CasinoFactory()

    def correct(**given):
        values = {"casino": casino, "corrects_gaming_day": closed, "kind": "rake", "amount": D("-2.00"),
                  "reason": "Rake keyed twice", "made_by": clerk, "table": table} | given
        return record_late_correction(**values)

    with time_machine.travel(timezone.now() + timedelta(days=1)):
        today = current_gaming_day(casino=casino)
        with pytest.raises(DomainError, match="is not closed: record its money itself") as still_open:
            correct()
        assert still_open.value.field == "corrects_gaming_day"
        close_gaming_day(casino=casino, gaming_day=closed)
        refusals = [
            ({"made_by": staff(Role.POKER_SHIFT_SUPERVISOR)}, "made_by"),
            ({"made_by": StaffFactory(casino=elsewhere, roles=[Role.ACCOUNTING])}, "made_by"),
            ({"casino": elsewhere, "table": None}, "made_by"),  # this casino's accounting, another casino's day
            ({"kind": "tips"}, "kind"), ({"amount": "two dollars"}, "amount"), ({"amount": None}, "amount"),
            ({"amount": D("0")}, "amount"), ({"amount": D("0.001")}, "amount"), ({"amount": D("-2.005")}, "amount"),
            ({"amount": "2.501"}, "amount"), ({"amount": 2.5}, "amount"), ({"amount": D("NaN")}, "amount"),
            ({"amount": D("1000000000000")}, "amount"), ({"amount": D("-1000000000000")}, "amount"),
            ({"amount": D("10000000000000")}, "amount"),
            ({"reason": "   "}, "reason"), ({"reason": None}, "reason"),
            ({"table": PokerTableFactory(casino=elsewhere)}, "table"),
            ({"casino": elsewhere, "made_by": StaffFactory(casino=elsewhere, roles=[Role.ACCOUNTING])}, "table"),
        ]
        for given, field in refusals:
            with pytest.raises(DomainError) as refused:
                correct(**given)
            assert refused.value.field == field, given
        assert not LateCorrection.objects.exists()
        largest = correct(amount=D("-999999999999.99"), kind="time_charge", reason="  " + "R" * 400, table=None)
        assert (largest.amount, largest.kind, largest.table, largest.reason) == (
            D("-999999999999.99"), "time_charge", None, "R" * 300)
        correction = correct(amount="2.50")
        assert (correction.gaming_day, correction.corrects_gaming_day, correction.made_by) == (today, closed, clerk)
        assert (correction.amount, correction.table, correction.reason) == (D("2.50"), table, "Rake keyed twice")
        assert master_game_report(casino=casino, gaming_day=today).corrections_made == [largest, correction]
        assert master_game_report(casino=casino, gaming_day=closed).corrections_of_this_day == [largest, correction]
        client.force_login(clerk)
        for shown_on in (today, closed):
            rows = list(csv.reader(io.StringIO(client.get(
                f"/accounting/master-game-report/{shown_on}/report.csv").content.decode())))
            assert rows[-1] == [str(shown_on), f"late correction recorded {today} for {closed}", "1", "rake", "2.50",
                                "Rake keyed twice"]
            assert rows[-2][1:5] == [f"late correction recorded {today} for {closed}", "", "time_charge",
                                     "-999999999999.99"]
        assert master_game_report(casino=casino, gaming_day=closed).totals["revenue"] == D("45.00")  # as closed


@pytest.mark.proves("14.19(h)-revenue")
def test_14_19_h_a_late_correction_of_a_casino_numbered_past_256_is_its_own():
    """The casino, its accounting and its table read back from the database (ids past the integers Python keeps one
    object of): the correction is recorded — a casino's records are told apart by the value of their ids."""
    from apps.casinos.models import Casino, User
    from apps.tables.models import PokerTable

    casino = CasinoFactory(pk=100_000)
    clerk = StaffFactory(casino=casino, roles=[Role.ACCOUNTING], pk=100_000)
    table = PokerTableFactory(casino=casino, pk=100_000)
    closed = current_gaming_day(casino=casino) - timedelta(days=1)
    close_gaming_day(casino=casino, gaming_day=closed)
    correction = record_late_correction(
        casino=Casino.objects.get(pk=100_000), corrects_gaming_day=closed, kind="rake", amount=D("1.00"),
        reason="Rake not entered", made_by=User.objects.get(pk=clerk.pk), table=PokerTable.objects.get(pk=table.pk))
    assert (correction.casino_id, correction.table_id, correction.made_by_id) == (100_000, 100_000, 100_000)
