"""A round of play posted twice (the same external id, the same PHH hand), one after the other or at the same moment, without an Idempotency-Key: the second answers
409 in the one error shape with the stored record's id (`existing_id`), never an IntegrityError (500), and nothing
more is written."""
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from apps.badbeat.models import Contribution
from apps.core.roles import Role
from apps.rake.models import RakeRecord
from apps.rounds.models import RoundOfPlay
from tests.core.test_idempotency import _concurrently
from tests.factories import JackpotFactory, RakeStructureFactory, StaffFactory
from tests.feed.test_apis import PLURIBUS

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino):
    table = RakeStructureFactory(table__casino=casino, table__small_blind=Decimal("50"),
                                 table__big_blind=Decimal("100")).table
    JackpotFactory(casino=casino, balance=Decimal("0.00"), minimum_pot=Decimal("0"))
    return table


def round_body(table, external_id="hand-0001"):
    return {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "external_id": external_id, "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}


def one_hand():
    return sorted(PLURIBUS.glob("*.phhs"))[0].read_text().split("\n\n[")[0]


def money_rows():
    return RoundOfPlay.objects.count(), RakeRecord.objects.count(), Contribution.objects.count()


class TestOneAfterTheOther:
    def test_the_same_external_id_again_is_a_409_with_the_stored_round(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        first = api.post("/api/rounds/", round_body(table), format="json")
        assert first.status_code == 201
        again = api.post("/api/rounds/", round_body(table), format="json")
        assert again.status_code == 409
        assert again.json()["existing_id"] == first.json()["id"]
        assert "hand-0001" in again.json()["external_id"][0]
        assert money_rows() == (1, 1, 1)

    def test_the_same_external_id_at_another_casino_is_another_round(self, api, supervisor, table):
        other_table = RakeStructureFactory().table
        api.force_authenticate(supervisor)
        assert api.post("/api/rounds/", round_body(table), format="json").status_code == 201
        api.force_authenticate(StaffFactory(casino=other_table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR]))
        assert api.post("/api/rounds/", round_body(other_table), format="json").status_code == 201

    def test_the_same_phh_hand_again_is_a_409_with_the_stored_round(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        body = {"table": table.pk, "phh": one_hand()}
        assert api.post("/api/rounds/phh/", body, format="json").status_code == 201
        again = api.post("/api/rounds/phh/", body, format="json")
        assert again.status_code == 409
        assert again.json()["existing_id"] == RoundOfPlay.objects.get().pk
        assert RoundOfPlay.objects.count() == 1


@pytest.mark.django_db(transaction=True)
class TestAtTheSameMoment:
    def test_ten_posts_of_one_external_id_record_one_round_and_409_the_others(self, casino, supervisor, table):
        def request():
            client = APIClient()
            client.force_authenticate(supervisor)
            return client.post("/api/rounds/", round_body(table), format="json")

        results = _concurrently(request)
        statuses = sorted(getattr(r, "status_code", repr(r)) for r in results)
        assert statuses == [201] + [409] * 9, statuses
        stored = RoundOfPlay.objects.get()
        assert all(r.json()["existing_id"] == stored.pk for r in results if r.status_code == 409)
        assert money_rows() == (1, 1, 1)

    def test_ten_imports_of_one_phh_hand_record_it_once(self, casino, supervisor, table):
        body = {"table": table.pk, "phh": one_hand()}

        def request():
            client = APIClient()
            client.force_authenticate(supervisor)
            return client.post("/api/rounds/phh/", body, format="json")

        results = _concurrently(request)
        statuses = sorted(getattr(r, "status_code", repr(r)) for r in results)
        assert statuses == [201] + [409] * 9, statuses
        assert RoundOfPlay.objects.count() == 1
