"""A table whose contribution container holds chips not yet counted closes only once a count of it is recorded
(N.J.A.C. 13:69F-14.19(f)1: "The counting and recording shall occur ... upon table closing"), through the service,
the API and the floor's table page; a table with nothing uncounted, or with a bad beat payout box (no container
posted, 14.19(d)), closes as before."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountMethod, CountReason, WitnessKind
from apps.counts.services import record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.tables.models import TableStatusChange, TableStatusKind
from apps.tables.services import close_table
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db

CLOSE = {"reason": "End of the game", "drop_box_removed": True}


def pot(table):
    """One round of play at `table`: a $1.00 bad beat contribution (the jackpot's maximum)."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("15.00"), hole_cards="As Ac"),
        PlayerIn(seat=2, contributed=D("15.00"), hole_cards="Qh Qd")]))


@pytest.fixture
def people(staff):
    return {"dealer": staff(Role.DEALER), "supervisor": staff(Role.POKER_SHIFT_SUPERVISOR),
            "floor": staff(Role.FLOORPERSON)}


@pytest.fixture
def container_table(casino):
    """An open table with an approved contribution container of $50.00 (14.19(f)) and $3.00 in it, not counted."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino, number=4, contribution_container_capacity=D("50.00"))
    for _ in range(3):
        pot(table)
    return table


def count_container(table, people, chips, reason=CountReason.TABLE_CLOSING):
    return record_count(table=table, method=CountMethod.TABLE_INVENTORY, reason=reason, chips=chips,
                        counted_by=people["dealer"], witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                        surveillance_recorded=True, recorded_by=people["supervisor"])


def closings(table):
    return TableStatusChange.objects.filter(table=table, kind=TableStatusKind.CLOSED).count()


@pytest.mark.proves("14.19(f)1-closing")
def test_14_19_f_1_closing_with_chips_uncounted_is_refused_until_the_container_is_counted(container_table, people):
    with pytest.raises(DomainError) as refused:
        close_table(table=container_table, by=people["floor"], **CLOSE)
    assert refused.value.field == "container_counted"
    assert "Still at table 4: $3.00 of bad beat contributions not yet counted in its contribution container" in \
        refused.value.message and "14.19(f)1" in refused.value.message
    container_table.refresh_from_db()
    assert container_table.is_open and closings(container_table) == 0
    # a confirmation of everything the closing asks for does not take the count's place
    with pytest.raises(DomainError, match=r"\$3\.00"):
        close_table(table=container_table, by=people["floor"], decks_collected=True, players_unseated=True, **CLOSE)

    count = count_container(container_table, people, {"1": 3})
    assert (count.reason, count.expected, count.variance) == (CountReason.TABLE_CLOSING, D("3.00"), D("0.00"))
    closed = close_table(table=container_table, by=people["floor"], **CLOSE)
    assert not closed.is_open and closings(container_table) == 1


@pytest.mark.proves("14.19(f)1-closing")
def test_14_19_f_1_a_count_with_a_variance_still_empties_the_container_but_a_later_round_does_not(container_table,
                                                                                               people):
    """What the closing checks is what the count covered: the contributions since the table's last count, whatever
    was counted; a contribution after that count is uncounted again."""
    count_container(container_table, people, {"1": 2}, reason=CountReason.DAILY)  # $1.00 short: a variance
    pot(container_table)
    with pytest.raises(DomainError, match=r"Still at table 4: \$1\.00 of bad beat contributions"):
        close_table(table=container_table, by=people["floor"], **CLOSE)
    count_container(container_table, people, {"1": 1})
    assert not close_table(table=container_table, by=people["floor"], **CLOSE).is_open


def test_a_container_with_nothing_uncounted_or_a_payout_box_closes_as_before(casino, people):
    """No contribution at a container table: it closes at once. A table that posts no container (a bad beat payout
    box, counted at the closed table or at the cage, 14.19(d)) closes with its contributions uncounted, so that the
    count at the closed table (14.19(d)1) can follow."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    empty = PokerTableFactory(casino=casino, number=1, contribution_container_capacity=D("50.00"))
    assert not close_table(table=empty, by=people["floor"], **CLOSE).is_open
    box = PokerTableFactory(casino=casino, number=2)
    pot(box)
    box = close_table(table=box, by=people["floor"], **CLOSE)
    assert not box.is_open
    counted = record_count(table=box, method=CountMethod.CLOSED_TABLE, amount=D("1.00"), counted_by=people["dealer"],
                           witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                           surveillance_recorded=True, recorded_by=people["supervisor"])
    assert counted.variance == 0


@pytest.mark.proves("14.19(f)1-closing")
def test_14_19_f_1_the_api_answers_400_naming_the_amount_then_closes_after_the_count(api, container_table, people):
    api.force_authenticate(people["floor"])
    url = f"/api/tables/{container_table.pk}/close/"
    refused = api.post(url, CLOSE, format="json")
    assert refused.status_code == 400
    [message] = refused.json()["container_counted"]
    assert "$3.00 of bad beat contributions not yet counted" in message
    container_table.refresh_from_db()
    assert container_table.is_open and closings(container_table) == 0
    count_container(container_table, people, {"1": 3})
    assert api.post(url, CLOSE, format="json").status_code == 201
    container_table.refresh_from_db()
    assert not container_table.is_open


@pytest.mark.proves("14.19(f)1-closing")
def test_14_19_f_1_the_floor_page_shows_what_to_count_and_the_refusal(client, container_table, people):
    client.force_login(people["floor"])
    url = f"/tables/{container_table.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="closing-blocked"' in page and "$3.00 of bad beat contributions not yet counted" in page
    assert 'data-testid="container-capacity"' in page and "$50.00" in page
    refused = client.post(url, {"action": "close", "reason": "Game broke", "drop_box_removed": "on"})
    assert refused.status_code == 400
    assert "Still at table 4: $3.00 of bad beat contributions not yet counted" in refused.content.decode()
    container_table.refresh_from_db()
    assert container_table.is_open
    count_container(container_table, people, {"1": 3})
    assert 'data-testid="closing-blocked"' not in client.get(url).content.decode()
    done = client.post(url, {"action": "close", "reason": "Game broke", "drop_box_removed": "on"})
    assert done.status_code == 302
    container_table.refresh_from_db()
    assert not container_table.is_open
