"""A deck's event form is shown only to a role that may submit it, offering the events that role may record of the
deck as it stands (issue 34, item 4; services.recordable_events, templatetags.decks.deck_event_form): who records
which event is 14.2(b), 14.4(b), 14.6(e)4 (services.EVENT_ROLES). Surveillance only reads (no form); security may
record one event, a removed deck destroyed, which no deck at a table can be (no form on the board, where every deck
is at a table, rather than forms that all end in a 400)."""
import re
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.core.roles import Role
from apps.dealers.models import DealerDown
from apps.decks.models import DeckEventKind, DeckStatus
from apps.decks.services import EVENT_ROLES, record_deck_event, recordable_events
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db
K = DeckEventKind
FLOOR_EVENTS = [K.INSPECTED, K.VERIFIED, K.SPREAD, K.PUT_IN_USE, K.ROTATED_OUT, K.SORTED, K.COUNTED, K.CHANGED,
                K.REMOVED]
#: 14.4(b): the dealer inspects; 14.2(b): the dealer places into suit and sequence; 14.6(e)4: the dealer counts.
DEALER_EVENTS = [K.INSPECTED, K.SPREAD, K.PUT_IN_USE, K.ROTATED_OUT, K.SORTED, K.COUNTED]
OFFERED_AT_A_TABLE = {Role.POKER_SHIFT_SUPERVISOR: FLOOR_EVENTS, Role.FLOORPERSON: FLOOR_EVENTS,
                      Role.ADMIN: FLOOR_EVENTS, Role.DEALER: DEALER_EVENTS, Role.SECURITY: [], Role.SURVEILLANCE: []}
OPTION = re.compile(r'<option value="([a-z_]+)"')


@pytest.fixture
def deck(casino, staff):
    table = PokerTableFactory(casino=casino, number=3)
    return deck_at_table(table, "R-1", "red", staff(Role.FLOORPERSON))


def offered(page: str, deck) -> list[str] | None:
    """The events the deck's form on the page offers; None when the page shows no form for it."""
    found = re.search(rf'<form [^>]*data-testid="record-{deck.serial}">(.*?)</form>', page, re.S)
    return OPTION.findall(found.group(1)) if found else None


@pytest.mark.parametrize("role", list(OFFERED_AT_A_TABLE), ids=str)
def test_the_board_offers_each_role_the_events_it_records(client, staff, deck, role):
    user = staff(role)
    assert recordable_events(deck=deck, by=user) == OFFERED_AT_A_TABLE[role]
    client.force_login(user)
    page = client.get("/decks/").content.decode()
    assert 'data-testid="deck-R-1"' in page  # the deck's row is on the board
    expected = [kind.value for kind in OFFERED_AT_A_TABLE[role]] or None
    assert offered(page, deck) == expected
    if expected is None:
        assert "/decks/" + str(deck.pk) + "/events/" not in page


@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.DEALER])
def test_14_2_14_4_every_event_offered_is_one_the_role_may_record(client, staff, deck, role):
    """Each event the board offers, submitted as offered, is never refused for the role (a 403, or the service's
    "... is recorded by" refusal); an event out of its order may still be refused for the deck's state (14.4(b): the
    dealer inspects before the floorperson verifies)."""
    client.force_login(staff(role))
    for kind in offered(client.get("/decks/").content.decode(), deck):
        with transaction.atomic():
            response = client.post(f"/decks/{deck.pk}/events/", {"kind": kind, "card_count": "52"})
            transaction.set_rollback(True)
        text = response.content.decode()
        assert response.status_code in (302, 400) and "is recorded by" not in text, (role, kind, response.status_code)
        if response.status_code == 400:
            assert kind == K.VERIFIED and "inspects the deck before" in text.replace("&#x27;", "'")


def test_security_destroys_a_removed_deck_only(staff, deck, casino):
    guard, floor = staff(Role.SECURITY), staff(Role.FLOORPERSON)
    assert recordable_events(deck=deck, by=guard) == []
    record_deck_event(deck=deck, kind=K.REMOVED, by=floor)
    deck.refresh_from_db()
    assert deck.status == DeckStatus.REMOVED
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR)
    assert recordable_events(deck=deck, by=guard) == [K.DESTROYED] == recordable_events(deck=deck, by=supervisor)
    assert recordable_events(deck=deck, by=floor) == [] == recordable_events(deck=deck, by=staff(Role.DEALER))
    record_deck_event(deck=deck, kind=K.DESTROYED, by=guard)
    deck.refresh_from_db()
    assert recordable_events(deck=deck, by=supervisor) == []  # destroyed: nothing more


def test_the_events_offered_are_those_the_service_takes():
    """recordable_events reads EVENT_ROLES, the service's own table: an event that table gives a role is offered to
    it (at a table, but destroyed)."""
    for role, kinds in OFFERED_AT_A_TABLE.items():
        assert set(kinds) == {k for k, roles in EVENT_ROLES.items() if role in roles and k != K.DESTROYED}, role


def test_the_dealers_home_offers_the_dealers_events(client, staff, deck):
    dealer = staff(Role.DEALER)
    DealerDown.objects.create(casino=deck.casino, dealer=dealer, table=deck.table,
                              starts_at=timezone.now() - timedelta(minutes=5),
                              ends_at=timezone.now() + timedelta(minutes=25), planned_by=staff(Role.ADMIN))
    client.force_login(dealer)
    page = client.get("/dealers/home/").content.decode()
    assert offered(page, deck) == [kind.value for kind in DEALER_EVENTS]
