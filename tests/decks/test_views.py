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
