"""A closed gaming day accepts no money record (rounds, time charges, counts and forms, payouts, display
adjustments); accounting corrects it late, in an open day that refers to it, shown on both days' Master Game
Reports (N.J.A.C. 13:69F-14.19(d), (h), (k))."""
import threading
import time
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connections, transaction
from django.utils import timezone

from apps.badbeat.services import adjust_display
from apps.casinos.models import GamingDay
from apps.casinos.selectors import current_gaming_day, gaming_day_bounds
from apps.casinos.services import close_gaming_day_books, hold_open_gaming_days
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountMethod, LateCorrection, WitnessKind
from apps.counts.services import close_gaming_day, record_count
from apps.feed.services import PlayerIn, RoundIn, import_phh, record_round_of_play
from apps.rake.services import collect_time_charge, post_time_charge_structure
from apps.rounds.models import RoundOfPlay
from tests.factories import JackpotFactory, RakeStructureFactory
from tests.support.phh_hands import random_file

D = Decimal
pytestmark = pytest.mark.django_db
NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture
def room(casino, staff):
    table = RakeStructureFactory(table__casino=casino, table__number=5).table
    JackpotFactory(casino=casino, minimum_pot=D("1"))
    from apps.casinos.models import Department, LicenseType

    people = {role: staff(role) for role in (Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING, Role.DEALER,
                                             Role.FLOORPERSON)}
    people[Role.SECURITY] = staff(Role.SECURITY, department=Department.SECURITY, approved_count_witness=True,
                                  license_type=LicenseType.CASINO_KEY_EMPLOYEE)
    yesterday = current_gaming_day(casino=casino) - timedelta(days=1)
    start, end = gaming_day_bounds(casino=casino, gaming_day=yesterday)
    return {"table": table, "people": people, "day": yesterday, "during": end - timedelta(hours=2)}


def a_round(at, **more):
    return RoundIn(started_at=at, board="Ah Kd 5c 9s 3h", players=[
        PlayerIn(seat=1, contributed=D("30"), hole_cards="As Ks"), PlayerIn(seat=2, contributed=D("30"),
                                                                             hole_cards="2c 7d")], **more)


def test_14_19_k_a_closed_day_takes_no_round_time_charge_or_count(room, casino):
    table, people, day = room["table"], room["people"], room["day"]
    record_round_of_play(table=table, round_in=a_round(room["during"]))  # open: recorded
    close_gaming_day(casino=casino, gaming_day=day)
    assert GamingDay.objects.get(casino=casino, gaming_day=day).closed_at is not None
    with pytest.raises(DomainError) as refused:
        record_round_of_play(table=table, round_in=a_round(room["during"] - timedelta(minutes=5)))
    assert refused.value.field == "started_at"
    assert f"Gaming day {day:%Y-%m-%d} was closed on" in refused.value.message
    assert "late correction" in refused.value.message
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    with pytest.raises(DomainError, match="a time charge of that day can no longer be recorded"):
        collect_time_charge(table=table, period_start=room["during"], players_seated=6,
                            collected_by=people[Role.DEALER])
    with pytest.raises(DomainError, match="a count of that day can no longer be recorded"):
        record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1},
                     counted_by=people[Role.DEALER], witness=people[Role.SECURITY],
                     witness_kind=WitnessKind.SECOND_DEPARTMENT, recorded_by=people[Role.POKER_SHIFT_SUPERVISOR],
                     counted_at=room["during"])
    assert RoundOfPlay.objects.count() == 1


def test_14_19_k_a_closed_day_takes_no_display_adjustment_or_payout(room, casino):
    """Displays and payouts are recorded in the current gaming day: once it is closed (here by hand), refused."""
    people = room["people"]
    close_gaming_day_books(casino=casino, gaming_day=current_gaming_day(casino=casino), figures=dict)
    from apps.badbeat.models import Jackpot

    with pytest.raises(DomainError, match="a display adjustment of that day"):
        adjust_display(jackpot=Jackpot.objects.get(), displayed_amount=D("0.00"), adjusted_by=people[Role.ACCOUNTING],
                       supervisor_present=people[Role.POKER_SHIFT_SUPERVISOR])


def test_the_api_answers_400_naming_the_closed_day(api, room, casino):
    close_gaming_day(casino=casino, gaming_day=room["day"])
    api.force_authenticate(room["people"][Role.DEALER])
    body = {"table": room["table"].pk, "started_at": room["during"].isoformat(), "board": "Ah Kd 5c 9s 3h",
            "players": [{"seat": 1, "contributed": "30", "hole_cards": "As Ks"},
                        {"seat": 2, "contributed": "30", "hole_cards": "2c 7d"}]}
    response = api.post("/api/rounds/", body, format="json")
    assert response.status_code == 400
    assert f"Gaming day {room['day']:%Y-%m-%d} was closed" in response.json()["started_at"][0]


def test_a_phh_hand_of_a_closed_day_is_refused_and_the_others_go_in(room, casino):
    import random

    table = room["table"]
    table.small_blind, table.big_blind = D("1"), D("2")
    table.save()
    close_gaming_day(casino=casino, gaming_day=room["day"])
    text = random_file("NT", random.Random(5), 3)
    closed = room["during"].astimezone(NEW_YORK)
    dated = text.replace("[1]\n", f"[1]\nyear = {closed.year}\nmonth = {closed.month}\nday = {closed.day}\n"
                                  f"time = {closed:%H:%M:%S}\ntime_zone = 'America/New_York'\n", 1)
    summary = import_phh(casino=casino, text=dated, name="day.phhs", table=table)
    assert summary.imported == 2 and summary.refused == 1
    assert f"Gaming day {room['day']:%Y-%m-%d} was closed on" in summary.variants["NT"].refused[0][1]


@pytest.mark.parametrize(("at", "words"), [
    (datetime(9999, 12, 31, tzinfo=NEW_YORK), "cannot start in the future"),
    (datetime(2031, 1, 1, tzinfo=NEW_YORK), "cannot start in the future"),
    (datetime(1999, 12, 31, 12, tzinfo=NEW_YORK), "keeps records from gaming day 2000-01-01"),
    (datetime(1, 1, 2, tzinfo=ZoneInfo("Etc/GMT+12")), "keeps records from gaming day"),
])
def test_a_round_outside_the_records_the_casino_keeps_is_refused(room, at, words):
    with pytest.raises(DomainError, match=words) as refused:
        record_round_of_play(table=room["table"], round_in=a_round(at))
    assert refused.value.field == "started_at"


def test_late_corrections_through_the_api_and_on_the_report_page(api, client, room, casino):
    close_gaming_day(casino=casino, gaming_day=room["day"])
    accounting = room["people"][Role.ACCOUNTING]
    api.force_authenticate(room["people"][Role.POKER_SHIFT_SUPERVISOR])
    body = {"corrects_gaming_day": room["day"].isoformat(), "kind": "time_charge", "amount": "6.00",
            "reason": "Collection not entered", "table": 5}
    assert api.post("/api/late-corrections/", body, format="json").status_code == 403
    api.force_authenticate(accounting)
    created = api.post("/api/late-corrections/", body, format="json")
    assert created.status_code == 201, created.content
    assert LateCorrection.objects.get().amount == D("6.00")
    assert api.post("/api/late-corrections/", body | {"amount": "abc"}, format="json").status_code == 400
    client.force_login(accounting)
    page = client.get(f"/accounting/master-game-report/{room['day']:%Y-%m-%d}/").content.decode()
    assert "Corrected after this gaming day closed" in page and "Collection not entered" in page


@pytest.mark.django_db(transaction=True)
def test_14_19_k_closing_waits_for_a_write_in_flight_and_refuses_the_next(casino):
    """Two connections: a round's transaction holds its gaming day open; the close waits for it to commit, then
    every later write to that day is refused."""
    day = current_gaming_day(casino=casino) - timedelta(days=1)
    holding, release, closed = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def writer():
        try:
            with transaction.atomic():
                hold_open_gaming_days(casino=casino, days=[day], what="a round of play")
                holding.set()
                release.wait(timeout=30)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    def closer():
        try:
            close_gaming_day_books(casino=casino, gaming_day=day, figures=dict)
            closed.set()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer), threading.Thread(target=closer)]
    threads[0].start()
    assert holding.wait(timeout=30)
    threads[1].start()
    time.sleep(0.5)
    assert not closed.is_set()  # the close waits for the write in flight
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert closed.is_set() and not errors
    with pytest.raises(DomainError, match="was closed"):
        with transaction.atomic():
            hold_open_gaming_days(casino=casino, days=[day], what="a round of play")
    assert timezone.now()  # the day row says when it closed
    assert GamingDay.objects.get(casino=casino, gaming_day=day).closed_at is not None
