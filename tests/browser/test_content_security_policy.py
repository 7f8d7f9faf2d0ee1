"""Every page works under the Content-Security-Policy (issue 13, item 6), in real Chromium with the policy
enforced: no violation is reported (no inline script, style or event handler is blocked) on the main pages of a
supervisor, of accounting, of an administrator and on the lockout page; htmx still refreshes the room's display;
the table sign's print button and Swagger UI (/api/docs/) work from script files."""
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import adjust_display
from apps.casinos.models import Department, LicenseType, User
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
D = Decimal

# Collects what the browser reports against the policy (the event fires for every blocked script, style, image,
# connection or form target); added by the DevTools protocol, so the policy does not apply to this script itself.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


class Browser:
    """One signed-in browser context that records CSP violations, console errors and page errors."""

    def __init__(self, browser, live_server):
        self.base = live_server.url
        self.context = browser.new_context()
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.problems: list[str] = []
        self.page.on("console", self.on_console)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

    def on_console(self, message) -> None:
        url = message.location.get("url", "")
        if message.type != "error" or url.endswith("/favicon.ico"):  # no icon: a 404
            return
        if message.text.startswith("Failed to load resource") and url == self.page.url:
            return  # the document's own status (visit() checks it; the lockout page is a 429)
        self.problems.append(f"console: {message.text} ({message.location.get('url')})")

    def sign_in(self, username: str, password: str = "pw-for-tests-1"):
        self.page.goto(f"{self.base}/accounts/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        self.page.click("button[type=submit]")
        return self

    def visit(self, path: str, status: int = 200) -> None:
        response = self.page.goto(f"{self.base}{path}")
        assert response.status == status, (path, response.status)
        assert "Content-Security-Policy" in {k.title(): v for k, v in response.headers.items()}
        self.page.wait_for_load_state("load")
        self.check(path)

    def check(self, where: str) -> None:
        violations = self.page.evaluate("window.__violations")
        assert violations == [] and self.problems == [], (where, violations, self.problems)


@pytest.fixture
def open_browser(browser, live_server):
    """Opens a `Browser` on the live server; each one's context is closed after the test, so that Chromium lets go
    of its kept-alive connections (and the live server's threads of their database connections)."""
    opened: list[Browser] = []

    def open_one() -> Browser:
        opened.append(Browser(browser, live_server))
        return opened[-1]

    yield open_one
    for one in opened:
        one.context.close()


@pytest.fixture
def room():
    table = RakeStructureFactory(table__number=3).table
    casino = table.casino
    jackpot = JackpotFactory(casino=casino, minimum_players_dealt=2, both_hole_cards_must_play=True,
                             minimum_pot=D("20"))
    PokerTableFactory(casino=casino, number=4)
    StaffFactory(username="sup", casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    StaffFactory(username="clerk", casino=casino, roles=[Role.ACCOUNTING], department=Department.ACCOUNTING,
                 license_type=LicenseType.CASINO_KEY_EMPLOYEE)
    admin = StaffFactory(username="boss", casino=casino, roles=[Role.ADMIN])
    admin.is_staff = True
    admin.save()
    round_of_play = play(table, "2h 7d 9c Js Kd", "As Ac", "Qh Qd")
    play(table, "2h 7d 9c Js Kd", "Ks Kc", "Qh Qd")
    return {"table": table, "jackpot": jackpot, "round": round_of_play, "day": round_of_play.gaming_day.isoformat()}


def play(table, board, first, second):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
        PlayerIn(seat=1, contributed=D("20"), hole_cards=first), PlayerIn(seat=2, contributed=D("20"), hole_cards=second)]))


def test_supervisor_pages_work_under_the_policy_and_htmx_refreshes_the_display(live_server, open_browser, room):
    b = open_browser().sign_in("sup")
    b.page.wait_for_url(f"{live_server.url}/")
    b.check("sign-in")
    table, day = room["table"], room["day"]
    pages = ["/", f"/tables/{table.pk}/", f"/rounds/{room['round'].pk}/", "/decks/", "/decks/distribution/",
             "/rake/", "/irregularities/", "/dealers/", "/jackpot/rules/", "/jackpot/claims/", "/multicasino/",
             "/counts/", f"/rake/?day={day}"]
    for path in pages:
        b.visit(path)
    # htmx is loaded, configured by its meta tag, and has injected no <style> into the page.
    b.visit("/")
    assert b.page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert b.page.locator("style").count() == 0

    # The table sign: its print button works from static/js/print.js.
    b.visit(f"/tables/{table.pk}/sign/")
    b.page.evaluate("window.print = () => { window.__printed = true; }")
    b.page.click("[data-print]")
    assert b.page.evaluate("window.__printed") is True

    # The room's display refreshes itself (htmx, every 2 s) when accounting adjusts it to its record (14.19(k)).
    jackpot = room["jackpot"]
    jackpot.refresh_from_db()
    b.visit("/jackpot/display/")
    amount = f"[data-testid=amount-{jackpot.pk}]"
    assert b.page.inner_text(amount) == "$0.00"
    record = payable_amount(jackpot=jackpot)
    assert record > 0
    adjust_display(jackpot=jackpot, displayed_amount=record, adjusted_by=User.objects.get(username="clerk"),
                   supervisor_present=User.objects.get(username="sup"))
    # (a function, not a bare expression: Playwright evaluates a bare one with eval, which the policy refuses)
    b.page.wait_for_function(f"() => document.querySelector('{amount}').innerText === '${record:.2f}'",
                             timeout=10000)
    b.check("display after an htmx refresh")

    # Swagger UI renders the schema from its script file.
    b.visit("/api/docs/")
    b.page.wait_for_selector("text=pokerroom API")
    b.page.wait_for_selector("text=/api/rounds/")
    b.check("/api/docs/ rendered")


def test_accounting_pages_work_under_the_policy(live_server, open_browser, room):
    b = open_browser().sign_in("clerk")
    b.page.wait_for_url(f"{live_server.url}/accounting/contributions/")  # accounting's home
    day = room["day"]
    for path in ["/", "/accounting/contributions/", "/accounting/reconciliation/",
                 f"/accounting/reconciliation/{day}/", f"/accounting/master-game-report/{day}/",
                 "/jackpot/display/adjust/", "/jackpot/display/", "/rake/", "/counts/", "/api/docs/"]:
        b.visit(path)


def test_the_admin_and_the_lockout_page_work_under_the_policy(live_server, open_browser, room):
    # The administrator signs in first: the failures below lock the address too (every context here is 127.0.0.1).
    admin = open_browser().sign_in("boss")
    admin.page.wait_for_url(f"{live_server.url}/")

    locked = open_browser()
    for _ in range(5):
        locked.sign_in("sup", "not-the-password")
    locked.page.wait_for_selector("[data-testid=locked-out]")
    assert "Try again after" in locked.page.inner_text("[data-testid=locked-out]")
    locked.check("lockout page")

    for path in ["/admin/", "/admin/axes/accessattempt/", "/admin/core/signinunlock/"]:
        admin.visit(path)
    admin.visit("/admin/axes/accessattempt/")
    admin.page.check("#action-toggle")
    admin.page.select_option("select[name=action]", "unlock")
    admin.page.click("button[name=index]")
    admin.page.wait_for_selector("text=Unlocked sup")
    admin.check("unlock")
    locked.sign_in("sup")
    locked.page.wait_for_url(f"{live_server.url}/")
