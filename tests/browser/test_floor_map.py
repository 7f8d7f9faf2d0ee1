"""The floor map and the charts in real Chromium (issue 15): the dashboard shows every table as a tile with its
deck clocks and what needs a person now; the revenue page's charts are drawn (the canvas is not blank) by the
vendored Chart.js from static files, with no console error and no Content-Security-Policy violation."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.decks.services import record_deck_event
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.decks.factories import deck_at_table
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Records what the browser blocks under the policy (added by DevTools, so the policy does not apply to it).
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""
# Whether a canvas has a painted pixel: Chart.js drew into it.
PAINTED = """(selector) => {
  const canvas = document.querySelector(selector);
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] !== 0) { return true; } }
  return false;
}"""


def test_the_floor_map_and_a_drawn_chart(live_server, browser):
    table = RakeStructureFactory(table__number=3).table
    casino = table.casino
    JackpotFactory(casino=casino)
    PokerTableFactory(casino=casino, number=4, is_open=False)
    StaffFactory(username="sup", casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    supervisor = StaffFactory(username="floor", casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    opened = timezone.now() - timedelta(hours=3, minutes=5)
    red = deck_at_table(table, "R-3", "red", supervisor, at=opened)
    deck_at_table(table, "B-3", "blue", supervisor, at=opened)
    record_deck_event(deck=red, kind="put_in_use", by=supervisor, at=opened)
    record_deck_event(deck=red, kind="counted", card_count=52, by=supervisor)
    for _ in range(3):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h", players=[
            PlayerIn(seat=1, contributed=Decimal("40"), hole_cards="As Ks"),
            PlayerIn(seat=2, contributed=Decimal("40"), hole_cards="2c 7d"),
            PlayerIn(seat=5, contributed=Decimal("0"), folded=True)]))

    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(15000)
    problems = []
    page.on("console", lambda m: problems.append(f"console: {m.text} ({m.location.get('url')})")
            if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico") else None)  # no icon
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    try:
        page.goto(f"{live_server.url}/accounts/login/?next=/")
        page.fill("#id_username", "sup")
        page.fill("#id_password", "pw-for-tests-1")
        page.click("button[type=submit]")
        page.wait_for_selector("[data-testid=floor-map]")
        assert page.inner_text("[data-testid=floor-updated]").startswith("Updated at ")
        tile = page.locator("[data-testid=tile-3]")
        assert tile.is_visible() and page.locator("[data-testid=tile-4]").is_visible()
        assert page.inner_text("[data-testid=tile-state-3]") == "Needs a person"
        assert page.inner_text("[data-testid=tile-state-4]") == "Closed"
        # the rounds report seats 1, 2 and 5, the floor's record none: flagged, one click takes the round's seats
        assert "0 of 9" in page.inner_text("[data-testid=seats-3]")
        assert "it shows seats 1, 2, 5 taken" in page.inner_text("[data-testid=seats-flag-3]")
        page.click("[data-testid=accept-round-3]")
        page.wait_for_selector("[data-testid=seats-flag-3]", state="detached")
        assert page.url == f"{live_server.url}/"
        assert "3 of 9" in page.inner_text("[data-testid=seats-3]")
        clocks = page.inner_text("[data-testid=tile-deck-R-3]")
        assert "3:05" in clocks or "3:06" in clocks, clocks
        assert page.locator("[data-testid=tile-deck-R-3] .badge.overdue").count() == 1
        assert "Table 3, deck R-3: Not placed into suit and sequence" in page.inner_text("[data-testid=needs-attention]")
        assert page.evaluate("getComputedStyle(document.querySelector('[data-testid=tile-3]')).borderLeftColor") \
            == "rgb(179, 38, 30)"  # floor.css: a tile that needs a person is edged in red
        page.get_by_role("link", name="Table 3", exact=True).click()
        page.wait_for_url(f"{live_server.url}/tables/{table.pk}/")

        page.goto(f"{live_server.url}/rake/")
        page.wait_for_selector("#chart-rake-by-day[data-drawn=true]")
        assert page.evaluate(PAINTED, "#chart-rake-by-day")
        assert page.evaluate("Chart.getChart(document.querySelector('#chart-rake-by-day')).data.datasets[0].data.at(-1)") \
            == 15.0  # three rounds of $5 rake today
        page.wait_for_selector("#chart-rounds-per-hour[data-drawn=true]")
        assert page.evaluate(PAINTED, "#chart-rounds-per-hour")
        page.click("text=The figures of “Rake by table")
        assert "$15.00" in page.inner_text("[data-testid=chart-table-rake-by-table]")
        assert page.evaluate("window.__violations") == [] and problems == []
    finally:
        context.close()
