"""Every role lands somewhere useful, in real Chromium: each role signs in, lands on its home (apps.core.navigation)
and opens every page its header offers, clicking each link: none answers 403 (each answers 200)."""
import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
#: Where each role lands after signing in (tests/core/test_navigation.py checks the same without a browser).
HOME = {Role.POKER_SHIFT_SUPERVISOR: "/", Role.ADMIN: "/", Role.FLOORPERSON: "/decks/", Role.DEALER: "/dealers/home/",
        Role.ACCOUNTING: "/accounting/contributions/", Role.SECURITY: "/jackpot/claims/",
        Role.SURVEILLANCE: "/irregularities/"}


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_each_role_lands_on_its_home_and_opens_every_link(live_server, page, role):
    table = RakeStructureFactory(table__number=3).table
    JackpotFactory(casino=table.casino)
    PokerTableFactory(casino=table.casino, number=4)
    StaffFactory(username="someone", casino=table.casino, roles=[role])
    base = live_server.url

    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "someone")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}{HOME[role]}")
    assert page.locator("nav a[aria-current=page]").get_attribute("href") == HOME[role]

    links = page.eval_on_selector_all(
        "nav a", "links => links.map(a => [a.getAttribute('href'), a.getAttribute('target'), a.textContent])")
    assert len(links) >= 8 and all(href.startswith("/") for href, _, _ in links)
    assert {label for _, target, label in links if target == "_blank"} == {"Display"}

    answers = {}
    for href, target, label in links:
        if page.locator(f'nav a[href="{href}"]').count() == 0:  # a page without the header (the API's docs)
            page.goto(f"{base}{HOME[role]}")
        url = f"{base}{href}"
        with page.context.expect_event(
                "response", lambda response, url=url: response.url == url and response.request.is_navigation_request()
        ) as answered:
            if target == "_blank":  # the room's display, in a tab of its own
                with page.context.expect_page() as opened:
                    page.click(f'nav a[href="{href}"]')
                opened.value.close()
            else:
                page.click(f'nav a[href="{href}"]')
        answers[label] = answered.value.status
        if target != "_blank":
            page.wait_for_url(url)
    assert answers == dict.fromkeys(answers, 200), (role, answers)
