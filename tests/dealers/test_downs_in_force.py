"""The downs under way at a moment (apps.dealers.selectors.downs_in_force): the floor map's dealer in the box."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from apps.core.roles import Role
from apps.dealers.selectors import downs_in_force
from apps.dealers.services import plan_rotation
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db
START = datetime(2026, 11, 20, 14, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.mark.parametrize(("after", "in_force"), [
    (timedelta(0), True),                       # a down starts at its start
    (timedelta(minutes=59, seconds=59), True),  # the longest down (60 minutes) is under way to its last second
    (timedelta(minutes=60), False),             # and over at its end (the next shift is not planned)
    (-timedelta(seconds=1), False),
])
def test_a_down_is_in_force_from_its_start_to_its_end(casino, staff, supervisor, after, in_force):
    dealers = [staff(Role.DEALER, username=f"dealer{i}") for i in range(3)]
    tables = [PokerTableFactory(casino=casino, number=n) for n in (1, 2)]
    plan_rotation(casino=casino, dealers=dealers, tables=tables, start=START, hours=1, down_minutes=60,
                  planned_by=supervisor)
    downs = downs_in_force(casino=casino, now=START + after)
    assert len(downs) == (3 if in_force else 0)  # two dealers in the box, one on break
    if in_force:
        assert {d.table_id for d in downs} == {tables[0].pk, tables[1].pk, None}
        assert all(d.starts_at == START for d in downs)
