"""A counting shuffler in place of the dealer's count, N.J.A.C. 13:69F-14.6(e)4: "In the alternative, a casino
licensee may utilize an automated card shuffling device approved by the Division that has the capability of counting
the cards in a deck as it shuffles them." A table records its shuffler's approval; a count the shuffler made is taken
in as the 15-minute count and pulls a deck of the wrong count, as a dealer's count does; anywhere else it is refused
and nothing is written."""
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.decks.models import AlertKind, DeckAlert, DeckEvent, DeckStatus
from apps.decks.selectors import ClockState, rotation_board
from apps.decks.services import record_deck_event
from apps.tables.models import PokerTable
from apps.tables.services import update_table
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

NEW_YORK = ZoneInfo("America/New_York")
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=NEW_YORK)
APPROVAL = "DGE-2026-0417 (ShuffleCount 7)"
pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(staff):
    return staff(Role.FLOORPERSON)


@pytest.fixture
def dealer(staff):
    return staff(Role.DEALER)


def dealt_at(table, floor, dealer, prefix):
    """A red and a blue deck at `table`, the red put in use at T0."""
    with time_machine.travel(T0, tick=False):
        red = deck_at_table(table, f"{prefix}-R", "red", floor)
        deck_at_table(table, f"{prefix}-B", "blue", floor)
        record_deck_event(deck=red, kind="put_in_use", by=dealer)
    return red


@pytest.fixture
def counting(casino, floor, dealer):
    """Table 7 with an approved counting shuffler, its red deck in use since T0."""
    table = PokerTableFactory(casino=casino, number=7, uses_automated_shuffler=True,
                              counting_shuffler_approval=APPROVAL)
    return dealt_at(table, floor, dealer, "S")


@pytest.fixture
def plain_shuffler(casino, floor, dealer):
    """Table 8 with an automated shuffler that does not count, its red deck in use since T0."""
    table = PokerTableFactory(casino=casino, number=8, uses_automated_shuffler=True)
    return dealt_at(table, floor, dealer, "P")


def count_state(deck, when):
    row = next(r for r in rotation_board(casino=deck.casino, now=when) if r.table.pk == deck.table_id)
    return next(d for d in row.decks if d.deck.pk == deck.pk).count.state


@pytest.mark.proves("14.6(e)4-counting-shuffler")
def test_14_6_e_4_a_counting_shufflers_count_is_the_fifteen_minute_count(counting, dealer):
    assert count_state(counting, T0 + timedelta(minutes=15, seconds=1)) == ClockState.OVERDUE
    with time_machine.travel(T0 + timedelta(minutes=14), tick=False):
        event = record_deck_event(deck=counting, kind="counted", card_count=52, by=dealer, by_shuffler=True)
    assert event.by_shuffler and event.card_count == 52 and event.by == dealer
    counting.refresh_from_db()
    assert counting.last_counted_at == T0 + timedelta(minutes=14)
    assert count_state(counting, T0 + timedelta(minutes=28, seconds=59)) == ClockState.DUE_SOON
    assert count_state(counting, T0 + timedelta(minutes=29, seconds=1)) == ClockState.OVERDUE


@pytest.mark.proves("14.6(e)4-counting-shuffler")
def test_14_6_e_4_a_wrong_count_by_the_shuffler_pulls_the_deck(counting, dealer):
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        record_deck_event(deck=counting, kind="counted", card_count=53, by=dealer, by_shuffler=True)
    counting.refresh_from_db()
    assert counting.status == DeckStatus.REMOVED and counting.table is None
    assert DeckAlert.objects.get(kind=AlertKind.WRONG_COUNT, cleared_at=None).deck == counting
    event = DeckEvent.objects.get(deck=counting, kind="counted")
    assert event.by_shuffler and "53 cards" in event.note


@pytest.mark.proves("14.6(e)4-counting-shuffler")
def test_14_6_e_4_only_an_approved_counting_shuffler_counts_in_the_dealers_place(plain_shuffler, counting, dealer):
    """At a table whose shuffler is not recorded as approved to count, or for an event other than a count, the
    shuffler's word is refused naming the field, and nothing is recorded: the deck's count clock stays overdue."""
    before = DeckEvent.objects.count()
    with time_machine.travel(T0 + timedelta(minutes=14), tick=False):
        with pytest.raises(DomainError, match="not recorded as a shuffler approved to count") as refused:
            record_deck_event(deck=plain_shuffler, kind="counted", card_count=52, by=dealer, by_shuffler=True)
        assert refused.value.field == "by_shuffler"
        with pytest.raises(DomainError, match="counts only") as refused:
            record_deck_event(deck=counting, kind="sorted", by=dealer, by_shuffler=True)
        assert refused.value.field == "by_shuffler"
    assert DeckEvent.objects.count() == before
    plain_shuffler.refresh_from_db()
    assert plain_shuffler.last_counted_at is None
    assert count_state(plain_shuffler, T0 + timedelta(minutes=15, seconds=1)) == ClockState.OVERDUE


class TestTheTablesApproval:
    @pytest.mark.proves("14.6(e)4-counting-shuffler")
    def test_14_6_e_4_posted_read_and_refused_without_an_automated_shuffler(self, api, staff):
        api.force_authenticate(staff(Role.POKER_SHIFT_SUPERVISOR))
        posted = {"number": 12, "game": "holdem", "seats": 9, "minimum_wager": "2.00", "small_blind": "1.00",
                  "big_blind": "2.00", "uses_automated_shuffler": False, "counting_shuffler_approval": APPROVAL}
        refused = api.post("/api/tables/", posted, format="json")
        assert refused.status_code == 400
        assert "automated shuffler" in refused.json()["counting_shuffler_approval"][0]
        assert not PokerTable.objects.filter(number=12).exists()
        created = api.post("/api/tables/", {**posted, "uses_automated_shuffler": True,
                                            "counting_shuffler_approval": f"  {APPROVAL} "}, format="json")
        assert created.status_code == 201 and created.json()["counting_shuffler_approval"] == APPROVAL
        url = f"/api/tables/{created.json()['id']}/"
        refused = api.patch(url, {"uses_automated_shuffler": False}, format="json")
        assert refused.status_code == 400 and list(refused.json()) == ["counting_shuffler_approval"]
        assert PokerTable.objects.get(number=12).uses_automated_shuffler
        assert api.patch(url, {"uses_automated_shuffler": False, "counting_shuffler_approval": ""},
                         format="json").status_code == 200
        assert PokerTable.objects.get(number=12).counting_shuffler_approval == ""

    def test_the_database_refuses_an_approval_without_a_shuffler(self, casino):
        from django.db import IntegrityError, transaction

        table = PokerTableFactory(casino=casino, number=13)
        with pytest.raises(IntegrityError), transaction.atomic():
            PokerTable.objects.filter(pk=table.pk).update(counting_shuffler_approval=APPROVAL)
        with pytest.raises(DomainError):
            update_table(table=table, counting_shuffler_approval=APPROVAL)


class TestTheForm:
    def test_the_box_is_offered_at_a_counting_shufflers_table_only(self, client, counting, plain_shuffler, dealer,
                                                                  floor):
        client.force_login(floor)
        page = client.get("/decks/").content.decode()
        assert f'id="record-deck-{counting.pk}-by_shuffler"' in page
        assert f'id="record-deck-{plain_shuffler.pk}-by_shuffler"' not in page

    @pytest.mark.proves("14.6(e)4-counting-shuffler")
    def test_14_6_e_4_the_board_records_the_shufflers_count(self, client, counting, plain_shuffler, floor):
        client.force_login(floor)
        with time_machine.travel(T0 + timedelta(minutes=10), tick=False):
            response = client.post(f"/decks/{counting.pk}/events/",
                                   {"kind": "counted", "card_count": "52", "by_shuffler": "on"})
        assert response.status_code in (200, 302)
        event = DeckEvent.objects.get(deck=counting, kind="counted")
        assert event.by_shuffler and event.by == floor
        with time_machine.travel(T0 + timedelta(minutes=11), tick=False):
            refused = client.post(f"/decks/{plain_shuffler.pk}/events/",
                                  {"kind": "counted", "card_count": "52", "by_shuffler": "on"})
        assert "not recorded as a shuffler approved to count" in refused.content.decode()
        assert not DeckEvent.objects.filter(deck=plain_shuffler, kind="counted").exists()
