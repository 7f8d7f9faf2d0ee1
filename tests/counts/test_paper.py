"""Accounting's paper as accounting reads it (issue 34, item 6): the reports print on US Letter (settings.PDF_PAGE_SIZE),
every amount reads "$2,675.00" / "−$1.00", the CSV amounts are plain numbers with two decimals, a table never counted
says so, a count with a variance is recorded only once confirmed (N.J.A.C. 13:69F-14.19(d)-(f)), the reconciliation
list does not call an empty day unreconciled (14.19(h)), and dates read one way ("Nov 24, 2026")."""
import csv
import io
import re
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.core.roles import Role
from apps.counts.models import BadBeatCount, CountMethod, WitnessKind
from apps.counts.services import close_due_gaming_days, reconcile_gaming_day, record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory
from tests.support.pdf import page_sizes

D = Decimal
pytestmark = pytest.mark.django_db
LETTER, LETTER_LANDSCAPE = (612.0, 792.0), (792.0, 612.0)
A4_LANDSCAPE = (841.889764, 595.275591)


def play_a_round(table):
    """One pot of $40 at `table`: a $1.00 bad beat contribution (the factory's jackpot, $1.00 a pot from $20)."""
    record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))


@pytest.fixture
def room(casino, staff, supervisor):
    """Three tables, each with a $1.00 contribution: table 1 counted at the cage at $2,676.00 (variance $2,675.00),
    table 2 counted at $0.00 (variance −$1.00), table 3 not counted; and a form of chips at table 4 ($1.00, none)."""
    JackpotFactory(casino=casino)
    tables = [PokerTableFactory(casino=casino, number=n) for n in (1, 2, 3, 4)]
    for table in tables:
        play_a_round(table)
    cashier = staff(Role.ACCOUNTING)
    for table, amount in ((tables[0], D("2676")), (tables[1], D("0"))):
        record_count(table=table, method=CountMethod.CAGE, amount=amount, counted_by=cashier, witness=supervisor,
                     witness_kind=WitnessKind.SUPERVISOR, recorded_by=supervisor)
    form = record_count(table=tables[3], method=CountMethod.TABLE_INVENTORY, chips={"1": 1},
                        counted_by=staff(Role.DEALER), witness=supervisor, witness_kind=WitnessKind.SUPERVISOR,
                        surveillance_recorded=True, recorded_by=supervisor)
    return {"tables": tables, "day": form.gaming_day, "form": form, "cashier": cashier}


def test_every_report_prints_on_us_letter_and_the_page_size_is_a_setting(client, staff, room, settings):
    """The Master Game Report (landscape) and the day's Bad Beat Payout Contribution Forms (portrait) are laid out on
    US Letter, 612 x 792 points; PDF_PAGE_SIZE "A4" lays them out on A4."""
    client.force_login(staff(Role.ACCOUNTING))
    day = room["day"]
    mgr = client.get(f"/accounting/master-game-report/{day}/report.pdf")
    forms = client.get(f"/accounting/forms/{day}/forms.pdf")
    assert mgr.status_code == forms.status_code == 200
    assert set(page_sizes(mgr.content)) == {LETTER_LANDSCAPE}
    assert set(page_sizes(forms.content)) == {LETTER}
    settings.PDF_PAGE_SIZE = "A4"
    a4 = client.get(f"/accounting/master-game-report/{day}/report.pdf")
    assert set(page_sizes(a4.content)) == {A4_LANDSCAPE}


def test_the_master_game_report_writes_amounts_one_way_and_says_a_table_was_not_counted(client, staff, room):
    client.force_login(staff(Role.ACCOUNTING))
    page = client.get(f"/accounting/master-game-report/{room['day']}/").content.decode()
    rows = {int(m.group(1)): m.group(0) for m in re.finditer(r"<tr><td>(\d+)</td>.*?</tr>", page, re.DOTALL)}
    assert "$2,676.00" in rows[1] and "$2,675.00" in rows[1] and "$1.00" in rows[1]
    assert "\u2212$1.00" in rows[2] and "$0.00" in rows[2]
    assert "not counted" in rows[3] and "$0.00" not in rows[3].split("not counted")[1]
    assert "not counted" not in rows[1] + rows[2] + rows[4]
    assert "$2,674.00" in page.split('data-testid="mgr-revenue"')[1]  # the total variance, $2,675.00 − $1.00
    assert not re.search(r"\$-|\$\d{4}", page)  # no "$-1.00", no "$2676.00"


def test_the_csv_amounts_are_plain_numbers_with_two_decimals(client, staff, room):
    client.force_login(staff(Role.ACCOUNTING))
    day = room["day"]
    mgr = list(csv.DictReader(io.StringIO(client.get(f"/accounting/master-game-report/{day}/report.csv")
                                          .content.decode())))
    money = ("rake", "time_charges", "form_adjustments", "poker_revenue", "bad_beat_contributions")
    for row in mgr:
        assert all(re.fullmatch(r"-?\d+\.\d\d", row[name]) for name in money), row
    by_table = {row["table"]: row for row in mgr}
    assert (by_table["1"]["counted"], by_table["1"]["count_variance"]) == ("2676.00", "2675.00")
    assert (by_table["2"]["counted"], by_table["2"]["count_variance"]) == ("0.00", "-1.00")
    assert (by_table["3"]["counted"], by_table["3"]["count_variance"]) == ("", "")  # not counted: no figure
    assert by_table["3"]["bad_beat_contributions"] == "1.00" and by_table["total"]["counted"] == "2677.00"
    forms = list(csv.DictReader(io.StringIO(client.get(f"/accounting/forms/{day}/forms.csv").content.decode())))
    assert [(f["amount"], f["expected"], f["variance"]) for f in forms] == [("1.00", "1.00", "0.00")]


def count_post(room, supervisor, staff, **chips):
    dealer = staff(Role.DEALER)
    return {"table": room["tables"][3].pk, "method": "table_inventory", "reason": "daily", "counted_by": dealer.pk,
            "witness": supervisor.pk, "witness_kind": "supervisor", "surveillance_recorded": "on",
            "counter_password": "pw-for-tests-1", "witness_password": "pw-for-tests-1",
            **{f"chips_{d}": n for d, n in chips.items()}}


def test_14_19_f_a_count_with_a_variance_is_recorded_only_once_confirmed(client, staff, supervisor, room):
    """Table 4 holds a $1.00 contribution since its form; the dealer counts $6.00. The page shows the variance as a
    warning and records nothing; ticking nothing records nothing either; confirmed and signed again, the count is
    recorded and the message that says so is a warning naming the variance."""
    client.force_login(supervisor)
    play_a_round(room["tables"][3])
    before = BadBeatCount.objects.count()
    post = count_post(room, supervisor, staff, **{"1.00": 1, "5.00": 1})
    asked = client.post("/counts/", post)
    page = asked.content.decode()
    warning = re.search(r'<div class="warning-box"[^>]*data-testid="count-variance">(.*?)</div>', page, re.DOTALL)
    assert warning and "Variance $5.00" in warning.group(1) and "$6.00 counted" in warning.group(1)
    assert "$1.00 recorded" in warning.group(1)
    assert 'name="confirm_variance"' in page and 'name="confirmed_variance" value="5.00"' in page
    assert BadBeatCount.objects.count() == before

    unticked = client.post("/counts/", {**post, "confirmed_variance": "5.00"})
    assert 'data-testid="count-variance"' in unticked.content.decode() and BadBeatCount.objects.count() == before

    wrong = client.post("/counts/", {**post, "confirmed_variance": "4.00", "confirm_variance": "on"})
    assert "Variance $5.00" in wrong.content.decode() and BadBeatCount.objects.count() == before

    done = client.post("/counts/", {**post, "confirmed_variance": "5.00", "confirm_variance": "on"}, follow=True)
    count = BadBeatCount.objects.order_by("-pk").first()
    assert BadBeatCount.objects.count() == before + 1 and count.variance == D("5.00") and count.signed_in_person
    message = re.search(r'<li class="warning">(.*?)</li>', done.content.decode(), re.DOTALL)
    assert message and f"Form {count.serial_number} recorded with a variance of $5.00" in message.group(1)


@pytest.mark.proves("14.19(f)-count-recorded")
def test_14_19_f_a_count_that_matches_needs_no_confirmation(client, staff, supervisor, room):
    client.force_login(supervisor)
    play_a_round(room["tables"][3])
    done = client.post("/counts/", count_post(room, supervisor, staff, **{"1.00": 1}), follow=True)
    page = done.content.decode()
    assert 'data-testid="count-variance"' not in page and '<li class="warning">' not in page
    assert BadBeatCount.objects.order_by("-pk").first().variance == 0
    assert re.search(r'<li class="success">Form \d+ recorded: \$1\.00 counted', page)


@pytest.mark.proves("14.19(h)-reconcile")
def test_14_19_h_a_day_with_nothing_to_reconcile_is_not_listed_as_unreconciled(client, staff, room):
    """Two days later: the counts' day is not reconciled (in red); the day after it, with no count, has nothing to
    reconcile; today is open. Once reconciled, the day says so."""
    client.force_login(staff(Role.ACCOUNTING))
    day = room["day"]

    def status(page: str, on) -> str:
        row = re.search(rf'<tr data-testid="day-{on:%Y-%m-%d}">(.*?)</tr>', page, re.DOTALL).group(1)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)  # day, forms, originals, duplicates, status, ...
        return re.sub(r"<[^>]+>", "", cells[4]).strip()

    with time_machine.travel(timezone.now() + timedelta(days=2)):
        page = client.get("/accounting/reconciliation/").content.decode()
        assert status(page, day) == "not reconciled"
        assert status(page, day + timedelta(days=1)) == "nothing to reconcile"
        assert status(page, day + timedelta(days=2)) == "open"
        assert "not reconciled" not in page.split(f'data-testid="day-{day:%Y-%m-%d}"')[0]  # the empty days after it
        assert page.count("nothing to reconcile") == 12
        reconcile_gaming_day(casino=room["form"].casino, gaming_day=day, reconciled_by=room["cashier"])
        page = client.get("/accounting/reconciliation/").content.decode()
        assert status(page, day) == "Variances"  # the form's parts were not received


@pytest.mark.proves("14.19(h)-reconcile")
def test_14_19_h_a_closed_day_with_a_count_variance_and_no_form_is_still_to_reconcile(client, staff, supervisor,
                                                                                     casino):
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino)
    play_a_round(table)
    count = record_count(table=table, method=CountMethod.CAGE, amount=D("3"), counted_by=staff(Role.ACCOUNTING),
                         witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, recorded_by=supervisor)
    client.force_login(staff(Role.ACCOUNTING))
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        close_due_gaming_days()
        page = client.get("/accounting/reconciliation/").content.decode()
    row = re.search(rf'<tr data-testid="day-{count.gaming_day:%Y-%m-%d}">(.*?)</tr>', page, re.DOTALL).group(1)
    assert "not reconciled" in row and "nothing to reconcile" not in row


def test_dates_read_one_way_on_the_accounting_pages(client, staff, room):
    """The gaming day as "Nov 24, 2026" in each heading and the list, a date and time as "Nov 24, 2026 09:55"
    (settings.FORMAT_MODULE_PATH) — not "24 Nov 2026", "2026-11-24 09:55" or "Nov. 24, 2026"."""
    client.force_login(staff(Role.ACCOUNTING))
    day = room["day"]
    shown = f"{day:%b} {day.day}, {day.year}"
    for url in (f"/accounting/master-game-report/{day}/", f"/accounting/reconciliation/{day}/", f"/counts/?day={day}",
                "/accounting/reconciliation/"):
        page = client.get(url).content.decode()
        assert shown in page, url
        assert f"{day.day} {day:%b %Y}" not in page and f"{day:%b}. " not in page, url
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        rec = reconcile_gaming_day(casino=room["form"].casino, gaming_day=day, reconciled_by=room["cashier"])
        page = client.get(f"/accounting/reconciliation/{day}/").content.decode()
    at = timezone.localtime(rec.reconciled_at)
    assert f"at {at:%b} {at.day}, {at.year} {at:%H:%M}</h2>" in page
    assert f"{at:%Y-%m-%d %H:%M}" not in page
