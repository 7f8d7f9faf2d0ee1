"""The qualifier designer in real Chromium (issue 16): a room manager opens it from the header, fills two candidate
qualifying rules and sees both columns of figures and the days-to-hit charts drawn by the vendored Chart.js, with no
console error nor Content-Security-Policy violation and no serious or critical axe-core violation; at a phone's width
nothing scrolls sideways."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.browser.test_accessibility import violations
from tests.browser.test_floor_map import PAINTED, WATCH
from tests.factories import JackpotFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal


def test_a_manager_compares_two_qualifying_rules(live_server, browser):
    table = RakeStructureFactory(table__number=3).table
    JackpotFactory(casino=table.casino, reset_percentage=D("10.00"))
    StaffFactory(username="sup", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    for board in ("Ah Kd 5c 9s 3h", "2h 8d 9c Js Kd", "4d 5d 6h 9s Ac"):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
            PlayerIn(seat=1, contributed=D("40"), hole_cards="As Ks"), PlayerIn(seat=2, contributed=D("40"),
                                                                                  hole_cards="2c 7d"),
            PlayerIn(seat=5, contributed=D("0"), hole_cards="Qh Qc", folded=True)]))

    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(20000)
    problems = []
    page.on("console", lambda m: problems.append(f"console: {m.text}")
            if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "sup")
        page.fill("#id_password", "pw-for-tests-1")
        page.click("button[type=submit]")
        page.locator("header details.nav-group:has(a[href='/qualifiers/']) summary").click()  # its menu, Jackpot
        page.get_by_role("link", name="Qualifiers", exact=True).click()
        page.wait_for_selector("[data-testid=designer-form]")
        assert page.input_value("#id_c1_losing") == "four of a kind"  # the posted rule first (14.19(b)3)
        page.fill("#id_c1_losing", "full house")
        page.fill("#id_c1_minimum_players_dealt", "2")
        page.fill("#id_c2_losing", "three of a kind")
        page.fill("#id_c2_minimum_players_dealt", "2")
        page.fill("#id_deals", "2000")
        page.click("[data-testid=run-designer]")
        page.wait_for_selector("[data-testid=designer-results]")
        assert page.inner_text("[data-testid=result-column-1]") == "Candidate 1"
        assert page.inner_text("[data-testid=result-column-2]") == "Candidate 2"
        assert page.locator("[data-testid=result-column-3]").count() == 0
        assert "1 in" not in page.inner_text("[data-testid=days-1]") and page.inner_text("[data-testid=days-1]") != "—"
        assert page.inner_text("[data-testid=jackpot-2]").startswith("$")
        for chart in ("#chart-days-between-hits", "#chart-chance-of-hit"):
            page.wait_for_selector(f"{chart}[data-drawn=true]")
            assert page.evaluate(PAINTED, chart)
        assert page.evaluate("Chart.getChart(document.querySelector('#chart-chance-of-hit')).data.datasets.length") == 2
        assert violations(page, live_server.url) == []  # axe-core: no serious or critical violation with the results
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert page.evaluate("window.__violations") == [] and problems == []
    finally:
        context.close()
