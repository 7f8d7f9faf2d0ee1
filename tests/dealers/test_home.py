"""The dealer's home (apps.dealers.home): the table the dealer deals at now, that table's decks with their clocks and
alerts as the rotation board computes them, and the forms to record a deck event and report an irregularity, which come
back to it (N.J.A.C. 13:69F-14.2, 14.6(e)4, 14.15). Dealers only."""
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.dealers.models import DealerDown
from apps.decks.models import DeckEvent
from apps.decks.services import record_deck_event
from apps.irregularities.models import Irregularity
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shift(casino, staff):
    """Dealer Ann deals at table 3 now (since 10 minutes, for 20 more), then takes a break, then deals at table 4;
    table 3 has deck R-1 in use for 4 hours, never sorted (its 3-hour clock overdue), and deck B-2 resting; table 4
    has a deck at it too. Bob deals at table 4 now."""
    supervisor, floor = staff(Role.POKER_SHIFT_SUPERVISOR), staff(Role.FLOORPERSON)
    ann, bob = staff(Role.DEALER, first_name="Ann"), staff(Role.DEALER, first_name="Bob")
    three, four = PokerTableFactory(casino=casino, number=3), PokerTableFactory(casino=casino, number=4)
    now = timezone.now()
    opened = now - timedelta(hours=4)
    red = deck_at_table(three, "R-1", "red", floor, at=opened)
    deck_at_table(three, "B-2", "blue", floor, at=opened)
    deck_at_table(four, "G-3", "green", floor, at=opened)
    record_deck_event(deck=red, kind="put_in_use", by=floor, at=opened)
    start = now - timedelta(minutes=10)
    for dealer, table, begins in ((ann, three, start), (ann, None, start + timedelta(minutes=30)),
                                  (ann, four, start + timedelta(minutes=60)), (bob, four, start)):
        DealerDown.objects.create(casino=casino, dealer=dealer, table=table, starts_at=begins,
                                  ends_at=begins + timedelta(minutes=30), planned_by=supervisor)
    return {"ann": ann, "bob": bob, "three": three, "four": four, "red": red}


def test_the_dealer_sees_the_table_dealt_now_and_its_decks_due_state(client, shift):
    client.force_login(shift["ann"])
    response = client.get("/dealers/home/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Dealing at table 3" in page and "Next: " in page and "break" in page and "table 4" in page
    decks = page[page.index('data-testid="my-decks"'):]
    assert 'data-testid="deck-R-1"' in decks and 'data-testid="deck-B-2"' in decks
    assert 'data-testid="deck-G-3"' not in decks  # another table's
    red = decks[decks.index('data-testid="deck-R-1"'):decks.index('data-testid="deck-B-2"')]
    assert "4:00 · Overdue" in red  # not placed into suit and sequence for 4 hours (14.2(b)): from the board's clock
    assert 'data-testid="my-table-state">Overdue' in page
    alerts = page[page.index('data-testid="my-alerts"'):page.index('data-testid="my-decks"')]
    assert "Deck R-1: Not placed into suit and sequence for 3 hours (14.2(b))" in alerts
    assert "Deck R-1: Not counted for 15 minutes" in alerts and "G-3" not in alerts  # this table's only
    report = page[page.index('data-testid="report-irregularity"'):]
    assert f'name="table" value="{shift["three"].pk}"' in report and 'name="next" value="/dealers/home/"' in report


def test_the_forms_record_and_come_back_home(client, shift):
    client.force_login(shift["ann"])
    red = shift["red"]
    response = client.post(f"/dealers/home/decks/{red.pk}/events/", {"kind": "counted", "card_count": "52"})
    assert response.status_code == 302 and response.url == "/dealers/home/"
    assert DeckEvent.objects.filter(deck=red, kind="counted", by=shift["ann"]).exists()
    response = client.post("/irregularities/", {"table": shift["three"].pk, "kind": "misdeal", "deck": "R-1",
                                                "description": "Two cards exposed", "next": "/dealers/home/"})
    assert response.status_code == 302 and response.url == "/dealers/home/"
    assert Irregularity.objects.get().reported_by == shift["ann"]
    page = client.get("/dealers/home/").content.decode()
    assert "Two cards exposed" in page[page.index('data-testid="my-irregularities"'):]
    # another site, or a page of no site, is never where a form sends the dealer
    response = client.post("/irregularities/", {"table": shift["three"].pk, "kind": "misdeal", "deck": "R-1",
                                                "description": "Again", "next": "https://elsewhere.example/"})
    assert response.url == "/irregularities/"


def test_14_6_e_4_a_refused_deck_event_comes_back_home_beside_its_field(client, shift):
    """A count without the number of cards (14.6(e)4) is refused: the home comes back (400) with that deck's form as
    typed and the service's message beside the cards field (aria-invalid, aria-describedby), nothing written."""
    client.force_login(shift["ann"])
    red = shift["red"]
    before = DeckEvent.objects.count()
    response = client.post(f"/dealers/home/decks/{red.pk}/events/", {"kind": "counted", "card_count": ""})
    page = response.content.decode()
    assert response.status_code == 400 and DeckEvent.objects.count() == before
    form = page[page.index(f'id="my-deck-{red.pk}"'):]
    form = form[:form.index("</form>")]
    assert f'id="my-deck-{red.pk}-card_count_error"' in form and "Give the number of cards counted." in form
    assert 'aria-invalid="true"' in form and f'aria-describedby="my-deck-{red.pk}-card_count_error"' in form
    assert '<option value="counted" selected>' in form  # as typed
    assert 'data-testid="my-decks"' in page and "<html" in page  # the whole home, with its navigation


def test_a_dealer_records_only_decks_at_the_table_dealt_now(client, shift):
    """Deck G-3 is at table 4, where Bob deals now: Ann's home does not take its events (404), nothing written."""
    client.force_login(shift["ann"])
    green = shift["four"].decks.get()
    before = DeckEvent.objects.count()
    assert client.post(f"/dealers/home/decks/{green.pk}/events/", {"kind": "counted", "card_count": "52"}
                       ).status_code == 404
    assert DeckEvent.objects.count() == before


def test_a_poll_gets_the_decks_only_and_says_when(client, shift):
    client.force_login(shift["ann"])
    response = client.get("/dealers/home/", headers={"HX-Request": "true"})
    page = response.content.decode()
    assert response.status_code == 200 and 'data-testid="decks-updated"' in page and "<html" not in page
    assert 'data-testid="deck-R-1"' in page and 'data-testid="report-irregularity"' not in page
    assert 'hx-preserve="true"' in page


def test_a_dealer_on_break_or_not_planned_is_told_so(client, shift, staff):
    client.force_login(shift["ann"])
    later = timezone.now() + timedelta(minutes=25)
    down = DealerDown.objects.get(dealer=shift["ann"], table=None)
    DealerDown.objects.filter(pk=down.pk).update(starts_at=later - timedelta(minutes=30), ends_at=later)
    DealerDown.objects.filter(dealer=shift["ann"], table=shift["three"]).delete()
    page = client.get("/dealers/home/").content.decode()
    assert "On break" in page and 'data-testid="my-decks"' not in page
    client.force_login(staff(Role.DEALER))
    page = client.get("/dealers/home/").content.decode()
    assert "No down of yours is planned for now" in page
    assert 'id="report-table"' in page and f'value="{shift["three"].pk}"' in page  # names a table itself


def test_the_dealer_sees_the_next_break_from_when_to_when(client, shift, casino):
    """Ann's break follows her down at table 3: the home says from when to when; two break downs in a row are one
    break, and a break further ahead than the downs listed is found too."""
    client.force_login(shift["ann"])
    brk = DealerDown.objects.get(dealer=shift["ann"], table=None)

    def hm(moment):
        return timezone.localtime(moment, casino.zone).strftime("%H:%M")

    page = client.get("/dealers/home/").content.decode()
    shown = page[page.index('data-testid="next-break"'):]
    assert f"Next break</strong> {hm(brk.starts_at)}–{hm(brk.ends_at)}." in shown[:shown.index("</p>")]
    # the table-4 down becomes a break too: one break of an hour
    DealerDown.objects.filter(dealer=shift["ann"], table=shift["four"]).update(table=None)
    page = client.get("/dealers/home/").content.decode()
    assert f"{hm(brk.starts_at)}–{hm(brk.ends_at + timedelta(minutes=30))}." in page
    # no break in the next four hours, one in six: still the next break
    DealerDown.objects.filter(dealer=shift["ann"], table=None).update(table=shift["four"])
    later = brk.starts_at + timedelta(hours=6)
    DealerDown.objects.create(casino=casino, dealer=shift["ann"], starts_at=later, ends_at=later + timedelta(minutes=30),
                              planned_by=brk.planned_by)
    page = client.get("/dealers/home/").content.decode()
    assert f"Next break</strong> {hm(later)}–{hm(later + timedelta(minutes=30))}." in page
    DealerDown.objects.filter(dealer=shift["ann"], table=None).delete()
    assert 'data-testid="next-break"' not in client.get("/dealers/home/").content.decode()


@pytest.mark.parametrize("role", sorted(set(Role) - {Role.DEALER}), ids=str)
def test_only_dealers_have_a_dealers_home(client, staff, role):
    client.force_login(staff(role))
    assert client.get("/dealers/home/").status_code == 403


def test_the_dealer_lands_on_it(client, shift):
    client.force_login(shift["ann"])
    assert client.get("/home/").url == "/dealers/home/"
    client.logout()
    assert client.get("/dealers/home/").status_code == 302  # to sign in
