"""The waitlist kiosk in real Chromium (N.J.A.C. 13:69F-14.18; issue 32, item 6): a tablet that never signed in opens
the kiosk link, a patron joins a list and sees their place, the page returns to an empty form by itself, the lists'
poll keeps running, and once the link is revoked the next poll replaces the whole kiosk (its form too) with a notice
and stops. The page breaks no Content-Security-Policy rule and axe-core finds no serious violation on it."""
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.utils import timezone

from apps.core.roles import Role
from apps.screens.kiosk import KIOSK_POLL_SECONDS, KIOSK_RETURN_SECONDS
from apps.screens.selectors import screen_path
from apps.screens.services import issue_display_link, revoke_display_link
from apps.seats.models import WaitlistEntry, WaitlistSource
from apps.tables.services import create_table, open_table
from tests.browser.test_room_screens import AXE, AXE_RUN
from tests.factories import CasinoFactory, StaffFactory
from tests.seats.factories import entry, waitlist_for
from tests.support.shown import shown

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_patron_joins_at_the_kiosk_and_a_revoked_link_stops_it(live_server, browser):
    casino = CasinoFactory(name="Boardwalk Poker Room")
    admin = StaffFactory(casino=casino, roles=[Role.ADMIN])
    table = open_table(table=create_table(casino=casino, number=3, small_blind=D("1"), big_blind=D("2"),
                                          minimum_wager=D("2")))
    waitlist = waitlist_for(table)
    entry(waitlist, "Zed Early", timezone.now() - timedelta(minutes=5), phone="609-555-0199")
    link = issue_display_link(casino=casino, kind="kiosk", name="Desk tablet", issued_by=admin)
    path = screen_path(link)
    context = browser.new_context(viewport={"width": 1024, "height": 768})  # a tablet
    page = context.new_page()
    page.set_default_timeout(15000)
    problems = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        page.clock.install()
        page.goto(f"{live_server.url}{path}")
        page.add_script_tag(url=f"{live_server.url}{AXE}")
        assert page.evaluate(AXE_RUN) == []
        assert "Zed" not in shown(page.content(), path) and "0199" not in shown(page.content(), path)
        page.select_option("#id_waitlist", str(waitlist.pk))
        page.fill("#id_name", "Ann Lee")
        page.click("button[type=submit]")
        page.wait_for_selector("[data-testid=kiosk-joined]")
        assert "number 2" in page.inner_text("[data-testid=kiosk-joined]")
        ann = WaitlistEntry.objects.get(name="Ann Lee")
        assert ann.source == WaitlistSource.KIOSK
        assert {c["name"] for c in context.cookies()} <= {"csrftoken", "sessionid"}
        page.clock.run_for(KIOSK_RETURN_SECONDS * 1000 + 100)  # back to an empty form for the next patron
        page.wait_for_selector("[data-testid=kiosk-form]")
        assert page.locator("[data-testid=kiosk-joined]").count() == 0 and page.input_value("#id_name") == ""
        page.fill("#id_name", "Half typed")
        with page.expect_response(lambda r: r.request.headers.get("hx-target") == "kiosk-lines") as poll:
            page.clock.run_for(KIOSK_POLL_SECONDS * 1000 + 100)  # a poll of the lists keeps what is being typed
        assert poll.value.status == 200
        page.wait_for_timeout(300)  # the swap
        assert page.input_value("#id_name") == "Half typed"

        revoke_display_link(link=link, revoked_by=admin)
        for _ in range(3):  # the next poll (its timer is armed when the last one's answer is swapped in)
            page.clock.run_for(KIOSK_POLL_SECONDS * 1000 + 100)
            page.wait_for_timeout(500)
            if page.locator("[data-testid=kiosk-stopped]").count():
                break
        page.wait_for_selector("[data-testid=kiosk-stopped]")
        assert "revoked" in page.inner_text("[data-testid=stopped-heading]")
        assert page.locator("form").count() == 0 and page.locator("#id_name").count() == 0
        assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
    finally:
        context.close()
