"""Rake by time charges, N.J.A.C. 13:69F-14.14(b)3."""
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import IntegrityError, transaction

from apps.core.exceptions import AlreadyRecorded, DomainError, broken_constraint
from apps.core.roles import Role
from apps.rake.models import TimeCharge, TimeChargeBasis, TimeChargeStructure
from apps.rake.selectors import rake_for_gaming_day
from apps.rake.services import (
    PERIODS_APART,
    collect_time_charge,
    post_time_charge_structure,
    verify_time_charge,
)
from apps.tables.models import PokerTable
from tests.factories import PokerTableFactory

NEW_YORK = ZoneInfo("America/New_York")
AT = datetime(2026, 11, 20, 20, 0, tzinfo=NEW_YORK)
D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def the_evening_of_at():
    """The casino's clock two hours after AT: AT's gaming day is the current one, open for its time charges (money is
    recorded only into open gaming days)."""
    with time_machine.travel(AT + timedelta(hours=2), tick=False):
        yield


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, number=5, seats=9)


@pytest.mark.proves("14.14(b)3-basis", "14.14(b)3-hourly")
def test_14_14_b_3_i_per_player_charges_every_seated_player(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=7, collected_by=staff(Role.DEALER))
    assert charge.amount == D("42.00")  # 7 seated (inactive included) x $6.00 per half hour
    assert "7 seated" in charge.explanation


@pytest.mark.proves("14.14(b)3-basis", "14.14(b)3-hourly")
def test_14_14_b_3_i_per_table_charge(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("30.00"), interval_minutes=20, basis=TimeChargeBasis.PER_TABLE)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=4, collected_by=staff(Role.DEALER))
    assert charge.amount == D("10.00")


@pytest.mark.parametrize(("fee", "minutes", "field"), [
    (D("12.00"), 15, "interval_minutes"), (D("12.00"), 60, "interval_minutes"), (D("10.00"), 20, "hourly_fee"),
    (D("0"), 30, "hourly_fee")])
@pytest.mark.proves("14.14(b)3-fractional")
def test_14_14_b_3_iii_every_20_or_30_minutes_in_whole_cents(table, fee, minutes, field):
    with pytest.raises(DomainError) as exc:
        post_time_charge_structure(table=table, hourly_fee=fee, interval_minutes=minutes)
    assert exc.value.field == field


@pytest.mark.proves("14.14(b)3-verified")
def test_14_14_b_3_v_verified_by_a_floorperson_not_the_collector(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    dealer, floor = staff(Role.DEALER), staff(Role.FLOORPERSON)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=5, collected_by=dealer)
    with pytest.raises(DomainError, match="floorperson"):
        verify_time_charge(time_charge=charge, verified_by=staff(Role.DEALER))
    supervisor_collected = collect_time_charge(table=table, period_start=AT + timedelta(minutes=30), players_seated=5,
                                               collected_by=floor)
    with pytest.raises(DomainError, match="cannot verify"):
        verify_time_charge(time_charge=supervisor_collected, verified_by=floor)
    verify_time_charge(time_charge=charge, verified_by=floor)
    with pytest.raises(DomainError, match="already verified"):
        verify_time_charge(time_charge=charge, verified_by=floor)


def test_a_period_is_collected_once_and_charges_count_as_rake(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    dealer = staff(Role.DEALER)
    collect_time_charge(table=table, period_start=AT, players_seated=2, collected_by=dealer)
    with pytest.raises(DomainError, match="already collected"):
        collect_time_charge(table=table, period_start=AT, players_seated=2, collected_by=dealer)
    assert rake_for_gaming_day(casino=table.casino, gaming_day=AT.date()) == D("12.00")


def test_no_structure_and_too_many_players_are_refused(table, staff):
    with pytest.raises(DomainError, match="No time charge"):
        collect_time_charge(table=table, period_start=AT, players_seated=2, collected_by=staff(Role.DEALER))
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    with pytest.raises(DomainError) as exc:
        collect_time_charge(table=table, period_start=AT, players_seated=12, collected_by=staff(Role.DEALER))
    assert exc.value.field == "players_seated"


def test_api_roles_collect_and_verify(api, staff, table):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    api.force_authenticate(staff(Role.SURVEILLANCE))
    url = f"/api/tables/{table.pk}/time-charges/"
    assert api.post(url, {"period_start": AT.isoformat(), "players_seated": 6}, format="json").status_code == 403
    api.force_authenticate(staff(Role.DEALER))
    created = api.post(url, {"period_start": AT.isoformat(), "players_seated": 6}, format="json")
    assert created.status_code == 201 and created.json()["amount"] == "36.00"
    verify = f"/api/time-charges/{created.json()['id']}/verify/"
    assert api.post(verify).status_code == 403
    api.force_authenticate(staff(Role.FLOORPERSON))
    assert api.post(verify).json()["verified_by"] is not None
    assert api.post(url, {"period_start": "soon", "players_seated": 6}, format="json").status_code == 400


# --- issue 32: overlapping periods and closed tables ------------------------------------------------------------------

MORNING = datetime(2026, 11, 20, 7, 0, tzinfo=NEW_YORK)


@pytest.fixture
def noon():
    """The casino's clock at noon of MORNING's gaming day (open: its periods may be collected)."""
    with time_machine.travel(MORNING.replace(hour=12), tick=False):
        yield


@pytest.fixture
def half_hourly(noon, table):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    return table


@pytest.mark.proves("14.14(b)3-fractional")
def test_14_14_b_3_overlapping_periods_at_a_table_are_refused_naming_the_period_collected(half_hourly, staff):
    """N.J.A.C. 13:69F-14.14(b)3: a period of play is charged once. 07:00 and 07:13 every 30 minutes both billed."""
    dealer = staff(Role.DEALER)
    first = collect_time_charge(table=half_hourly, period_start=MORNING, players_seated=6, collected_by=dealer)
    for minutes in (13, 0, -29, 29):
        with pytest.raises(AlreadyRecorded) as refused:
            collect_time_charge(table=half_hourly, period_start=MORNING + timedelta(minutes=minutes), players_seated=6,
                                collected_by=dealer)
        assert refused.value.status_code == 409 and refused.value.existing_id == first.pk
        assert refused.value.field == "period_start"
        assert refused.value.message == (f"Table 5: the period 2026-11-20 07:00–07:30 was already collected (time "
                                         f"charge {first.pk}); a period of play is charged once.")
    assert TimeCharge.objects.count() == 1


@pytest.mark.proves("14.14(b)3-fractional")
def test_14_14_b_3_periods_end_to_end_are_each_charged(half_hourly, staff):
    """N.J.A.C. 13:69F-14.14(b)3: the next period starts where the last ended (07:00-07:30, 07:30-08:00, and 06:30
    before them); another table's periods are its own."""
    dealer = staff(Role.DEALER)
    for minutes in (0, 30, -30):
        collect_time_charge(table=half_hourly, period_start=MORNING + timedelta(minutes=minutes), players_seated=6,
                            collected_by=dealer)
    other = PokerTableFactory(casino=half_hourly.casino, number=6, seats=9)
    post_time_charge_structure(table=other, hourly_fee=D("12.00"), interval_minutes=20)
    collect_time_charge(table=other, period_start=MORNING + timedelta(minutes=13), players_seated=6,
                        collected_by=dealer)
    assert TimeCharge.objects.count() == 4


def test_14_14_b_3_overlap_is_a_409_with_the_existing_period_over_the_api(api, half_hourly, staff):
    """N.J.A.C. 13:69F-14.14(b)3 through POST /api/tables/{id}/time-charges/: 409 in the error shape, existing_id."""
    api.force_authenticate(staff(Role.DEALER))
    url = f"/api/tables/{half_hourly.pk}/time-charges/"
    first = api.post(url, {"period_start": MORNING.isoformat(), "players_seated": 6}, format="json")
    assert first.status_code == 201, first.content
    again = api.post(url, {"period_start": (MORNING + timedelta(minutes=13)).isoformat(), "players_seated": 6},
                     format="json")
    assert again.status_code == 409
    assert again.json() == {"period_start": [f"Table 5: the period 2026-11-20 07:00–07:30 was already collected "
                                             f"(time charge {first.json()['id']}); a period of play is charged once."],
                            "existing_id": first.json()["id"]}


def test_14_14_b_3_the_database_keeps_the_periods_apart(half_hourly, staff):
    """N.J.A.C. 13:69F-14.14(b)3, in PostgreSQL itself: an overlapping period written past the service (two requests
    at once) breaks the exclusion constraint time_charge_periods_do_not_overlap."""
    dealer = staff(Role.DEALER)
    collect_time_charge(table=half_hourly, period_start=MORNING, players_seated=6, collected_by=dealer)
    with pytest.raises(IntegrityError) as broken, transaction.atomic():
        TimeCharge.objects.create(table=half_hourly, period_start=MORNING + timedelta(minutes=13), interval_minutes=30,
                                  players_seated=6, amount=D("36.00"), gaming_day=MORNING.date(), collected_by=dealer,
                                  explanation="past the service")
    assert broken_constraint(broken.value) == PERIODS_APART


def test_14_14_b_3_two_collections_at_once_one_409(half_hourly, staff, monkeypatch):
    """N.J.A.C. 13:69F-14.14(b)3: when the check before the insert saw nothing (the other request had not committed),
    the constraint refuses the insert and the answer is the same 409 naming the period collected."""
    from apps.rake import services

    dealer = staff(Role.DEALER)
    first = collect_time_charge(table=half_hourly, period_start=MORNING, players_seated=6, collected_by=dealer)
    seen = services._charge_overlapping
    calls = []

    def not_yet_committed(**kwargs):
        calls.append(kwargs)
        return None if len(calls) == 1 else seen(**kwargs)

    monkeypatch.setattr(services, "_charge_overlapping", not_yet_committed)
    with pytest.raises(AlreadyRecorded) as refused:
        collect_time_charge(table=half_hourly, period_start=MORNING + timedelta(minutes=13), players_seated=6,
                            collected_by=dealer)
    assert refused.value.existing_id == first.pk and len(calls) == 2
    assert TimeCharge.objects.count() == 1


def test_14_14_b_3_time_charges_at_a_closed_table_are_refused(half_hourly, staff):
    """N.J.A.C. 13:69F-14.14(b)3: time charges are collected from the players seated at an open table."""
    PokerTable.objects.filter(pk=half_hourly.pk).update(is_open=False)
    half_hourly.refresh_from_db()
    with pytest.raises(DomainError, match="Table 5 is closed") as refused:
        collect_time_charge(table=half_hourly, period_start=MORNING, players_seated=6, collected_by=staff(Role.DEALER))
    assert refused.value.field == "table" and not TimeCharge.objects.exists()


@pytest.mark.proves("14.14(b)3-verified")
def test_14_14_b_3_v_a_floorperson_verifies_through_the_api_never_their_own_collection(table, staff, api):
    """The floorperson's verification as the API takes it: a collection of the casino verified by a floorperson who
    did not collect it, answered with the charge and its verification (200, as the schema publishes it); the one
    who collected it is refused (a 400 naming the field), whether their id is below or above the verifier's (ids
    above 256, as a room's are, compared by value); a dealer may not verify (403)."""
    from drf_spectacular.generators import SchemaGenerator

    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    floor = staff(Role.FLOORPERSON, pk=90_001)
    dealer = staff(Role.DEALER, pk=90_002)
    other_floor = staff(Role.FLOORPERSON, pk=90_003)
    by_dealer = collect_time_charge(table=table, period_start=AT, players_seated=5, collected_by=dealer)
    by_floor = collect_time_charge(table=table, period_start=AT + timedelta(minutes=30), players_seated=4,
                                   collected_by=other_floor)
    api.force_authenticate(dealer)
    assert api.post(f"/api/time-charges/{by_dealer.pk}/verify/").status_code == 403
    api.force_authenticate(other_floor)  # the collector, id above the dealer's and the floor's
    refused = api.post(f"/api/time-charges/{by_floor.pk}/verify/")
    assert refused.status_code == 400 and "cannot verify" in refused.json()["verified_by"][0]
    api.force_authenticate(floor)  # id below both collectors'
    answer = api.post(f"/api/time-charges/{by_dealer.pk}/verify/")
    assert answer.status_code == 200
    assert (answer.json()["id"], answer.json()["verified_by"]) == (by_dealer.pk, floor.pk)
    with pytest.raises(DomainError, match="cannot verify"):  # the service itself, the verifier's own collection
        verify_time_charge(time_charge=TimeCharge.objects.get(pk=by_floor.pk),
                           verified_by=type(other_floor).objects.get(pk=90_003))
    verify_time_charge(time_charge=by_floor, verified_by=floor)
    responses = SchemaGenerator().get_schema(request=None, public=True)["paths"]["/api/time-charges/{id}/verify/"][
        "post"]["responses"]
    assert "200" in responses and "201" not in responses
    assert responses["200"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/TimeChargeOutput"}


@pytest.mark.proves("14.14(b)3-verified")
def test_14_14_b_3_v_two_floorpersons_verifying_at_once_get_one_verification(table, staff):
    """A collection is verified once: when another floorperson's verification commits between the check and the
    write (the check saw none), the second is refused as already verified, not a 500, and one verification stays."""
    from unittest import mock

    from apps.rake.models import TimeChargeVerification

    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=5, collected_by=staff(Role.DEALER))
    verify_time_charge(time_charge=charge, verified_by=staff(Role.FLOORPERSON))
    with mock.patch.object(TimeChargeVerification.objects, "filter") as seen:  # the check ran before the other's
        seen.return_value.exists.return_value = False
        with pytest.raises(DomainError, match="already verified") as refused:
            verify_time_charge(time_charge=charge, verified_by=staff(Role.FLOORPERSON))
    assert refused.value.field == "time_charge"
    assert TimeChargeVerification.objects.filter(time_charge=charge).count() == 1


# --- what is posted and what each interval charges ---------------------------------------------------------------------

@pytest.mark.proves("14.14(b)3-basis", "14.14(b)3-hourly")
@pytest.mark.parametrize(("basis", "fee", "minutes", "seated", "amount", "explanation"), [
    (TimeChargeBasis.PER_PLAYER, "12.00", 30, 7, "42.00", "7 seated × $6.00 ($12.00/h for 30 min)"),
    (TimeChargeBasis.PER_PLAYER, "12.00", 30, 1, "6.00", "1 seated × $6.00 ($12.00/h for 30 min)"),
    (TimeChargeBasis.PER_PLAYER, "9.00", 20, 9, "27.00", "9 seated × $3.00 ($9.00/h for 20 min)"),
    (TimeChargeBasis.PER_TABLE, "30.00", 20, 4, "10.00", "Per table: $30.00/h for 20 min"),
    (TimeChargeBasis.PER_TABLE, "30.00", 30, 9, "15.00", "Per table: $30.00/h for 30 min"),
])
def test_14_14_b_3_each_interval_charges_the_hourly_fee_per_player_or_per_table(table, staff, basis, fee, minutes,
                                                                                 seated, amount, explanation):
    """The hourly fee for one interval, from every seated player (inactive ones are seated too) or once for the
    table; the record says which."""
    post_time_charge_structure(table=table, hourly_fee=D(fee), interval_minutes=minutes, basis=basis)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=seated, collected_by=staff(Role.DEALER))
    stored = TimeCharge.objects.get(pk=charge.pk)
    assert (stored.amount, stored.explanation, stored.players_seated) == (D(amount), explanation, seated)
    assert stored.interval_minutes == minutes


@pytest.mark.proves("14.14(b)3-basis")
@pytest.mark.parametrize("basis", ["per_seat", "", "PER_PLAYER"])
def test_14_14_b_3_i_a_basis_other_than_per_player_or_per_table_is_refused(table, basis):
    with pytest.raises(DomainError) as refused:
        post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30, basis=basis)
    assert (refused.value.field, refused.value.message) == ("basis", f"Unknown basis {basis!r}: per player or per "
                                                                     "table.")
    assert not TimeChargeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(b)3-hourly", "14.14(b)3-basis")
def test_14_14_b_3_ii_the_hourly_fee_is_posted_and_a_change_replaces_it(table):
    """The table's time charge is an hourly fee, posted in dollars and cents; posting again changes it."""
    post_time_charge_structure(table=table, hourly_fee=D("12"), interval_minutes=30)
    post_time_charge_structure(table=table, hourly_fee=D("30.00"), interval_minutes=20,
                               basis=TimeChargeBasis.PER_TABLE)
    posted = TimeChargeStructure.objects.get(table=table)
    assert (posted.hourly_fee, posted.interval_minutes, posted.basis) == (D("30.00"), 20, TimeChargeBasis.PER_TABLE)
    assert str(posted.hourly_fee) == "30.00"


@pytest.mark.proves("14.14(b)3-hourly")
@pytest.mark.parametrize("fee", [D("0"), D("0.00"), D("-12.00"), D("-0.03"), D("-0.05")])
def test_14_14_b_3_ii_an_hourly_fee_of_nothing_or_less_is_refused(table, fee):
    """A fee below zero is refused as such, also one that would split a cent every 20 minutes (-$0.05)."""
    with pytest.raises(DomainError) as refused:
        post_time_charge_structure(table=table, hourly_fee=fee, interval_minutes=20)
    assert (refused.value.field, refused.value.message) == ("hourly_fee", "The hourly fee must be positive.")
    assert not TimeChargeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(b)3-hourly", "14.14(b)3-fractional")
@pytest.mark.parametrize(("fee", "minutes", "per_interval"), [
    ("0.03", 20, "0.01"), ("0.02", 30, "0.01"), ("10.00", 30, "5.00"), ("12.00", 20, "4.00"), ("12.00", 30, "6.00"),
])
def test_14_14_b_3_iii_a_fee_that_divides_into_whole_cents_is_posted(table, fee, minutes, per_interval):
    structure = post_time_charge_structure(table=table, hourly_fee=D(fee), interval_minutes=minutes)
    assert TimeChargeStructure.objects.get(pk=structure.pk).charge_per_interval == D(per_interval)


@pytest.mark.proves("14.14(b)3-fractional")
@pytest.mark.parametrize(("fee", "minutes", "field", "message"), [
    ("12.00", 15, "interval_minutes", "Time charges are assessed every 20 or 30 minutes (14.14(b)3.iii)."),
    ("12.00", 60, "interval_minutes", "Time charges are assessed every 20 or 30 minutes (14.14(b)3.iii)."),
    ("12.00", 0, "interval_minutes", "Time charges are assessed every 20 or 30 minutes (14.14(b)3.iii)."),
    ("12.00", 21, "interval_minutes", "Time charges are assessed every 20 or 30 minutes (14.14(b)3.iii)."),
    ("10.00", 20, "hourly_fee", "$10.00 an hour does not divide into whole cents every 20 minutes."),
    ("12.01", 30, "hourly_fee", "$12.01 an hour does not divide into whole cents every 30 minutes."),
    ("0.01", 20, "hourly_fee", "$0.01 an hour does not divide into whole cents every 20 minutes."),
    ("0.05", 20, "hourly_fee", "$0.05 an hour does not divide into whole cents every 20 minutes."),  # 1.67 cents
    ("10.01", 20, "hourly_fee", "$10.01 an hour does not divide into whole cents every 20 minutes."),  # $3.3367
])
def test_14_14_b_3_iii_other_intervals_and_fees_that_split_a_cent_are_refused(table, fee, minutes, field, message):
    with pytest.raises(DomainError) as refused:
        post_time_charge_structure(table=table, hourly_fee=D(fee), interval_minutes=minutes)
    assert (refused.value.field, refused.value.message) == (field, message)
    assert not TimeChargeStructure.objects.filter(table=table).exists()


@pytest.mark.proves("14.14(b)3-fractional")
def test_14_14_b_3_iii_each_collection_covers_one_interval_from_its_start(table, staff):
    """A period of play is the posted interval from its start, stored in UTC: 20:00-20:20 New York, then
    20:20-20:40; 20:19 falls in the first and is refused."""
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=20)
    dealer = staff(Role.DEALER)
    first = collect_time_charge(table=table, period_start=AT, players_seated=3, collected_by=dealer)
    assert TimeCharge.objects.get(pk=first.pk).period_start == datetime(2026, 11, 21, 1, 0, tzinfo=ZoneInfo("UTC"))
    with pytest.raises(AlreadyRecorded, match="the period 2026-11-20 20:00–20:20 was already collected"):
        collect_time_charge(table=table, period_start=AT + timedelta(minutes=19), players_seated=3,
                            collected_by=dealer)
    second = collect_time_charge(table=table, period_start=AT + timedelta(minutes=20), players_seated=3,
                                 collected_by=dealer)
    with pytest.raises(AlreadyRecorded, match="the period 2026-11-20 20:20–20:40 was already collected") as refused:
        collect_time_charge(table=table, period_start=AT + timedelta(minutes=39), players_seated=3,
                            collected_by=dealer)
    assert refused.value.existing_id == second.pk
    # a period after a gap (20:40-21:00 not collected: the table was empty) is charged on its own
    after_the_gap = collect_time_charge(table=table, period_start=AT + timedelta(minutes=60), players_seated=3,
                                        collected_by=dealer)
    assert TimeCharge.objects.filter(table=table).count() == 3 and after_the_gap.pk not in (first.pk, second.pk)
