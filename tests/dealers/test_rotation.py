"""Dealer rotation: fixed downs with breaks that rotate evenly, planned by the supervisor."""
from collections import Counter
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.dealers.models import DealerDown
from apps.dealers.selectors import shift_schedule
from apps.dealers.services import plan_rotation
from tests.factories import PokerTableFactory

NEW_YORK = ZoneInfo("America/New_York")
START = datetime(2026, 11, 20, 14, 0, tzinfo=NEW_YORK)
pytestmark = pytest.mark.django_db


@pytest.fixture
def crew(casino, staff):
    dealers = [staff(Role.DEALER, username=f"dealer{i}") for i in range(4)]
    tables = [PokerTableFactory(casino=casino, number=n) for n in (1, 2, 3)]
    return dealers, tables


def test_every_table_is_dealt_every_down_and_breaks_rotate(casino, crew, supervisor):
    dealers, tables = crew
    downs = plan_rotation(casino=casino, dealers=dealers, tables=tables, start=START, hours=4, down_minutes=30,
                          planned_by=supervisor)
    assert len(downs) == 8 * 4
    by_time = {}
    for down in downs:
        by_time.setdefault(down.starts_at, []).append(down.table_id)
    for tables_dealt in by_time.values():
        assert sorted(t for t in tables_dealt if t) == sorted(t.pk for t in tables) and tables_dealt.count(None) == 1
    breaks = Counter(d.dealer_id for d in downs if d.table_id is None)
    assert set(breaks.values()) == {2}  # 8 downs, 4 dealers: two breaks each


def test_replanning_replaces_the_plan(casino, crew, supervisor):
    dealers, tables = crew
    plan_rotation(casino=casino, dealers=dealers, tables=tables, start=START, hours=2, down_minutes=20,
                  planned_by=supervisor)
    plan_rotation(casino=casino, dealers=dealers, tables=tables, start=START, hours=2, down_minutes=30,
                  planned_by=supervisor)
    assert DealerDown.objects.count() == 4 * 4
    schedule = shift_schedule(casino=casino, start=START, end=START.replace(hour=16))
    assert len(schedule.times) == 4 and all(len(cells) == 4 for _, cells in schedule.rows)


@pytest.mark.parametrize(("change", "field"), [
    ({"dealers": 3}, "dealers"), ({"down_minutes": 10}, "down_minutes"), ({"hours": 13}, "hours")])
def test_bad_plans_are_refused(casino, crew, supervisor, change, field):
    dealers, tables = crew
    kwargs = {"casino": casino, "dealers": dealers, "tables": tables, "start": START, "hours": 4, "down_minutes": 30,
              "planned_by": supervisor}
    if "dealers" in change:
        kwargs["dealers"] = dealers[:change.pop("dealers")]
    kwargs.update(change)
    with pytest.raises(DomainError) as exc:
        plan_rotation(**kwargs)
    assert exc.value.field == field


def test_only_dealers_are_rotated_and_only_supervisors_plan(casino, crew, supervisor, staff):
    dealers, tables = crew
    with pytest.raises(DomainError, match="Not dealers"):
        plan_rotation(casino=casino, dealers=[*dealers, staff(Role.ACCOUNTING)], tables=tables, start=START, hours=1,
                      down_minutes=30, planned_by=supervisor)
    with pytest.raises(DomainError, match="supervisor"):
        plan_rotation(casino=casino, dealers=dealers, tables=tables, start=START, hours=1, down_minutes=30,
                      planned_by=dealers[0])


def test_rotation_page(client, casino, crew, supervisor, staff):
    dealers, tables = crew
    for t in tables:
        t.is_open = True
        t.save()
    client.force_login(supervisor)
    response = client.post("/dealers/", {"start": "2026-11-20T14:00", "hours": "2", "down_minutes": "30",
                                         "dealers": [d.pk for d in dealers], "tables": [t.pk for t in tables]},
                           follow=True)
    assert b"Rotation planned." in response.content and b"Break" in response.content
    client.force_login(dealers[0])
    assert client.get("/dealers/?start=2026-11-20T14:00").status_code == 200
    assert client.post("/dealers/", {"start": "2026-11-20T14:00"}).status_code == 403
    client.force_login(staff(Role.ACCOUNTING))
    assert client.get("/dealers/").status_code == 403


def test_a_refused_plan_comes_back_with_each_error_beside_its_field(client, casino, crew, supervisor):
    """Three tables and two dealers: the service's refusal sits beside the dealers (400), the plan as typed, nothing
    written; a start that is no moment is refused beside the start."""
    dealers, tables = crew
    PokerTableFactory._meta.model.objects.filter(pk__in=[t.pk for t in tables]).update(is_open=True)
    client.force_login(supervisor)
    response = client.post("/dealers/", {"start": "2026-11-20T14:00", "hours": "2", "down_minutes": "30",
                                         "dealers": [d.pk for d in dealers[:2]], "tables": [t.pk for t in tables]})
    page = response.content.decode()
    assert response.status_code == 400 and not DealerDown.objects.exists()
    assert 'id="id_dealers_error"' in page and "3 tables need at least 4 dealers" in page
    assert 'value="2026-11-20T14:00"' in page and 'data-testid="form-errors"' in page
    response = client.post("/dealers/", {"start": "tomorrow", "hours": "2", "down_minutes": "30",
                                         "dealers": [d.pk for d in dealers], "tables": [t.pk for t in tables]})
    page = response.content.decode()
    assert response.status_code == 400 and 'id="id_start_error"' in page and "YYYY-MM-DDTHH:MM" in page
    response = client.post("/dealers/", {"start": "2026-11-20T14:00", "hours": "20", "down_minutes": "30",
                                         "dealers": [d.pk for d in dealers], "tables": [t.pk for t in tables]})
    assert response.status_code == 400 and 'id="id_hours_error"' in response.content.decode()
