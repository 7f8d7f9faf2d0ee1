"""Open seats while players wait for the game (issue 34, item 3, N.J.A.C. 13:69F-14.18): the floor map's strip and
the table's tile need a person until the seat is filled (or a player called to it) or nobody waits."""
from decimal import Decimal

import pytest

from apps.casinos.selectors import current_gaming_day
from apps.decks.services import record_deck_event
from apps.floor.selectors import floor_summary
from apps.seats.models import WaitlistSource
from apps.seats.services import add_to_list, call_next, remove_from_list, seat_player, start_list, vacate
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(casino, supervisor):
    """Table 5, three seats, two taken, its decks in order."""
    table = PokerTableFactory(casino=casino, number=5, seats=3)
    red = deck_at_table(table, "R-5", "red", supervisor)
    deck_at_table(table, "B-5", "blue", supervisor)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor)
    seat_player(table=table, number=1, player="Ann", by=supervisor)
    seat_player(table=table, number=2, player="Ben", by=supervisor)
    return table


def summary_of(casino):
    return floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))


def page_of(client) -> str:
    return client.get("/").content.decode().replace("&#x27;", "'")


def test_14_18_an_open_seat_while_players_wait_needs_a_person_until_filled_or_nobody_waits(client, casino, supervisor,
                                                                                           table):
    waitlist = start_list(table=table, by=supervisor)
    entry = add_to_list(waitlist=waitlist, name="Cat", source=WaitlistSource.IN_PERSON, by=supervisor)
    summary = summary_of(casino)
    [waited] = summary.seats_waited_for
    assert (waited.table, waited.seats, waited.waitlist, waited.waiting) == (table, (3,), waitlist, 1)
    assert summary.attention_count == 1
    client.force_login(supervisor)
    page = page_of(client)
    alert = f"Table 5: seat 3 open while 1 player waits for {waitlist.game} {waitlist.limits} (14.18)"
    assert alert in page.split('data-testid="attention-seats"')[1]
    assert 'data-testid="tile-state-5">Needs a person' in page
    assert f"Seat 3 open while 1 player waits for {waitlist.game}" in page.split('data-testid="problems-5"')[1]

    dan = seat_player(table=table, number=3, player="Dan", by=supervisor)  # a walk-in fills it: the list still waits
    assert summary_of(casino).seats_waited_for == []
    page = page_of(client)
    assert 'data-testid="attention-seats"' not in page and 'data-testid="tile-state-5">In order' in page

    vacate(seat=dan, by=supervisor)
    assert [w.seats for w in summary_of(casino).seats_waited_for] == [(3,)]
    call_next(waitlist=waitlist, table=table, seat=3, by=supervisor)  # the player is on the way to it
    assert summary_of(casino).seats_waited_for == []
    entry.refresh_from_db()
    remove_from_list(entry=entry, reason="left", by=supervisor)  # nobody waits any more
    assert summary_of(casino).seats_waited_for == []
    assert 'data-testid="tile-state-5">In order' in page_of(client)


def test_nobody_to_call_is_no_alert(casino, supervisor, table):
    """A phone sign-up not yet checked in is not in the room to take the seat (it checks in at the desk first)."""
    waitlist = start_list(table=table, by=supervisor)
    add_to_list(waitlist=waitlist, name="Eve", source=WaitlistSource.PHONE, phone="609 555 0100", by=supervisor)
    assert summary_of(casino).seats_waited_for == []
    other = PokerTableFactory(casino=casino, number=6, big_blind=Decimal("10.00"), small_blind=Decimal("5.00"),
                              minimum_wager=Decimal("10.00"))
    add_to_list(waitlist=start_list(table=other, by=supervisor), name="Fay", source=WaitlistSource.IN_PERSON,
                by=supervisor)
    assert [(w.table.number, w.waiting) for w in summary_of(casino).seats_waited_for] == [(6, 1)]  # its own game's
