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


def test_dealer_records_a_count_and_a_bad_form_is_a_message(client, staff, deck):
    client.force_login(staff(Role.DEALER))
    client.post(f"/decks/{deck.pk}/events/", {"kind": "put_in_use"})
    response = client.post(f"/decks/{deck.pk}/events/", {"kind": "counted"}, follow=True)
    assert b"Give the number of cards counted." in response.content
    client.post(f"/decks/{deck.pk}/events/", {"kind": "counted", "card_count": "52"})
    assert DeckEvent.objects.filter(kind="counted", card_count=52).count() == 1


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
