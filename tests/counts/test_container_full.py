"""A count is due "prior to or whenever the container is filled to maximum capacity" (N.J.A.C. 13:69F-14.19(f)1): a
table posts its contribution container's capacity; once the contributions not yet counted reach it, the floor map's
"Needs a person now", the table's tile and the counts page say "Count due: container full"; just below it, nothing.
No capacity posted: nothing changes."""
from decimal import Decimal

import pytest

from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountReason
from apps.counts.selectors import containers_full, uncounted_by_table
from apps.floor.selectors import floor_summary
from apps.tables.services import update_table
from tests.counts.test_services import form, pot
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def people(staff):
    return {"dealer": staff(Role.DEALER), "supervisor": staff(Role.POKER_SHIFT_SUPERVISOR)}


@pytest.fixture
def tables(casino):
    """Table 1 posts a $3.00 container, table 2 posts none; a $1.00 contribution a round at each."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    return (PokerTableFactory(casino=casino, number=1, contribution_container_capacity=D("3.00")),
            PokerTableFactory(casino=casino, number=2))


def summary_of(casino):
    return floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))


def tile(summary, number):
    [found] = [t for t in summary.tiles if t.table.number == number]
    return found


@pytest.mark.proves("14.19(f)1-full")
def test_14_19_f_1_a_count_is_due_when_the_uncounted_contributions_reach_the_capacity(casino, tables, people):
    container, box = tables
    for _ in range(2):
        pot(container)
    for _ in range(5):
        pot(box)  # far above $3.00, but no container posted: never due for being full
    assert uncounted_by_table(tables=[container, box]) == {container.pk: D("2.00"), box.pk: D("5.00")}
    assert containers_full(casino=casino) == []  # $2.00 of $3.00: just below, not due
    summary = summary_of(casino)
    assert summary.containers_full == [] and not any("container full" in p for p in tile(summary, 1).problems)
    before = summary.attention_count  # what else needs a person (the tables have no decks)

    pot(container)  # $3.00 of $3.00: full
    [due] = containers_full(casino=casino)
    assert (due.table, due.uncounted, due.capacity) == (container, D("3.00"), D("3.00"))
    assert due.message == "Count due: container full ($3.00 uncounted, capacity $3.00) (14.19(f)1)"
    summary = summary_of(casino)
    assert [f.table for f in summary.containers_full] == [container] and summary.attention_count == before + 1
    assert due.message in tile(summary, 1).problems
    assert not any("container full" in p for p in tile(summary, 2).problems)

    update_table(table=container, contribution_container_capacity=D("3.01"))  # a cent more: just below again
    assert containers_full(casino=casino) == []
    update_table(table=container, contribution_container_capacity=D("2.99"))  # past it: due
    assert [f.uncounted for f in containers_full(casino=casino)] == [D("3.00")]

    form(container, people, {"1": 3}, reason=CountReason.CONTAINER_FULL)  # counted: the container is empty
    assert containers_full(casino=casino) == [] and summary_of(casino).attention_count == before


@pytest.mark.proves("14.19(f)1-full")
def test_14_19_f_1_the_floor_and_the_counts_page_show_the_count_due(client, casino, tables, supervisor):
    container, _ = tables
    client.force_login(supervisor)
    for _ in range(2):
        pot(container)
    assert 'data-testid="container-full-1"' not in client.get("/").content.decode()
    assert 'data-testid="containers-full"' not in client.get("/counts/").content.decode()
    pot(container)
    floor = client.get("/").content.decode()
    assert 'data-testid="attention-containers"' in floor
    assert "Table 1: Count due: container full ($3.00 uncounted, capacity $3.00) (14.19(f)1)" in floor
    counts = client.get("/counts/").content.decode()
    assert 'data-testid="containers-full"' in counts and "Count due: container full ($3.00 uncounted" in counts


@pytest.mark.proves("14.19(f)1-full")
def test_a_capacity_is_above_zero_or_not_posted(tables, api, supervisor):
    """The capacity a count is due at (14.19(f)1-full) is posted above $0.00, or not at all (no container): $0.00 is
    refused on its field by the service and the API, $250.00 is posted."""
    container, box = tables
    for capacity in (D("0.00"), D("-5.00")):
        with pytest.raises(DomainError) as refused:
            update_table(table=container, contribution_container_capacity=capacity)
        assert refused.value.field == "contribution_container_capacity"
    assert update_table(table=container, contribution_container_capacity=D("0.50")).contribution_container_capacity \
        == D("0.50")  # any amount above $0.00
    api.force_authenticate(supervisor)
    answer = api.patch(f"/api/tables/{box.pk}/", {"contribution_container_capacity": "0.00"}, format="json")
    assert answer.status_code == 400 and "contribution_container_capacity" in answer.json()
    answer = api.patch(f"/api/tables/{box.pk}/", {"contribution_container_capacity": "250.00"}, format="json")
    assert answer.status_code == 200 and answer.json()["contribution_container_capacity"] == "250.00"
    answer = api.patch(f"/api/tables/{container.pk}/", {"contribution_container_capacity": None}, format="json")
    assert answer.status_code == 200 and answer.json()["contribution_container_capacity"] is None
