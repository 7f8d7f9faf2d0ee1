"""The rotation board page: who may read it and who may record deck events."""
import pytest

from apps.core.roles import Role
from apps.decks.models import DeckEvent
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(casino, staff):
    table = PokerTableFactory(casino=casino, number=3)
    return deck_at_table(table, "R-1", "red", staff(Role.FLOORPERSON))


def test_anonymous_goes_to_login(client):
    response = client.get("/decks/")
    assert response.status_code == 302 and "/accounts/login/" in response.url


@pytest.mark.parametrize(("role", "status"), [(Role.POKER_SHIFT_SUPERVISOR, 200), (Role.DEALER, 200),
                                              (Role.SURVEILLANCE, 200), (Role.ACCOUNTING, 403)])
def test_who_reads_the_board(client, staff, deck, role, status):
    client.force_login(staff(role))
    assert client.get("/decks/").status_code == status


def test_surveillance_reads_but_cannot_record(client, staff, deck):
    client.force_login(staff(Role.SURVEILLANCE))
    assert client.post(f"/decks/{deck.pk}/events/", {"kind": "sorted"}).status_code == 403
    assert not DeckEvent.objects.filter(kind="sorted").exists()


def field_html(page: str, element_id: str) -> str:
    """The markup of one form (by its id) in a page."""
    part = page[page.index(f'id="{element_id}"'):]
    return part[:part.index("</form>")]


def test_14_6_e_4_a_count_needs_its_cards_and_the_refusal_sits_beside_the_field(client, staff, deck):
    """A count without the number of cards is refused: the board comes back (400) with that deck's form as typed and
    the message beside its cards field, not as a banner with a raw field name; nothing is written."""
    client.force_login(staff(Role.DEALER))
    client.post(f"/decks/{deck.pk}/events/", {"kind": "put_in_use"})
    before = DeckEvent.objects.count()
    response = client.post(f"/decks/{deck.pk}/events/", {"kind": "counted"})
    assert response.status_code == 400 and DeckEvent.objects.count() == before
    form = field_html(response.content.decode(), f"record-deck-{deck.pk}")
    assert f'<ul class="errorlist" id="record-deck-{deck.pk}-card_count_error"><li>Give the number of cards counted.' \
        in form
    assert f'aria-describedby="record-deck-{deck.pk}-card_count_error"' in form and 'aria-invalid="true"' in form
    assert '<option value="counted" selected>' in form and "card_count:" not in response.content.decode()
    response = client.post(f"/decks/{deck.pk}/events/", {"kind": "counted", "card_count": "52"}, follow=True)
    assert DeckEvent.objects.filter(kind="counted", card_count=52).count() == 1
    assert "Deck R-1: Counted recorded." in response.content.decode().replace("&#x27;", "'")


def test_a_cards_count_out_of_range_is_refused_beside_the_field(client, staff, deck):
    client.force_login(staff(Role.DEALER))
    response = client.post(f"/decks/{deck.pk}/events/", {"kind": "counted", "card_count": "999"})
    form = field_html(response.content.decode(), f"record-deck-{deck.pk}")
    assert response.status_code == 400 and "Ensure this value is less than or equal to 60." in form
    assert 'value="999"' in form  # as typed


def test_14_2_a_receiving_a_known_serial_is_refused_beside_the_serial(client, staff, deck):
    client.force_login(staff(Role.FLOORPERSON))
    response = client.post("/decks/receive/", {"serial": "R-1", "back_colour": "blue"})
    page = response.content.decode()
    form = page[page.index('data-testid="receive-deck"'):]
    form = form[:form.index("</form>")]
    assert response.status_code == 400 and 'id="receive-serial_error"' in form and "Deck R-1 is already recorded." in form
    assert 'value="blue"' in form and 'data-testid="form-errors"' in form  # as typed, and the summary on top


def test_14_2_a_assigning_needs_a_stored_deck_and_an_open_table(client, staff, deck, casino):
    from apps.decks.services import receive_deck

    floor = staff(Role.FLOORPERSON)
    stored = receive_deck(casino=casino, serial="B-9", back_colour="red", by=floor)
    client.force_login(floor)
    response = client.post("/decks/assign/", {"deck": deck.pk, "table": deck.table_id})  # R-1 is at a table
    page = response.content.decode()
    assert response.status_code == 400 and 'id="assign-deck_error"' in page and "Choose a deck in storage." in page
    # same colour as R-1 at table 3: the service's refusal (14.2(a)) comes back beside the deck
    response = client.post("/decks/assign/", {"deck": stored.pk, "table": deck.table_id})
    page = response.content.decode()
    assert response.status_code == 400 and "visually distinguishable" in page and 'id="assign-deck_error"' in page


@pytest.mark.proves("14.2(b)-three-hours")
def test_14_2_b_alerts_are_computed_on_each_view_and_clear_at_once(client, casino, staff, supervisor):
    """No scheduled job runs here (DeckAlert rows are never refreshed): the board and the dashboard compute the
    clock alerts from the decks as they are. A deck in use for 3 hours 5 minutes without being placed into suit and
    sequence is alerted (14.2(b)); recorded as placed into suit and sequence, its alert is gone at the next view."""
    from datetime import timedelta

    from django.utils import timezone

    from apps.decks.models import DeckAlert
    from apps.decks.services import record_deck_event

    table = PokerTableFactory(casino=casino, number=4)
    opened_at = timezone.now() - timedelta(hours=3, minutes=5)
    red = deck_at_table(table, "R-4", "red", supervisor, at=opened_at)
    deck_at_table(table, "B-4", "blue", supervisor, at=opened_at)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor, at=opened_at)
    record_deck_event(deck=red, kind="counted", card_count=52, by=supervisor)
    client.force_login(supervisor)
    sort_alert = "Table 4, deck R-4: Not placed into suit and sequence for 3 hours"
    assert sort_alert in client.get("/decks/").content.decode()
    assert sort_alert in client.get("/").content.decode()
    record_deck_event(deck=red, kind="sorted", by=supervisor)
    assert sort_alert not in client.get("/decks/").content.decode()
    assert sort_alert not in client.get("/").content.decode()
    assert not DeckAlert.objects.exists()  # nothing of this came from stored alerts
