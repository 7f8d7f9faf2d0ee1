"""Records that cannot be bent: money goes only into a casino's open gaming days (the current one and, until it is
closed, the previous one); the close job closes every ended day, catching up missed ones, each with an append-only
close record the app's database login cannot change; historic records go in only through an administrator's
backfill (N.J.A.C. 13:69F-14.19(d), (k); design.md, "Time")."""
import random
import re
import threading
import time
from datetime import datetime, timedelta
from decimal import Decimal
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, connections, transaction
from django.utils import timezone

from apps.badbeat.models import Contribution, Jackpot
from apps.casinos.models import Backfill, GamingDay, GamingDayClose
from apps.casinos.selectors import current_gaming_day, gaming_day_bounds, is_gaming_day_open
from apps.casinos.services import close_gaming_day_books, hold_open_gaming_days, start_backfill
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountMethod, WitnessKind
from apps.counts.services import close_backfilled_days, close_due_gaming_days, close_gaming_days, record_count
from apps.feed.services import PlayerIn, RoundIn, import_phh, record_round_of_play
from apps.rake.models import RakeRecord, TimeCharge
from apps.rake.services import collect_time_charge, post_time_charge_structure
from apps.rounds.models import RoundOfPlay
from tests.factories import JackpotFactory, RakeStructureFactory
from tests.support.phh_hands import random_file

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    table = RakeStructureFactory(table__casino=casino, table__number=5).table
    JackpotFactory(casino=casino, minimum_pot=D("1"))
    return table


def a_round(at, **more) -> RoundIn:
    return RoundIn(started_at=at, board="Ah Kd 5c 9s 3h", players=[
        PlayerIn(seat=1, contributed=D("30"), hole_cards="As Ks"),
        PlayerIn(seat=2, contributed=D("30"), hole_cards="2c 7d")], **more)


def during(casino, day):
    """A moment in the middle of a gaming day of the casino."""
    start, _ = gaming_day_bounds(casino=casino, gaming_day=day)
    return start + timedelta(hours=10)


def body(table, at) -> dict:
    return {"table": table.pk, "started_at": at.isoformat(), "board": "Ah Kd 5c 9s 3h",
            "players": [{"seat": 1, "contributed": "30", "hole_cards": "As Ks"},
                        {"seat": 2, "contributed": "30", "hole_cards": "2c 7d"}]}


def money_written() -> tuple:
    return (RoundOfPlay.objects.count(), RakeRecord.objects.count(), Contribution.objects.count(),
            TimeCharge.objects.count(), str(Jackpot.objects.get().balance))


# --- which days are open ---------------------------------------------------------------------------------------

def test_14_19_k_money_goes_into_today_and_yesterday_until_closed_and_no_earlier_day(table, casino):
    today = current_gaming_day(casino=casino)
    record_round_of_play(table=table, round_in=a_round(timezone.now() - timedelta(minutes=1)))
    record_round_of_play(table=table, round_in=a_round(during(casino, today - timedelta(days=1))))
    assert is_gaming_day_open(casino=casino, gaming_day=today - timedelta(days=1))
    before = money_written()
    for days_ago in (2, 5, 365 * 7):
        day = today - timedelta(days=days_ago)
        assert not is_gaming_day_open(casino=casino, gaming_day=day)
        with pytest.raises(DomainError) as refused:
            record_round_of_play(table=table, round_in=a_round(during(casino, day)))
        assert refused.value.field == "started_at"
        assert f"Gaming day {day:%Y-%m-%d} is not open" in refused.value.message
    assert money_written() == before  # nothing of a refused round was written


def test_14_19_k_every_endpoint_that_records_money_refuses_a_day_long_past(api, table, casino, staff):
    """The hostile tester's dealer token recorded rounds dated 2026-11-20, 2019-06-27 and 2000-01-02 (201): each
    endpoint that records money now answers 400 naming the day, and writes nothing."""
    dealer, supervisor = staff(Role.DEALER), staff(Role.POKER_SHIFT_SUPERVISOR)
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    today = current_gaming_day(casino=casino)
    api.force_authenticate(dealer)
    before = money_written()
    for day in (today - timedelta(days=5), datetime(2019, 6, 27).date(), datetime(2000, 1, 2).date()):
        at = during(casino, day)
        one = api.post("/api/rounds/", body(table, at), format="json")
        assert one.status_code == 400, one.content
        assert f"Gaming day {day:%Y-%m-%d} is not open" in one.json()["started_at"][0]
        batch = api.post("/api/rounds/batch/", {"rounds": [body(table, timezone.now()), body(table, at)]},
                         format="json")
        assert batch.status_code == 400, batch.content
        assert f"Gaming day {day:%Y-%m-%d} is not open" in str(batch.json())
        charge = api.post(f"/api/tables/{table.pk}/time-charges/",
                          {"period_start": at.isoformat(), "players_seated": 6}, format="json")
        assert charge.status_code == 400, charge.content
        assert f"Gaming day {day:%Y-%m-%d} is not open" in charge.json()["period_start"][0]
    api.force_authenticate(supervisor)
    dated = random_file("NT", random.Random(3), 2).replace(
        "[1]\n", "[1]\nyear = 2019\nmonth = 6\nday = 27\ntime = 12:00:00\ntime_zone = 'America/New_York'\n", 1)
    table.small_blind, table.big_blind = D("1"), D("2")
    table.save()
    phh = api.post("/api/rounds/phh/", {"phh": dated, "name": "old.phhs", "table": table.pk}, format="json")
    assert phh.status_code == 201, phh.content
    refused = phh.json()["variants"]["NT"]["refused"]
    assert len(refused) == 1 and "Gaming day 2019-06-27 is not open" in refused[0]["reason"]
    assert phh.json()["imported"] == 1  # the file's other hand, dated today, goes in
    rounds, *rest = money_written()
    assert (rounds, *rest[:3]) == (before[0] + 1, before[1] + 1, before[2] + 1, before[3])


def test_14_19_d_a_count_of_a_day_long_past_is_refused(table, casino, staff):
    from apps.casinos.models import Department, LicenseType

    security = staff(Role.SECURITY, department=Department.SECURITY, approved_count_witness=True,
                     license_type=LicenseType.CASINO_KEY_EMPLOYEE)
    with pytest.raises(DomainError, match="is not open") as refused:
        record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1}, counted_by=staff(Role.DEALER),
                     witness=security, witness_kind=WitnessKind.SECOND_DEPARTMENT,
                     recorded_by=staff(Role.POKER_SHIFT_SUPERVISOR),
                     counted_at=during(casino, current_gaming_day(casino=casino) - timedelta(days=3)))
    assert refused.value.field == "counted_at"


def test_time_charges_of_a_day_long_past_are_refused(table, casino, staff):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    with pytest.raises(DomainError, match="is not open") as refused:
        collect_time_charge(table=table, period_start=during(casino, current_gaming_day(casino=casino)
                                                              - timedelta(days=2)),
                            players_seated=6, collected_by=staff(Role.DEALER))
    assert refused.value.field == "period_start"
    assert not TimeCharge.objects.exists()


# --- the close job catches up ----------------------------------------------------------------------------------

def test_14_19_k_the_close_job_catches_up_a_week_missed_oldest_first(table, casino):
    """Beat was down for a week: the next run closes every ended day since the casino went live, oldest first,
    each with its own close record; the days with no records are closed empty; each refuses money after."""
    now = timezone.now()
    first = current_gaming_day(casino=casino)
    with time_machine.travel(now, tick=False):
        record_round_of_play(table=table, round_in=a_round(now - timedelta(minutes=1)))
    later = now + timedelta(days=8)
    with time_machine.travel(later, tick=False):
        closes = close_due_gaming_days()
        today = current_gaming_day(casino=casino)
        assert [c.gaming_day for c in closes] == [first + timedelta(days=n) for n in range((today - first).days)]
        assert len(closes) == 8
        assert closes[0].summary["contributions"] == "1.00"
        assert all(c.summary["contributions"] == "0.00" for c in closes[1:])  # closed empty
        assert all(c.closed_by is None for c in closes)
        assert close_due_gaming_days() == []  # idempotent
        with pytest.raises(DomainError, match=f"Gaming day {first:%Y-%m-%d} is not open"):
            record_round_of_play(table=table, round_in=a_round(during(casino, first)))
        yesterday = today - timedelta(days=1)
        with pytest.raises(DomainError, match=f"Gaming day {yesterday:%Y-%m-%d} was closed on"):
            record_round_of_play(table=table, round_in=a_round(during(casino, yesterday)))
        record_round_of_play(table=table, round_in=a_round(later - timedelta(minutes=1)))  # today: open


def test_the_close_command_catches_up_through_a_day(table, casino):
    now = timezone.now()
    first = current_gaming_day(casino=casino)
    record_round_of_play(table=table, round_in=a_round(now - timedelta(minutes=1)))
    with time_machine.travel(now + timedelta(days=4), tick=False):
        out = StringIO()
        call_command("close_gaming_day", "--casino", casino.code, "--date", str(first + timedelta(days=1)),
                     stdout=out)
        assert list(GamingDayClose.objects.order_by("gaming_day").values_list("gaming_day", flat=True)) == [
            first, first + timedelta(days=1)]
        call_command("close_gaming_day", stdout=out)
        assert GamingDayClose.objects.count() == 4
        assert "no ended gaming day left to close" in (out2 := StringIO(), call_command(
            "close_gaming_day", stdout=out2))[0].getvalue()
        with pytest.raises(CommandError, match="has not ended"):
            call_command("close_gaming_day", "--date", str(current_gaming_day(casino=casino)))


def test_a_casino_with_no_record_closes_nothing_and_a_go_live_date_starts_the_catch_up(casino):
    assert close_gaming_days(casino=casino) == []
    today = current_gaming_day(casino=casino)
    casino.went_live_on = today - timedelta(days=3)
    casino.save()
    assert [c.gaming_day for c in close_gaming_days(casino=casino)] == [today - timedelta(days=n) for n in (3, 2, 1)]


# --- a close cannot be undone ----------------------------------------------------------------------------------

def test_14_19_k_the_app_login_cannot_change_or_delete_a_close_and_the_day_stays_closed(
        table, casino, database_roles_in_use):
    """As the app's database role (the suite's connection): PostgreSQL refuses UPDATE and DELETE of a close record;
    the hostile tester's `UPDATE casinos_gamingday SET closed_at = NULL` no longer reopens the day."""
    yesterday = current_gaming_day(casino=casino) - timedelta(days=1)
    record_round_of_play(table=table, round_in=a_round(during(casino, yesterday)))
    close = close_gaming_days(casino=casino)[0]
    assert close.gaming_day == yesterday
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == database_roles_in_use.app
    for statement in ("UPDATE casinos_gamingdayclose SET gaming_day = gaming_day - 30",
                      "UPDATE casinos_gamingdayclose SET closed_at = NULL",
                      "DELETE FROM casinos_gamingdayclose"):
        with pytest.raises(DatabaseError, match="permission denied"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL pgtrigger.ignore = '{casinos_gamingdayclose:pgtrigger_append_only_0a06e}'")
                cursor.execute(statement)
    with connection.cursor() as cursor:  # the mutable day row can be tampered with: it is not what keeps it closed
        cursor.execute("UPDATE casinos_gamingday SET closed_at = NULL")
        cursor.execute("DELETE FROM casinos_gamingday")
    assert GamingDayClose.objects.filter(pk=close.pk).exists()
    with pytest.raises(DomainError, match=f"Gaming day {yesterday:%Y-%m-%d} was closed on"):
        record_round_of_play(table=table, round_in=a_round(during(casino, yesterday)))


@pytest.mark.django_db(transaction=True)
def test_14_19_k_a_write_that_waited_for_the_close_is_refused(casino):
    """Two connections: the close holds the day and commits while a round's write waits for it; the write, which
    read the day after the close committed, is refused (the close's mark on the day row)."""
    day = current_gaming_day(casino=casino) - timedelta(days=1)
    GamingDay.objects.create(casino=casino, gaming_day=day)
    locked, release, outcome = threading.Event(), threading.Event(), {}

    def closer():
        try:
            with transaction.atomic():
                close_gaming_day_books(casino=casino, gaming_day=day, figures=lambda: (locked.set(), release.wait(30),
                                                                                      {})[2])
        finally:
            connections.close_all()

    def writer():
        try:
            with transaction.atomic():
                hold_open_gaming_days(casino=casino, days=[day], what="a round of play")
            outcome["written"] = True
        except DomainError as exc:
            outcome["refused"] = exc.message
        finally:
            connections.close_all()

    threads = [threading.Thread(target=closer), threading.Thread(target=writer)]
    threads[0].start()
    assert locked.wait(timeout=30)
    threads[1].start()
    time.sleep(0.5)
    assert not outcome  # the write waits for the close
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert "was closed on" in outcome.get("refused", ""), outcome


# --- the administrator's backfill ------------------------------------------------------------------------------

def dated_file(seed: int, hands: int, day) -> str:
    """A PHH file of `hands` random no-limit hold'em hands, each dealt at noon of `day` in New York."""
    fields = (f"year = {day.year}\nmonth = {day.month}\nday = {day.day}\ntime = 12:00:00\n"
              "time_zone = 'America/New_York'\n")
    return re.sub(r"^\[\d+\]\n", lambda header: header.group(0) + fields, random_file("NT", random.Random(seed), hands),
                  flags=re.MULTILINE)


@pytest.fixture
def nt_table(table):
    table.small_blind, table.big_blind = D("1"), D("2")
    table.save()
    return table


def test_a_backfill_fills_past_days_that_hold_no_records_and_closes_them(nt_table, casino, staff, tmp_path):
    """manage.py import_phh FOLDER --backfill: an administrator's backfill records the hands of 2023 into their own
    gaming days, closes each when it ends, and is audited with who ran it; without --backfill they are refused with
    the reason; a second backfill into the same days is refused (they are closed)."""
    admin = staff(Role.ADMIN)
    (tmp_path / "a.phhs").write_text(dated_file(1, 3, datetime(2023, 3, 14).date()))
    (tmp_path / "b.phhs").write_text(dated_file(2, 2, datetime(2023, 3, 15).date()))
    with pytest.raises(CommandError, match="5 hand\\(s\\) refused"):
        call_command("import_phh", str(tmp_path), "--casino", casino.code, "--table", "5", "--no-progress",
                     stdout=StringIO())
    assert not RoundOfPlay.objects.exists()
    out = StringIO()
    call_command("import_phh", str(tmp_path), "--casino", casino.code, "--table", "5", "--no-progress",
                 "--backfill", stdout=out)
    assert RoundOfPlay.objects.count() == 5
    assert sorted({str(d) for d in RoundOfPlay.objects.values_list("gaming_day", flat=True)}) == [
        "2023-03-14", "2023-03-15"]
    backfill = Backfill.objects.get()
    assert backfill.run_by == admin and "--backfill" in backfill.source
    closes = GamingDayClose.objects.order_by("gaming_day")
    assert [(str(c.gaming_day), c.backfill_id, c.closed_by_id) for c in closes] == [
        ("2023-03-14", backfill.pk, admin.pk), ("2023-03-15", backfill.pk, admin.pk)]
    assert "closed 2 gaming day(s) it filled" in out.getvalue()
    assert all(c.summary["ledger_problems"] == [] for c in closes)
    # the days are closed: a new hand of 2023-03-14 is refused, by a backfill too
    (tmp_path / "c.phhs").write_text(dated_file(3, 1, datetime(2023, 3, 14).date()))
    with pytest.raises(CommandError, match="2023-03-14 was closed on"):
        call_command("import_phh", str(tmp_path / "c.phhs"), "--casino", casino.code, "--table", "5",
                     "--no-progress", "--backfill", stdout=StringIO())
    # the go-live is the first live day, not the backfill's: the close job does not close every day since 2023
    record_round_of_play(table=nt_table, round_in=a_round(timezone.now() - timedelta(minutes=1)))
    with time_machine.travel(timezone.now() + timedelta(days=1), tick=False):
        assert len(close_due_gaming_days()) == 1


def test_a_backfill_does_not_write_into_a_day_that_holds_records(nt_table, casino, staff):
    admin = staff(Role.ADMIN)
    day = current_gaming_day(casino=casino)
    record_round_of_play(table=nt_table, round_in=a_round(timezone.now() - timedelta(minutes=1)))
    with time_machine.travel(timezone.now() + timedelta(days=3), tick=False):
        # the day of the live round was not closed (beat down): still no backfill may add to it
        backfill = start_backfill(casino=casino, run_by=admin, source="test")
        with pytest.raises(DomainError, match=f"Gaming day {day:%Y-%m-%d} holds records already"):
            record_round_of_play(table=nt_table, round_in=a_round(during(casino, day)), backfill=backfill)
        summary = import_phh(casino=casino, text=dated_file(4, 1, day), name="x.phhs", table=nt_table,
                             backfill=backfill)
        assert summary.imported == 0 and "holds records already" in summary.variants["NT"].refused[0][1]
        assert close_backfilled_days(backfill=backfill) == []


def test_only_an_administrator_of_the_casino_backfills(casino, staff):
    for role in (Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING):
        with pytest.raises(DomainError, match="Only an administrator") as refused:
            start_backfill(casino=casino, run_by=staff(role), source="test")
        assert refused.value.field == "run_by"
    assert not Backfill.objects.exists()


def test_the_backfill_command_needs_one_administrator(nt_table, casino, staff, tmp_path):
    (tmp_path / "a.phhs").write_text(dated_file(1, 1, datetime(2023, 3, 14).date()))
    args = [str(tmp_path), "--casino", casino.code, "--no-progress", "--backfill"]
    with pytest.raises(CommandError, match="has 0 active administrators"):
        call_command("import_phh", *args, stdout=StringIO())
    staff(Role.ADMIN, username="ada")
    staff(Role.ADMIN, username="bo")
    with pytest.raises(CommandError, match="has 2 active administrators"):
        call_command("import_phh", *args, stdout=StringIO())
    with pytest.raises(CommandError, match="not an active administrator"):
        call_command("import_phh", *args, "--by", "nobody", stdout=StringIO())
    call_command("import_phh", *args, "--by", "bo", stdout=StringIO())
    assert Backfill.objects.get().run_by.username == "bo"
