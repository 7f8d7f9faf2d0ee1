"""Deck alerts that need a person (issue 34, item 3), on the rotation board and the floor map, each cleared when its
cause is gone: players at an open table and no deck in use (14.4(c), 14.2(a)); a count of the wrong number of cards,
which asks to confirm, pulls the deck (14.6(e)4) and is alerted until a replacement deck is in use there."""
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.dealers.models import DealerDown
from apps.decks.models import AlertKind, DeckAlert, DeckEvent, DeckStatus
from apps.decks.selectors import current_alerts
from apps.decks.services import record_deck_event, refresh_deck_alerts
from apps.seats.services import seat_player
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory

pytestmark = pytest.mark.django_db

NO_DECK = "Table 3: Players at the table and no deck in use (14.4(c), 14.2(a))"
WRONG_COUNT = ("Table 3, deck R-3: A count found the wrong number of cards: deck pulled, a replacement to put in use "
               "(14.6(e)4)")


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino, number=3)


def strip(page: str) -> str:
    """The floor map's "Needs a person now" strip."""
    return page.split('data-testid="needs-attention"')[1].split("</section>")[0]


def event_form(page: str, element_id: str) -> str:
    part = page[page.index(f'id="{element_id}"'):]
    return part[:part.index("</form>")]


def text(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


def test_14_4_c_seven_players_and_no_deck_in_use_need_a_person_until_a_deck_is_put_in_use(client, table, supervisor):
    """With no player at the table its decks lie spread (14.5(d)): in order. Seven players seated and no deck in use:
    the tile needs a person, the strip and the rotation board say why; a deck put in use clears it at once."""
    red = deck_at_table(table, "R-3", "red", supervisor)
    deck_at_table(table, "B-3", "blue", supervisor)
    client.force_login(supervisor)
    assert 'data-testid="tile-state-3">In order' in text(client.get("/"))
    for number in range(1, 8):
        seat_player(table=table, number=number, player=f"P{number}", by=supervisor)

    floor = text(client.get("/"))
    assert 'data-testid="seats-3"' in floor and "7 of 9" in floor
    assert 'data-testid="tile-state-3">Needs a person' in floor
    assert NO_DECK in strip(floor)
    assert "Players at the table and no deck in use (14.4(c), 14.2(a))" in floor.split('data-testid="problems-3"')[1]
    board = text(client.get("/decks/"))
    assert NO_DECK in board.split('data-testid="deck-alerts"')[1].split("</section>")[0]
    assert "7 players at the table and no deck in use: put one in use (14.4(c))." in board
    assert 'data-testid="state-3">Overdue' in board

    record_deck_event(deck=red, kind="put_in_use", by=supervisor)
    floor, board = text(client.get("/")), text(client.get("/decks/"))
    assert 'data-testid="tile-state-3">In order' in floor and "no deck in use" not in floor
    assert "no deck in use" not in board and 'data-testid="state-3">OK' in board


def test_14_2_d_3_a_shuffler_table_alternates_its_decks_and_has_none_in_use(casino, supervisor):
    """An automated shuffler's decks alternate round by round (14.2(d)3, their own alert): no deck in use is no
    alert there."""
    table = PokerTableFactory(casino=casino, number=8, uses_automated_shuffler=True)
    deck_at_table(table, "R-8", "red", supervisor)
    deck_at_table(table, "B-8", "blue", supervisor)
    for number in (1, 2, 3):
        seat_player(table=table, number=number, player=f"P{number}", by=supervisor)
    assert current_alerts(casino=casino, now=timezone.now()) == []


def test_the_scheduled_job_keeps_the_no_deck_in_use_row_in_step(table, supervisor):
    red = deck_at_table(table, "R-3", "red", supervisor)
    deck_at_table(table, "B-3", "blue", supervisor)
    seat_player(table=table, number=1, player="Ann", by=supervisor)
    seat_player(table=table, number=2, player="Ben", by=supervisor)
    assert refresh_deck_alerts(casino=table.casino) == (1, 0)
    assert DeckAlert.objects.get(cleared_at=None).kind == AlertKind.NO_DECK_IN_USE
    record_deck_event(deck=red, kind="put_in_use", by=supervisor)
    assert refresh_deck_alerts(casino=table.casino) == (0, 1)


class TestWrongCount:
    @pytest.fixture
    def red(self, table, supervisor):
        red = deck_at_table(table, "R-3", "red", supervisor)
        deck_at_table(table, "B-3", "blue", supervisor)
        record_deck_event(deck=red, kind="put_in_use", by=supervisor)
        return red

    @pytest.mark.proves("14.6(e)4-wrong-count", "14.15(g)-deck-replaced")
    def test_14_6_e_4_asks_to_confirm_then_pulls_the_deck_with_a_warning_until_a_replacement_is_in_use(
            self, client, staff, supervisor, table, red):
        client.force_login(staff(Role.DEALER))
        url = f"/decks/{red.pk}/events/"
        response = client.post(url, {"kind": "counted", "card_count": "51"})
        form = event_form(text(response), f"record-deck-{red.pk}")
        assert response.status_code == 200
        assert "51 cards counted, a deck has 52: the deck will be pulled from play — confirm" in form
        assert 'name="confirm_count" value="51"' in form and "Confirm: pull deck R-3" in form
        assert 'value="51"' in form and '<option value="counted" selected>' in form  # as typed
        red.refresh_from_db()
        assert red.status == DeckStatus.AT_TABLE and not DeckEvent.objects.filter(kind="counted").exists()

        response = client.post(url, {"kind": "counted", "card_count": "50", "confirm_count": "51"})  # another number
        assert response.status_code == 200 and "50 cards counted, a deck has 52: the deck will be pulled from play" \
            in event_form(text(response), f"record-deck-{red.pk}")
        assert not DeckEvent.objects.filter(kind="counted").exists()

        page = text(client.post(url, {"kind": "counted", "card_count": "51", "confirm_count": "51"}, follow=True))
        assert ('<li class="warning">Deck R-3: 51 cards counted, a deck has 52. The deck was pulled from play from '
                "table 3 (14.6(e)4): put a replacement deck in use.</li>") in page
        assert "Counted recorded" not in page and 'class="success"' not in page
        red.refresh_from_db()
        assert red.status == DeckStatus.REMOVED and red.table is None  # removed from the table, 14.6(e)4
        assert WRONG_COUNT in page.split('data-testid="deck-alerts"')[1]
        client.force_login(supervisor)
        assert WRONG_COUNT in strip(text(client.get("/")))

        green = deck_at_table(table, "G-3", "green", supervisor)  # brought to the table, not yet in use
        assert WRONG_COUNT in text(client.get("/decks/")) and WRONG_COUNT in strip(text(client.get("/")))
        page = text(client.post(f"/decks/{green.pk}/events/", {"kind": "put_in_use"}, follow=True))
        assert '<li class="success">Deck G-3: Put in use recorded.</li>' in page and WRONG_COUNT not in page
        assert WRONG_COUNT not in text(client.get("/"))
        assert DeckAlert.objects.get(kind=AlertKind.WRONG_COUNT).cleared_at is not None
        assert refresh_deck_alerts(casino=table.casino) == (0, 0)  # the job does not raise it again

    def test_a_full_deck_counted_is_a_plain_success(self, client, staff, red):
        client.force_login(staff(Role.DEALER))
        page = text(client.post(f"/decks/{red.pk}/events/", {"kind": "counted", "card_count": "52"}, follow=True))
        assert '<li class="success">Deck R-3: Counted recorded.</li>' in page and "pulled" not in page

    @pytest.mark.proves("14.6(e)4-wrong-count")
    def test_14_6_e_4_the_dealers_home_asks_the_same(self, client, staff, supervisor, table, red):
        dealer = staff(Role.DEALER)
        now = timezone.now()
        DealerDown.objects.create(casino=table.casino, dealer=dealer, table=table, starts_at=now - timedelta(minutes=5),
                                  ends_at=now + timedelta(minutes=25), planned_by=supervisor)
        client.force_login(dealer)
        url = f"/dealers/home/decks/{red.pk}/events/"
        response = client.post(url, {"kind": "counted", "card_count": "53"})
        assert response.status_code == 200
        assert "53 cards counted, a deck has 52: the deck will be pulled from play — confirm" in text(response)
        page = text(client.post(url, {"kind": "counted", "card_count": "53", "confirm_count": "53"}, follow=True))
        assert '<li class="warning">Deck R-3: 53 cards counted, a deck has 52. The deck was pulled' in page
        red.refresh_from_db()
        assert red.status == DeckStatus.REMOVED

    def test_a_closed_tables_wrong_count_is_cleared(self, table, supervisor, red):
        from apps.tables.models import PokerTable

        record_deck_event(deck=red, kind="counted", card_count=51, by=supervisor)
        PokerTable.objects.filter(pk=table.pk).update(is_open=False)  # closed: nobody plays there
        assert current_alerts(casino=table.casino, now=timezone.now()) == []
        refresh_deck_alerts(casino=table.casino)
        assert DeckAlert.objects.get(kind=AlertKind.WRONG_COUNT).cleared_at is not None
