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
    jackpot = table.casino.jackpots.get()
    # the tile shows the amount the room's displays show (accounting's, 14.19(k)) and accounting's record beside it
    assert page.inner_text("[data-testid=jackpot]") == "$0.00"
    assert page.inner_text(f"[data-testid=jackpot-record-{jackpot.pk}]") == "accounting's record $1.00"

    # the table has no decks: the dashboard alerts it at once (computed on each view), and links to it
    assert "Table 7: Fewer than two decks" in page.inner_text("[data-testid=dashboard-deck-alerts]")
    page.get_by_role("link", name="Table 7", exact=True).click()
    page.wait_for_selector("[data-testid=rounds]")
    page.click(f"text=#{round_of_play.pk}")
    page.wait_for_selector("[data-testid=board]")
    # each card by its rank and suit symbol, red or black, and by its name for a screen reader (issue 34, item 8)
    board = page.locator("[data-testid=board]")
    assert board.locator("[aria-hidden=true]").all_inner_texts() == ["9♥", "9♦", "6♠", "7♠", "8♠"]
    assert board.locator(".visually-hidden").first.text_content() == "9 of hearts"
    assert board.locator(".suit-h").first.evaluate("e => getComputedStyle(e).color") == "rgb(192, 24, 43)"
    assert board.locator(".suit-s").first.evaluate("e => getComputedStyle(e).color") == "rgb(29, 35, 42)"
    players = page.inner_text("[data-testid=players]")
    assert "Straight flush" in players and "$194.00" in players
    deductions = page.inner_text("[data-testid=deductions]")
    assert "capped at the posted maximum $5.00" in deductions and "Taken after the rake" in deductions


def test_supervisor_opens_a_table_runs_it_and_closes_it(live_server, page):
    """Issue 34, item 1, as the supervisor does it: from the floor map to the table's form; the opening with other
    limits and the dealer in the box; a round dealt; the closing refused until the decks are collected and the drop
    box removed for the count (N.J.A.C. 13:69F-14.2(a), 14.19(d)1); then the table is closed, on its history."""
    from apps.decks.models import Deck, DeckStatus
    from apps.decks.services import assign_deck, receive_deck

    table = RakeStructureFactory(table__number=9, table__is_open=False).table
    supervisor = StaffFactory(username="sup", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    dealer = StaffFactory(username="dee", first_name="Dee", last_name="Ray", casino=table.casino, roles=[Role.DEALER])
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "sup")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=floor-map]")
    assert page.inner_text("[data-testid=tile-state-9]") == "Closed"
    page.click("[data-testid=tile-open-close-9]")
    form = page.locator("[data-testid=open-table]")
    form.locator("[name=small_blind]").fill("2")
    form.locator("[name=big_blind]").fill("5")
    form.locator("[name=minimum_wager]").fill("5")
    form.locator("[name=dealer]").select_option(str(dealer.pk))
    form.locator("button[type=submit]").click()
    page.wait_for_selector("[data-testid=close-table]")
    table.refresh_from_db()
    assert table.is_open and str(table.big_blind) == "5.00"

    record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2c 7d 9h Js Kd", players=[
        PlayerIn(seat=1, name="Ana", contributed=Decimal("10"), hole_cards="As Ad"),
        PlayerIn(seat=2, name="Ben", contributed=Decimal("10"), hole_cards="Qs Qd")]))
    assign_deck(deck=receive_deck(casino=table.casino, serial="BLUE-1", back_colour="blue", by=supervisor),
                table=table, by=supervisor)
    page.reload()
    assert "Deck BLUE-1" in page.inner_text("[data-testid=still-at-table]")
    close = page.locator("[data-testid=close-table]")
    close.locator("[name=reason]").fill("Game broke")
    close.locator("[name=drop_box_removed]").check()
    close.locator("button[type=submit]").click()
    page.wait_for_selector("text=Collect its decks")
    page.locator("[data-testid=close-table] [name=decks_collected]").check()
    page.locator("[data-testid=close-table] [name=drop_box_removed]").check()
    page.locator("[data-testid=close-table] button[type=submit]").click()
    page.wait_for_selector("[data-testid=open-table]")
    table.refresh_from_db()
    assert not table.is_open and Deck.objects.get(serial="BLUE-1").status == DeckStatus.REMOVED
    page.goto(f"{live_server.url}/tables/{table.pk}/?tab=history")
    assert "Table 9 closed" in page.inner_text("main") and "Game broke" in page.inner_text("main")
