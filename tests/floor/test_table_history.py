"""The table page's history tab (apps.floor.history): who changed the table, its rotation and its rake, when, from what to
what (N.J.A.C. 13:69F-14.8, 14.14(c), 14.17), for every role that reads the table; no other casino's."""
import pytest

from apps.core.roles import Role
from apps.floor.history import table_sources
from tests.factories import CasinoFactory, RakeStructureFactory, StaffFactory
from tests.support.history import history_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def changed(api, casino, staff):
    """A table set up with its rake, then changed over the API by a supervisor: its area, then its rake's maximum."""
    table = RakeStructureFactory(table__casino=casino, table__number=7).table
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR, first_name="Sue", last_name="Park")
    api.force_authenticate(supervisor)
    assert api.patch(f"/api/tables/{table.pk}/", {"location": "High limit"}, format="json").status_code == 200
    assert api.put(f"/api/tables/{table.pk}/rake-structure/", {"method": "percentage", "percentage": "5.00",
                                                                "maximum": "6.00"}, format="json").status_code == 200
    return table


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_every_reader_of_the_table_sees_who_changed_what(client, staff, changed, role):
    client.force_login(staff(role))
    page = client.get(f"/tables/{changed.pk}/")
    assert f'href="/tables/{changed.pk}/?tab=history"' in page.content.decode()  # the tab, on the table's page
    rows = history_rows(client.get(f"/tables/{changed.pk}/?tab=history"))
    # newest first; the test's one transaction is one moment, in which the rake's events come before the table's
    assert [(who, record, what) for who, record, what, _ in rows] == [
        ("Sue Park", "Rake", "Changed"), ("the system", "Rake", "Posted"), ("Sue Park", "Table 7", "Changed"),
        ("the system", "Table 7", "Set up")]
    assert rows[0][3] == "Percentage: 10% → 5%; Maximum per pot: $5.00 → $6.00"
    assert rows[2][3] == "Area: — → High limit"
    assert "Big blind: $2.00" in rows[3][3] and "Game: Texas hold 'em (high)" in rows[3][3]


def test_no_one_else_reads_the_tables_history(client, changed):
    assert client.get(f"/tables/{changed.pk}/?tab=history").status_code == 302  # to sign in
    client.force_login(StaffFactory(casino=CasinoFactory(), roles=list(Role)))
    assert client.get(f"/tables/{changed.pk}/?tab=history").status_code == 404


def test_an_incremental_rake_and_a_percentage_read_as_posted(changed, supervisor):
    rake = table_sources(table=changed, user=supervisor)[2].formats
    assert rake["levels"]([{"pot": "20.00", "take": "1.00"}, {"pot": "50", "take": "2"}]) == "$1.00 at $20.00, $2.00 at $50.00"
    assert rake["percentage"]("10.00") == "10%"
