"""The rounds API: JSON rounds and PHH text in, with roles and field-level errors."""
from decimal import Decimal
from pathlib import Path

import pytest

from apps.core.roles import Role
from apps.rounds.models import RoundOfPlay
from tests.factories import PokerTableFactory, RakeStructureFactory

PLURIBUS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "phh" / "pluribus"
pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    return RakeStructureFactory(table__casino=casino).table


def body(table, **overrides):
    data = {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}
    return data | overrides


@pytest.mark.parametrize(("role", "status"), [
    (Role.POKER_SHIFT_SUPERVISOR, 201), (Role.FLOORPERSON, 201), (Role.DEALER, 201), (Role.ADMIN, 201),
    (Role.SURVEILLANCE, 403), (Role.ACCOUNTING, 403), (Role.SECURITY, 403)])
def test_who_may_record_a_round(api, staff, table, role, status):
    api.force_authenticate(staff(role))
    response = api.post("/api/rounds/", body(table), format="json")
    assert response.status_code == status, response.content
    if status == 201:
        assert response.json()["pots"][0]["awards"] == [{"seat": 1, "amount": "95.00"}]


def test_anonymous_is_refused(api, table):
    assert api.post("/api/rounds/", body(table), format="json").status_code in (401, 403)
    assert api.get("/api/rounds/").status_code in (401, 403)


@pytest.mark.parametrize(("players", "field"), [
    ([{"seat": 1, "contributed": "5", "hole_cards": "As Zz"}, {"seat": 2, "contributed": "5", "hole_cards": "2c 7d"}],
     "players[0].hole_cards"),
    ([{"seat": 1, "contributed": "5", "hole_cards": "As Kd"}, {"seat": 2, "contributed": "5", "hole_cards": "As 7d"}],
     "players"),
    ([{"seat": 1, "contributed": "five"}, {"seat": 2, "contributed": "5"}], "players"),
])
def test_bad_input_is_a_400_naming_the_field(api, supervisor, table, players, field):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/", body(table, players=players), format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert not RoundOfPlay.objects.exists()


def test_a_table_of_another_casino_is_not_found(api, supervisor):
    other = PokerTableFactory()
    api.force_authenticate(supervisor)
    assert api.post("/api/rounds/", body(other), format="json").status_code == 404


def test_phh_text_imports_once(api, supervisor, table):
    table.small_blind, table.big_blind = Decimal("50"), Decimal("100")
    table.save()
    api.force_authenticate(supervisor)
    text = sorted(PLURIBUS.glob("*.phhs"))[0].read_text()
    first = api.post("/api/rounds/phh/", {"table": table.pk, "phh": text}, format="json")
    assert first.status_code == 201, first.content
    assert first.json()["imported"] > 50 and first.json()["skipped"] == 0
    again = api.post("/api/rounds/phh/", {"table": table.pk, "phh": text}, format="json")
    assert again.json() == {"imported": 0, "skipped": first.json()["imported"]}


def test_malformed_phh_is_a_400(api, supervisor, table):
    api.force_authenticate(supervisor)
    response = api.post("/api/rounds/phh/", {"table": table.pk, "phh": "variant = 'NT'\nactions = ["}, format="json")
    assert response.status_code == 400
    assert "not valid PHH" in response.json()["phh"][0]
    assert not RoundOfPlay.objects.exists()


def test_rounds_are_listed_and_read_by_surveillance(api, staff, supervisor, table):
    api.force_authenticate(supervisor)
    created = api.post("/api/rounds/", body(table), format="json").json()
    api.force_authenticate(staff(Role.SURVEILLANCE))
    listed = api.get("/api/rounds/").json()
    assert listed["count"] == 1
    assert api.get(f"/api/rounds/{created['id']}/").json()["players"][0]["hole_cards"] == "As Ks"
    assert api.get(f"/api/rake-records/?round_of_play={created['id']}").json()["results"][0]["amount"] == "5.00"


def test_betting_rounds_through_the_api(api, supervisor, table):
    api.force_authenticate(supervisor)
    players = [{"seat": 1, "contributed": "30.00", "hole_cards": "As Ks", "streets": ["15.00", "15.00"]},
               {"seat": 2, "contributed": "30.00", "hole_cards": "2c 7d", "streets": ["15.00", "15.00"]}]
    created = api.post("/api/rounds/", body(table, players=players), format="json")
    assert created.status_code == 201
    assert created.json()["betting_rounds"] == ["30.00", "30.00"]
    players[0]["streets"] = ["15.00", "10.00"]
    refused = api.post("/api/rounds/", body(table, players=players), format="json")
    assert refused.status_code == 400 and "players[0].streets" in refused.json()
