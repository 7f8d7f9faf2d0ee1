"""A table number posted twice, one after the other or at the same moment: the second answers 409 in the one error
shape with the table that has the number (`existing_id`), never an IntegrityError (500); nothing more is written."""
import pytest
from rest_framework.test import APIClient

from apps.tables.models import PokerTable
from tests.core.test_idempotency import _concurrently

pytestmark = pytest.mark.django_db


def new_table(number=30):
    return {"number": number, "game": "holdem", "seats": 10, "minimum_wager": "2.00", "small_blind": "1.00",
            "big_blind": "2.00"}


class TestOneAfterTheOther:
    def test_a_table_number_in_use_is_a_409_with_that_table(self, api, supervisor):
        api.force_authenticate(supervisor)
        first = api.post("/api/tables/", new_table(), format="json")
        assert first.status_code == 201
        again = api.post("/api/tables/", new_table(), format="json")
        assert again.status_code == 409
        assert again.json() == {"number": ["Table 30 already exists."], "existing_id": first.json()["id"]}
        second = api.post("/api/tables/", new_table(number=31), format="json").json()
        renumbered = api.patch(f"/api/tables/{second['id']}/", {"number": 30}, format="json")
        assert renumbered.status_code == 409 and renumbered.json()["existing_id"] == first.json()["id"]
        assert sorted(PokerTable.objects.values_list("number", flat=True)) == [30, 31]


@pytest.mark.django_db(transaction=True)
class TestAtTheSameMoment:
    def test_ten_tables_created_with_one_number_make_one_table(self, casino, supervisor):
        def request():
            client = APIClient()
            client.force_authenticate(supervisor)
            return client.post("/api/tables/", new_table(), format="json")

        results = _concurrently(request)
        statuses = sorted(getattr(r, "status_code", repr(r)) for r in results)
        assert statuses == [201] + [409] * 9, statuses
        table = PokerTable.objects.get(number=30)
        assert all(r.json()["existing_id"] == table.pk for r in results if r.status_code == 409)
