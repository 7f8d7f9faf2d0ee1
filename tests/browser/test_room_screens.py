"""The room's screens in real Chromium (issue 15, "Screens for the room"; N.J.A.C. 13:69F-14.18, 14.19(b), (i)1, (k)):
the jackpot display and the games-and-seats board, each opened by a display link in a browser that never signed in,

- fit 1920×1080 and 1366×768 with no vertical or horizontal scroll and nothing spilling out of its box, with a
  payout pending, two payouts with notices of changes, a seven-figure amount and 19 open tables (18 game lines: the
  board turns through pages of 8);
- show the rule text at 32 px or more at 1080p;
- keep running after every staff session has ended (the staff display, meanwhile, stops with a notice instead of
  swapping in the sign-in form), show the new amount once accounting adjusts the display after a contribution, and
  stop at the next poll once the link is revoked;
- and pass axe-core (no serious or critical violation), as the administrators' page of links does.
"""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone

from apps.badbeat.models import Claim, Funding, Jackpot, QualifyingHand
from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import adjust_display, create_secondary_jackpot, propose_rule_change, verify_claim
from apps.casinos.models import Department, LicenseType
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.floor.management.commands.seed_demo import DEMO_ROTATIONS, DEMO_TABLES
from apps.screens.selectors import screen_path
from apps.screens.services import issue_display_link, revoke_display_link
from apps.seats.models import Seat
from apps.seats.selectors import line_key
from apps.tables.models import PokerTable
from apps.tables.services import create_table, open_table
from tests.factories import CasinoFactory, JackpotFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal
SCREENS = [(1920, 1080), (1366, 768)]
PLAIN = "2h 7d 9c Js Kd", "As Ac", "Qh Qd"  # a pot with no bad beat
POT = D("25")  # each player's part of it
POLL = 2_100  # ms: a little more than the jackpot display's 2-second poll


def holdem_round(table, *, board=PLAIN[0], cards=(PLAIN[1], PLAIN[2]), seats=(1, 2), pot_each=POT):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=seat, name=f"Player {seat}", contributed=pot_each, hole_cards=hole)
        for seat, hole in zip(seats, cards, strict=True)]))


@pytest.fixture
def busy_room():
    """The demo's 19 tables, all open (the two mixed-game rotations among them), rounds at four; a primary payout at
    $1,234,567.89 with a verified bad beat (payout pending) and three notices of changes (two shown, the third
    counted), a secondary funded from it with one; a jackpot link and a games link."""
    casino = CasinoFactory(name="Boardwalk Poker Room")
    admin = StaffFactory(casino=casino, roles=[Role.ADMIN])
    supervisor = StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    primary = JackpotFactory(casino=casino, minimum_pot=D("0"), minimum_players_dealt=2)
    secondary = create_secondary_jackpot(primary=primary, name="Mini Bad Beat", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                         qualifying_minimum_rank=14, funding=Funding.PRIMARY_PORTION,
                                         primary_portion_percentage=D("10"))
    tables = {}
    for number, game, structure, seats, sb, bb, minimum, maximum, location, bad_beat, _ in DEMO_TABLES:
        tables[number] = open_table(table=create_table(
            casino=casino, number=number, game=game, seats=seats, minimum_wager=minimum, maximum_wager=maximum,
            betting_structure=structure, small_blind=sb, big_blind=bb, location=location,
            bad_beat_participation=bad_beat))
    for number, name, seats, per_game, rotation in DEMO_ROTATIONS:
        open_table(table=create_table(casino=casino, number=number, seats=seats, rotation_name=name,
                                      rounds_per_game=per_game, rotation=rotation, bad_beat_participation=True))
    for number in (2, 3, 9):
        holdem_round(tables[number])
    bad_beat = holdem_round(tables[1], board="9h 9d 6s 7s 8s", cards=("9s 9c", "5s 4s"))
    for number in (1, 2, 3, 9):  # the floor's record of who sits there: the rounds' two players
        for seat in (1, 2):
            Seat.objects.create(table=tables[number], number=seat, player=f"Player {seat}", since=timezone.now())
    verify_claim(claim=Claim.objects.get(round_of_play=bad_beat), supervisor=supervisor)
    Jackpot.objects.filter(pk=primary.pk).update(displayed_amount=D("1234567.89"))
    later = timezone.now() + timedelta(days=3)
    for changes, summary in (({"minimum_pot": "25.00"}, "From the first of next month the minimum pot that "
                              "contributes to the bad beat jackpot rises from $20 to $25, as posted with the rules "
                              "at the poker room desk."),
                             ({"contribution_amount": "0.50"}, "Each pot will contribute $0.50 to the bad beat "
                              "jackpot instead of $1."),
                             ({"maximum_contribution": "2.00"}, "The most contributed from one pot rises to $2.")):
        propose_rule_change(jackpot=primary, changes=changes, effective_at=later, proposed_by=supervisor,
                            summary=summary)
    propose_rule_change(jackpot=secondary, changes={"primary_portion_percentage": "12.00"}, effective_at=later,
                        proposed_by=supervisor, summary="The mini bad beat will be 12 % of the primary payout.")
    return {"jackpot": issue_display_link(casino=casino, kind="jackpot", name="Rail 1", issued_by=admin),
            "games": issue_display_link(casino=casino, kind="games", name="Board", issued_by=admin),
            "primary": primary, "secondary": secondary}


#: What the page measures: the document's scroll size against the window, each panel's (or row's) content against
#: its box, the screen's parts against the window, and the computed size of every line of rule text.
MEASURE = """() => {
  const d = document.documentElement, footer = document.querySelector('.screen-foot');
  const foot = footer ? footer.getBoundingClientRect() : {top: innerHeight};
  const boxes = [...document.querySelectorAll('.display-panel, .board tr, .screen-head, .screen-foot')];
  return {
    scrollHeight: d.scrollHeight, scrollWidth: d.scrollWidth, height: innerHeight, width: innerWidth,
    spilling: boxes.filter(b => b.scrollHeight > b.clientHeight + 1 || b.scrollWidth > b.clientWidth + 1)
                   .map(b => b.className || b.tagName),
    outside: boxes.filter(b => { const r = b.getBoundingClientRect();
                                 return r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || r.left < -0.5; })
                  .map(b => b.className || b.tagName),
    underFoot: [...document.querySelectorAll('.display-panel, .board')].filter(
                 b => b.getBoundingClientRect().bottom > foot.top + 0.5).length,
    ruleSizes: [...document.querySelectorAll('.display-rule, .display-notice, .screen-foot')].map(
                 e => parseFloat(getComputedStyle(e).fontSize)),
    amountSizes: [...document.querySelectorAll('.display-amount')].map(e => parseFloat(getComputedStyle(e).fontSize)),
  };
}"""


@pytest.mark.parametrize("width, height", SCREENS, ids=lambda v: str(v))
def test_both_screens_fit_without_scrolling_with_a_payout_pending(live_server, browser, busy_room, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})  # never signed in
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{live_server.url}{screen_path(busy_room['jackpot'])}")
        page.wait_for_selector("[data-testid=pending]")
        primary = busy_room["primary"]
        assert page.inner_text(f"[data-testid=amount-{primary.pk}]") == "$1,234,567.89"
        assert page.locator(".display-panel").count() == 2  # the primary and the mini, side by side
        assert "And 1 more notice, posted with the rules." in page.inner_text(f"[data-testid=display-{primary.pk}]")
        jackpot = page.evaluate(MEASURE)
        assert jackpot["scrollHeight"] <= height and jackpot["scrollWidth"] <= width, jackpot
        assert (jackpot["spilling"], jackpot["outside"], jackpot["underFoot"]) == ([], [], 0), jackpot
        if height == 1080:  # legible across the room: rules at 32 px or more, the amounts far larger
            assert min(jackpot["ruleSizes"]) >= 32 and len(jackpot["ruleSizes"]) >= 8, jackpot["ruleSizes"]
            assert min(jackpot["amountSizes"]) >= 3 * 32, jackpot["amountSizes"]

        page.goto(f"{live_server.url}{screen_path(busy_room['games'])}")
        page.wait_for_selector("[data-testid=board]")
        assert page.locator(".board tbody tr").count() == 8
        assert "page 1 of 3" in page.inner_text("[data-testid=updated]")  # 18 game lines, 8 a page
        # one line a game and limits (apps.seats.selectors.room_board): tables 1 and 2 deal $1/$2 no limit hold 'em
        key_of = {t.number: line_key(t) for t in PokerTable.objects.filter(casino=primary.casino)}
        assert page.inner_text(f"[data-testid=open-{key_of[2]}]") == "16 open"  # 20 seats, 2 players seated at each
        assert page.inner_text(f"[data-testid=open-{key_of[4]}]") == "10 open"  # no round, nobody seated
        board = page.evaluate(MEASURE)
        assert board["scrollHeight"] <= height and board["scrollWidth"] <= width, board
        assert (board["spilling"], board["outside"], board["underFoot"]) == ([], [], 0), board
        if height == 1080:
            sizes = page.eval_on_selector_all(".board td, .board th, .screen-foot",
                                              "cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))")
            assert min(sizes) >= 32, sizes

        page.goto(f"{live_server.url}{screen_path(busy_room['games'])}?tick=4")  # the third page: the mixed games
        assert "page 3 of 3" in page.inner_text("[data-testid=updated]")
        assert "Players Championship (nine games)" in page.inner_text("[data-testid=board]")
        last = page.evaluate(MEASURE)
        assert last["scrollHeight"] <= height and (last["spilling"], last["outside"]) == ([], []), last
    finally:
        context.close()


def test_a_display_link_runs_without_a_session_and_stops_when_revoked(live_server, browser):
    casino = CasinoFactory(name="Boardwalk Poker Room")
    admin = StaffFactory(casino=casino, roles=[Role.ADMIN])
    supervisor = StaffFactory(username="sup", casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    clerk = StaffFactory(casino=casino, roles=[Role.ACCOUNTING], department=Department.ACCOUNTING,
                         license_type=LicenseType.CASINO_KEY_EMPLOYEE)
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"), minimum_players_dealt=2)
    table = open_table(table=create_table(casino=casino, number=3, small_blind=D("1"), big_blind=D("2"),
                                          minimum_wager=D("2"), bad_beat_participation=True))
    link = issue_display_link(casino=casino, kind="jackpot", name="Rail 1", issued_by=admin)
    amount = f"[data-testid=amount-{jackpot.pk}]"

    screen_context, staff_context = browser.new_context(), browser.new_context()
    try:
        # A staff display, signed in as the supervisor, beside the link's screen, which never signs in.
        # Both pages' timers run when the test says (page.clock): each run_for(POLL) is one 2-second poll.
        staff = staff_context.new_page()
        staff.set_default_timeout(15000)
        staff.clock.install()
        staff.goto(f"{live_server.url}/accounts/login/?next=/jackpot/display/")
        staff.fill("#id_username", "sup")
        staff.fill("#id_password", "pw-for-tests-1")
        staff.click("button[type=submit]")
        staff.wait_for_selector(amount)
        screen = screen_context.new_page()
        screen.set_default_timeout(15000)
        screen.clock.install()
        polls = []
        screen.on("request", lambda request: polls.append(request.url) if "tick=" in request.url else None)
        screen.goto(f"{live_server.url}{screen_path(link)}")
        assert screen.inner_text(amount) == "$0.00" and screen_context.cookies() == []

        # Every staff session ends. The staff display's next poll stops with a notice, not the sign-in form.
        Session.objects.all().delete()
        staff.clock.run_for(POLL)
        staff.wait_for_selector("[data-testid=screen-stopped]")
        assert "Signed out: this display stopped" in staff.inner_text("[data-testid=stopped-heading]")
        assert staff.locator("#id_password").count() == 0 and staff.locator(amount).count() == 0

        # The link's screen keeps polling, a couple of polls on ...
        for tick in (1, 2, 3):
            screen.clock.run_for(POLL)
            screen.wait_for_function(f"() => document.querySelector('#display').getAttribute('hx-get')"
                                     f".endsWith('tick={tick + 1}')")
        # ... a contribution, then accounting adjusts the display to its record (14.19(k)): the screen shows it.
        holdem_round(table)
        jackpot.refresh_from_db()
        adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=clerk,
                       supervisor_present=supervisor)
        jackpot.refresh_from_db()
        assert jackpot.displayed_amount == D("1.00")
        screen.clock.run_for(POLL)
        screen.wait_for_function(f"() => document.querySelector('{amount}').innerText === '$1.00'")
        assert screen_context.cookies() == []  # no session was ever needed

        # Revoked: the next poll replaces the screen with the notice, and the polling stops.
        revoke_display_link(link=link, revoked_by=admin)
        screen.clock.run_for(POLL)
        screen.wait_for_selector("[data-testid=screen-stopped]")
        assert screen.inner_text("[data-testid=stopped-heading]") == "This screen's link was revoked"
        assert screen.locator(amount).count() == 0
        seen = len(polls)
        screen.clock.run_for(5 * POLL)
        screen.wait_for_timeout(300)  # time for a request, were one sent
        assert len(polls) == seen and seen >= 5
        assert screen.goto(f"{live_server.url}{screen_path(link)}").status == 403
        stopped = screen.evaluate(MEASURE)  # the styled page fits the screen, its notice in one panel
        assert stopped["scrollHeight"] <= stopped["height"] and stopped["scrollWidth"] <= stopped["width"], stopped
        assert (stopped["spilling"], stopped["outside"]) == ([], []), stopped
        assert screen.eval_on_selector(".stopped-panel", "p => p.getBoundingClientRect().width") > 600
    finally:
        screen_context.close()
        staff_context.close()


AXE = "/static/vendor/axe-core/axe.min.js"  # vendored axe-core (static/vendor/README.md), a script from 'self'
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical')
  .map(v => ({id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"""


def test_axe_finds_no_serious_violation_on_the_screens_and_the_links_page(live_server, browser, busy_room):
    """The room's screens, a revoked link's page, and the administrators' page with its links and forms."""
    base, found = live_server.url, {}
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        revoked = issue_display_link(casino=busy_room["primary"].casino, kind="games", name="Old board",
                                     issued_by=busy_room["jackpot"].issued_by)
        revoke_display_link(link=revoked, revoked_by=revoked.issued_by)
        for name, path in (("jackpot", screen_path(busy_room["jackpot"])), ("games", screen_path(busy_room["games"])),
                           ("revoked", screen_path(revoked))):
            page.goto(f"{base}{path}")
            page.add_script_tag(url=f"{base}{AXE}")
            found[name] = page.evaluate(AXE_RUN)
        admin = busy_room["jackpot"].issued_by
        page.goto(f"{base}/accounts/login/?next=/screens/")
        page.fill("#id_username", admin.username)
        page.fill("#id_password", "pw-for-tests-1")
        page.click("button[type=submit]")
        page.wait_for_selector("[data-testid=links]")
        page.click(f"[data-testid=revoke-{busy_room['games'].pk}] summary")  # the confirmation, open
        page.add_script_tag(url=f"{base}{AXE}")
        found["links"] = page.evaluate(AXE_RUN)
    finally:
        context.close()
    assert found == dict.fromkeys(found, []), found
