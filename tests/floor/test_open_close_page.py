"""The table page's Open / Close form and the floor map's link to it (issue 34, item 1): for the poker shift supervisor
and floorpersons only; the opening and closing land on the table's history tab."""
import pytest

from apps.core.roles import Role
from apps.decks.services import assign_deck, receive_deck
from apps.tables.models import TableStatusChange
from tests.factories import PokerTableFactory
from tests.support.history import history_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed(casino):
    return PokerTableFactory(casino=casino, number=5, is_open=False)


@pytest.mark.parametrize(("role", "shown"), [
    (Role.POKER_SHIFT_SUPERVISOR, True), (Role.FLOORPERSON, True), (Role.SURVEILLANCE, False),
    (Role.ACCOUNTING, False), (Role.SECURITY, False), (Role.DEALER, False), (Role.ADMIN, False)])
def test_the_form_is_shown_to_who_may_submit_it(client, staff, closed, role, shown):
    client.force_login(staff(role))
    page = client.get(f"/tables/{closed.pk}/").content.decode()
    assert ('data-testid="open-table"' in page) is shown
    if shown:
        assert 'name="csrfmiddlewaretoken"' in page
    if role != Role.DEALER:  # the floor map is not a dealer's page
        floor_map = client.get("/").content.decode()
        assert ('data-testid="tile-open-close-5"' in floor_map) is shown


@pytest.mark.parametrize("role", [Role.SURVEILLANCE, Role.DEALER, Role.ADMIN])
def test_others_may_not_post_it(client, staff, closed, role):
    client.force_login(staff(role))
    assert client.post(f"/tables/{closed.pk}/", {"action": "open"}).status_code == 403
    assert not TableStatusChange.objects.exists()


def test_open_then_close_from_the_page_lands_on_the_history(client, staff, closed):
    """N.J.A.C. 13:69F-14.2(a) (decks collected), 14.19(d)1 (drop box removed for the count): the closing asks for
    both, and lists the decks still at the table."""
    floor = staff(Role.FLOORPERSON, first_name="Flo", last_name="Reyes")
    client.force_login(floor)
    response = client.post(f"/tables/{closed.pk}/", {"action": "open", "seats": "8"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.is_open and closed.seats == 8
    assert 'data-testid="close-table"' in client.get(f"/tables/{closed.pk}/").content.decode()

    assign_deck(deck=receive_deck(casino=closed.casino, serial="R1", back_colour="red", by=floor), table=closed,
                by=floor)
    refused = client.post(f"/tables/{closed.pk}/", {"action": "close", "reason": "Game broke",
                                                    "drop_box_removed": "on"})
    assert refused.status_code == 400 and "Still at table 5: deck R1" in refused.content.decode()
    refused = client.post(f"/tables/{closed.pk}/", {"action": "close", "reason": "Game broke"})
    assert refused.status_code == 400
    closed.refresh_from_db()
    assert closed.is_open
    done = client.post(f"/tables/{closed.pk}/", {"action": "close", "reason": "Game broke",
                                                 "drop_box_removed": "on", "decks_collected": "on"})
    assert done.status_code == 302
    closed.refresh_from_db()
    assert not closed.is_open
    rows = history_rows(client.get(f"/tables/{closed.pk}/?tab=history"))
    records = [(who, record) for who, record, _, _ in rows]
    assert ("Flo Reyes", "Table 5 closed") in records and ("Flo Reyes", "Table 5 opened") in records
    closing = next(r for r in rows if r[1] == "Table 5 closed")[3]
    assert "Reason: Game broke" in closing and "Decks collected: deck R1" in closing


def test_open_with_other_limits_then_close_with_its_players_and_decks_listed(client, staff, closed):
    """N.J.A.C. 13:69F-14.17 (the limits it opens with), 14.2(a) (decks collected): the opening form starts at the
    posted game and limits and takes others; the closing form lists what is still at the table before it is
    confirmed, and after the closing the decks and the players are gone from it."""
    from apps.decks.models import Deck, DeckStatus
    from apps.seats.models import Seat
    from apps.seats.services import seat_player

    floor = staff(Role.FLOORPERSON)
    client.force_login(floor)
    form = client.get(f"/tables/{closed.pk}/").content.decode()
    assert 'name="small_blind"' in form and 'name="minimum_wager"' in form
    response = client.post(f"/tables/{closed.pk}/", {"action": "open", "small_blind": "5", "big_blind": "10",
                                                     "minimum_wager": "10"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.is_open and str(closed.big_blind) == "10.00"
    assert "$5/$10" in TableStatusChange.objects.get(kind="opened").limits.replace(".00", "")

    assign_deck(deck=receive_deck(casino=closed.casino, serial="S1", back_colour="blue", by=floor), table=closed,
                by=floor)
    seat_player(table=closed, number=4, player="Dee", by=floor)
    page = client.get(f"/tables/{closed.pk}/").content.decode()
    assert "Deck S1" in page and "Seat 4" in page and 'name="players_unseated"' in page
    done = client.post(f"/tables/{closed.pk}/", {"action": "close", "reason": "Broke", "drop_box_removed": "on",
                                                 "decks_collected": "on", "players_unseated": "on"})
    assert done.status_code == 302
    assert Deck.objects.get(serial="S1").status == DeckStatus.REMOVED
    assert not Seat.objects.filter(table=closed).exists()
    page = client.get(f"/tables/{closed.pk}/").content.decode()
    assert 'data-testid="open-table"' in page
