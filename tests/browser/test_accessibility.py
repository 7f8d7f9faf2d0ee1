"""axe-core (vendored: static/vendor/axe-core/, see static/vendor/README.md) finds no serious or critical violation,
in real Chromium, on any page each role's header offers (and the supervisor's table, round and claim pages), on the
sign-in page, and on a form showing its errors — on a desktop and, for the header's menu and the pages' scrolling
tables, on a phone.

axe is loaded from the site's own static files (a script from 'self', as the Content-Security-Policy allows: each page
is checked under its real policy) into the page after it has loaded; it runs its default rules (WCAG 2.0-2.2 A and AA
and best practices) and each violation is reported with its rule, impact and the elements at fault. One signed-in
context per role; a page whose main content has the same markup as one already checked (the same page as another role
sees it) is not checked again, which keeps the whole under half a minute."""
import json

import pytest

from apps.core.roles import Role
from tests.browser.seeded_room import PASSWORD, header_pages, main_content, seed_room, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.long, pytest.mark.django_db(transaction=True)]
AXE = "/static/vendor/axe-core/axe.min.js"
BLOCKING = {"serious", "critical"}
RUN = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return results.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


def violations(page, base: str) -> list[dict]:
    """axe's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=f"{base}{AXE}")
    return [v for v in page.evaluate(RUN) if v["impact"] in BLOCKING]


def check(page, base: str, where: tuple, found: list) -> None:
    for violation in violations(page, base):
        found.append({"where": where, **violation})


def test_axe_finds_no_serious_or_critical_violation_on_any_page(live_server, browser):
    room = seed_room()
    base = live_server.url
    found, checked, seen = [], [], set()

    # signed out: the sign-in page, then a failed sign-in (the error summary)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    check(page, base, ("anonymous", "/accounts/login/", 390), found)
    page.fill("#id_username", room.usernames[Role.DEALER])
    page.fill("#id_password", PASSWORD + "-wrong")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=login-errors]")
    check(page, base, ("anonymous", "failed sign-in", 390), found)
    context.close()

    for role in Role:
        page = sign_in(browser, base, room.usernames[role])
        pages = [href for href, _ in header_pages(page)] + room.detail_pages(role)
        for number, href in enumerate(pages):
            # each role's header is checked on its first page; a page whose main content has the markup of one checked
            # already (the same page for another role that sees the same) would find the same
            markup = main_content(page, f"{base}{href}", text=False)
            if number and markup in seen:
                continue
            seen.add(markup)
            answer = page.goto(f"{base}{href}")
            assert answer.status == 200, (role, href, answer.status)
            if page.locator("#swagger-ui").count():  # the API's documentation, drawn by Swagger UI's script
                page.wait_for_selector("#swagger-ui .opblock")
            check(page, base, (str(role), href, 1440), found)
            checked.append((role, href))
        if role is Role.POKER_SHIFT_SUPERVISOR:
            # on a phone: the header's menu, open, and a page of wide tables that scroll in their boxes
            page.set_viewport_size({"width": 390, "height": 844})
            page.goto(f"{base}/decks/")
            page.click("header details.menu > summary")
            check(page, base, (str(role), "/decks/ with the menu open", 390), found)
        if role is Role.FLOORPERSON:
            # a form showing its errors: the summary, the fields marked invalid and described by their errors
            page.goto(f"{base}/irregularities/")
            page.fill("#id_deck", "NO-SUCH-DECK")
            page.fill("#id_description", "A card was exposed.")
            page.click("[data-testid=irregularity-form] button[type=submit]")
            page.wait_for_selector("[data-testid=form-errors]")
            check(page, base, (str(role), "irregularity form with errors", 1440), found)
        page.context.close()

    assert not found, "axe-core's serious and critical violations:\n" + "\n".join(json.dumps(v) for v in found)
    assert len(checked) >= 20 and {href for _, href in checked} >= {
        "/", "/decks/", "/rake/", "/irregularities/", "/jackpot/claims/", "/counts/", "/accounting/contributions/",
        "/accounting/reconciliation/", f"/jackpot/claims/{room.claim.pk}/"}
