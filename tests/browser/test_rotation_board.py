"""A supervisor sees an overdue deck on the rotation board, in real Chromium."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.decks.models import Deck
from apps.decks.services import record_deck_event, refresh_deck_alerts
from tests.decks.factories import deck_at_table
from tests.factories import PokerTableFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rotation_board_shows_an_overdue_deck(live_server, page):
    table = PokerTableFactory(number=6)
    supervisor = StaffFactory(username="sup6", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    opened_at = timezone.now() - timedelta(hours=3, minutes=5)
    red = deck_at_table(table, "R-77", "red", supervisor, at=opened_at)
    deck_at_table(table, "B-77", "blue", supervisor, at=opened_at)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor, at=opened_at)
    record_deck_event(deck=red, kind="counted", card_count=52, by=supervisor)
    refresh_deck_alerts(casino=table.casino)
    assert Deck.objects.get(serial="R-77").in_use

    page.goto(f"{live_server.url}/accounts/login/?next=/decks/")
    page.fill("#id_username", "sup6")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=table-6]")
    assert page.inner_text("[data-testid=state-6]") == "Overdue"
    row = page.inner_text("[data-testid=deck-R-77]")
    assert re.search(r"\b3:0[5-7]\b", row), row
    assert "suit and sequence for 3 hours" in page.inner_text("[data-testid=deck-alerts]")

    page.goto(f"{live_server.url}/")
    assert "Not placed into suit and sequence" in page.inner_text("[data-testid=dashboard-deck-alerts]")


def test_a_half_typed_deck_form_survives_the_boards_refresh(live_server, page):
    """The board refreshes itself every 30 s (htmx); the event form a supervisor is filling in keeps what they typed
    and chose, while the board around it is read anew (issue 15, item 3)."""
    table = PokerTableFactory(number=7)
    supervisor = StaffFactory(username="sup7", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    deck_at_table(table, "G-70", "green", supervisor)

    page.clock.install()  # the page's timers run when the test says
    page.goto(f"{live_server.url}/accounts/login/?next=/decks/")
    page.fill("#id_username", "sup7")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=record-G-70]")
    assert page.inner_text("[data-testid=board-updated]").startswith("Updated at ")
    form = page.locator("[data-testid=record-G-70]")
    form.locator("select[name=kind]").select_option("counted")
    form.locator("input[name=card_count]").fill("5")  # half typed: 52 was meant
    deck_at_table(table, "R-71", "red", supervisor)  # news for the board
    assert page.locator("[data-testid=deck-R-71]").count() == 0
    page.clock.run_for(31_000)  # the 30-second refresh
    page.wait_for_selector("[data-testid=deck-R-71]")  # the board was read anew
    form = page.locator("[data-testid=record-G-70]")
    assert form.locator("input[name=card_count]").input_value() == "5"
    assert form.locator("select[name=kind]").input_value() == "counted"
