"""A poker shift supervisor in real Chromium: log in, dashboard, a table, a round."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_supervisor_logs_in_and_follows_a_round(live_server, page):
    table = RakeStructureFactory(table__number=7).table
    JackpotFactory(casino=table.casino)
    StaffFactory(username="sup", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s",
                                                                 players=[
        PlayerIn(seat=1, name="Ana", contributed=Decimal("100"), hole_cards="9s 9c"),
        PlayerIn(seat=2, name="Ben", contributed=Decimal("100"), hole_cards="5s 4s")]))
    PokerTableFactory(casino=table.casino, number=8)

    page.goto(f"{live_server.url}/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "sup")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")

    page.wait_for_selector("text=Pending bad-beat claims")
    assert page.inner_text("[data-testid=open-tables]") == "2"
    assert page.inner_text("[data-testid=rounds-today]") == "1"
    assert page.inner_text("[data-testid=jackpot]") == "$1.00"

    # the table has no decks: the dashboard alerts it at once (computed on each view), and links to it
    assert "Table 7: Fewer than two decks" in page.inner_text("[data-testid=dashboard-deck-alerts]")
    page.get_by_role("link", name="Table 7", exact=True).click()
    page.wait_for_selector("[data-testid=rounds]")
    page.click(f"text=#{round_of_play.pk}")
    page.wait_for_selector("[data-testid=board]")
    assert page.inner_text("[data-testid=board]") == "9h 9d 6s 7s 8s"
    players = page.inner_text("[data-testid=players]")
    assert "Straight flush" in players and "$194.00" in players
    deductions = page.inner_text("[data-testid=deductions]")
    assert "capped at the posted maximum $5.00" in deductions and "Taken after the rake" in deductions
