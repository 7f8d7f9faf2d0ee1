"""Rake by time charges, N.J.A.C. 13:69F-14.14(b)3."""
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.rake.models import TimeChargeBasis
from apps.rake.selectors import rake_for_gaming_day
from apps.rake.services import collect_time_charge, post_time_charge_structure, verify_time_charge
from tests.factories import PokerTableFactory

NEW_YORK = ZoneInfo("America/New_York")
AT = datetime(2026, 11, 20, 20, 0, tzinfo=NEW_YORK)
D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, number=5, seats=9)


def test_14_14_b_3_i_per_player_charges_every_seated_player(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=7, collected_by=staff(Role.DEALER))
    assert charge.amount == D("42.00")  # 7 seated (inactive included) x $6.00 per half hour
    assert "7 seated" in charge.explanation


def test_14_14_b_3_i_per_table_charge(table, staff):
    post_time_charge_structure(table=table, hourly_fee=D("30.00"), interval_minutes=20, basis=TimeChargeBasis.PER_TABLE)
    charge = collect_time_charge(table=table, period_start=AT, players_seated=4, collected_by=staff(Role.DEALER))
    assert charge.amount == D("10.00")


@pytest.mark.parametrize(("fee", "minutes", "field"), [
    (D("12.00"), 15, "interval_minutes"), (D("12.00"), 60, "interval_minutes"), (D("10.00"), 20, "hourly_fee"),
    (D("0"), 30, "hourly_fee")])
def test_14_14_b_3_iii_every_20_or_30_minutes_in_whole_cents(table, fee, minutes, field):
    with pytest.raises(DomainError) as exc:
        post_time_charge_structure(table=table, hourly_fee=fee, interval_minutes=minutes)
    assert exc.value.field == field


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
