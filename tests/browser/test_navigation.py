"""Every role lands somewhere useful, in real Chromium: each role signs in, lands on its home (apps.core.navigation)
and opens every page its header offers, clicking each link (opening the header's menu that holds it first, as a
person does): none answers 403 (each answers 200). A menu opens from the keyboard and Escape closes it."""
import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
#: The header's menu (a <details> of base.html) that holds a link, when one does.
GROUP = 'header details.nav-group:has(a[href="{href}"])'


def reveal(page, href: str) -> None:
    """Open the header's menu that holds the link to `href`, when it is in a closed one (the link is hidden till)."""
    group = page.locator(GROUP.format(href=href))
    if group.count() and not group.evaluate("menu => menu.open"):
        group.locator("summary").click()
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
            reveal(page, href)
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


def test_a_menu_of_the_header_opens_from_the_keyboard_and_escape_closes_it(live_server, page):
    """The supervisor's header groups the accounting pages under a menu: Tab reaches its button, Enter opens it (the
    browser says it is expanded), its links are reached in turn, and Escape closes it with the focus back on its
    button; one menu is open at a time, and a click elsewhere closes it."""
    table = RakeStructureFactory(table__number=3).table
    StaffFactory(username="someone", casino=table.casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "someone")
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    accounting = page.locator("header details.nav-group", has=page.locator("summary", has_text="Accounting"))
    jackpot = page.locator("header details.nav-group", has=page.locator("summary", has_text="Jackpot"))
    summary = accounting.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    assert accounting.evaluate("menu => menu.open") and accounting.locator("a").first.is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Rake"
    page.keyboard.press("Escape")
    assert not accounting.evaluate("menu => menu.open")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY" and "Accounting" in summary.text_content()
    jackpot.locator("summary").click()
    summary.click()
    assert accounting.evaluate("menu => menu.open") and not jackpot.evaluate("menu => menu.open")
    page.mouse.click(5, 700)  # elsewhere on the page, away from the open menu's panel
    assert not accounting.evaluate("menu => menu.open")
