"""The counts page's history tab (apps.counts.history): how each count and form of the gaming day was recorded, by whom,
and each part of a form as accounting received it (N.J.A.C. 13:69F-14.19(d)-(h)), for the roles that read the counts
(counts.view_counts) and no others."""
from decimal import Decimal

import pghistory
import pytest

from apps.core.roles import Role
from apps.counts.models import CountMethod, WitnessKind
from apps.counts.services import receive_form_part, record_count
from tests.factories import JackpotFactory, PokerTableFactory
from tests.support.history import history_rows

pytestmark = pytest.mark.django_db
READERS = {Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING, Role.SECURITY, Role.SURVEILLANCE, Role.ADMIN}


@pytest.fixture
def form(casino, staff):
    """A form counted at table 5 by a dealer, witnessed and recorded by a supervisor; its duplicate received."""
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino, number=5)
    dealer = staff(Role.DEALER, first_name="Dee", last_name="Lane")
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR, first_name="Sue", last_name="Park")
    clerk = staff(Role.ACCOUNTING, first_name="Ada", last_name="Lee")
    with pghistory.context(user=supervisor.pk):
        count = record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 3, "5": 2},
                             counted_by=dealer, witness=supervisor, witness_kind=WitnessKind.SUPERVISOR,
                             surveillance_recorded=True, recorded_by=supervisor)
    with pghistory.context(user=clerk.pk):
        receive_form_part(casino=casino, serial_number=count.serial_number, part="duplicate", received_by=clerk)
    return count


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_the_readers_of_the_counts_see_who_recorded_and_received_each_form(client, staff, form, role):
    client.force_login(staff(role))
    day = form.gaming_day.isoformat()
    response = client.get(f"/counts/?day={day}&tab=history&count={form.pk}")
    if role not in READERS:
        assert response.status_code == 403
        return
    rows = history_rows(response)
    assert [(who, record, what) for who, record, what, _ in rows] == [
        ("Ada Lee", f"Form {form.serial_number}", "Received"),
        ("Sue Park", f"Form {form.serial_number}, table 5", "Recorded")]
    assert rows[0][3].startswith("Part: Duplicate (locked accounting box); Received by: Ada Lee")
    recorded = rows[1][3]
    for shown in ("Table: 5", "Method: Counted and returned to the table inventory, with a form (14.19(f))",
                  "Counted: $13.00", "Chips: 3 × $1.00, 2 × $5.00", "Counted by: Dee Lane", "Witness: Sue Park",
                  "Under surveillance: Yes", "Recorded by: Sue Park"):
        assert shown in recorded
    assert form.amount == Decimal("13.00")
    whole_day = history_rows(client.get(f"/counts/?day={day}&tab=history"))
    assert whole_day == rows
    page = client.get(f"/counts/?day={day}").content.decode()
    assert f'data-testid="count-history-{form.pk}"' in page and 'data-testid="history-tab"' in page
