"""The room's public page on a phone, in real Chromium (issue 17: "a player checks the public page from a phone";
N.J.A.C. 13:69F-14.18): at 390×844, never signed in, the page shows the games with their limits, tables, open seats and
waits, and the jackpot with "Payout pending", with no sideways scroll and nothing running off the right edge; it
refreshes itself (its htmx poll, no script of its own under the CSP) and shows a new player waiting and a new
"Updated at" once the list grows; no player's name, initials or phone; axe-core finds no serious or critical
violation; and once the room turns the feed off, the next poll replaces the games with a notice and polling stops."""
from datetime import timedelta

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from apps.core.roles import Role
from apps.public.services import set_published
from apps.public.views import POLL_SECONDS
from tests.factories import CasinoFactory, StaffFactory
from tests.public.rooms import (
    ROUND_NAME,
    SEATED_NAME,
    SECRET_INITIALS,
    SECRET_NAME,
    SECRET_PHONE,
    add_to_list,
    build_public_room,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
AXE = "/static/vendor/axe-core/axe.min.js"
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"""
#: The document's width against the window's, and the elements whose box runs off the right edge.
MEASURE = """() => ({scrollWidth: document.documentElement.scrollWidth, width: innerWidth,
  outside: [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
            .map(e => e.tagName + '.' + e.className).slice(0, 5)})"""


def next_poll_shows(page, shown: str) -> None:
    """Run the page's clock a poll's interval at a time until `shown` (a script's predicate) holds. The clock also
    runs by itself (installed, not paused): on a slow machine a poll may already be on its way, sent before the
    change, when the test makes it, and its answer shows the page as it was; the poll after it must show the change."""
    for _ in range(3):
        page.clock.run_for(POLL_SECONDS * 1000)
        try:
            page.wait_for_function(shown, timeout=10000)
            return
        except PlaywrightTimeout:
            continue
    page.wait_for_function(shown)  # the last poll's answer, with the page's own time-out: fails with its reason


def test_a_player_checks_the_public_page_from_a_phone(live_server, browser):
    casino = CasinoFactory(name="Boardwalk Poker Room")
    room = build_public_room(casino, StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR]))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    csp_errors = []
    page.on("console", lambda m: csp_errors.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.clock.install()
        answer = page.goto(f"{live_server.url}/public/{casino.code}/")
        assert answer.status == 200
        games = page.inner_text("[data-testid=games]")
        assert "$1/$2 no limit" in games and "$2/$5 no limit" in games and "3, 5" in games
        assert "15 of 18" in games and "2 players" in games and "No wait" in games
        jackpots = page.inner_text("[data-testid=jackpots]")
        assert "$1,234.56" in jackpots and "Payout pending" in jackpots
        first_update = page.inner_text("[data-testid=updated]")
        assert first_update.startswith("Updated at ")
        text = page.inner_text("body")
        for secret in (SECRET_NAME, SECRET_PHONE, SECRET_INITIALS, SEATED_NAME, ROUND_NAME):
            assert secret not in text, secret
        fit = page.evaluate(MEASURE)
        assert fit["scrollWidth"] <= fit["width"] == 390 and fit["outside"] == [], fit
        page.add_script_tag(url=f"{live_server.url}{AXE}")
        assert page.evaluate(AXE_RUN) == []

        # A player joins the list; the page's next poll shows it, with its new time.
        add_to_list(room.waitlist, "Cy")
        page.clock.fast_forward(timedelta(minutes=2).total_seconds() * 1000)  # the page's clock: its poll is due
        next_poll_shows(page, "() => document.querySelector('[data-testid=games]')?.innerText.includes('3 players')")
        assert page.evaluate(MEASURE)["scrollWidth"] <= 390

        # The room turns the feed off: the next poll replaces the games with a notice, and the polling stops.
        set_published(casino=casino, published=False, changed_by=StaffFactory(casino=casino, roles=[Role.ADMIN]))
        next_poll_shows(page, "() => document.querySelector('[data-testid=public-gone]') !== null")
        assert page.locator("[data-testid=games]").count() == 0 and "$1,234" not in page.inner_text("body")
        assert csp_errors == []
    finally:
        context.close()
