"""On a phone (390×844), a tablet (768×1024) and a desktop (1440×900), in real Chromium: for each role, no page its
header offers (nor the supervisor's table, round and claim pages) scrolls sideways —
`document.documentElement.scrollWidth` ≤ the viewport's width (wide tables scroll inside their own box) — and every
link of the header can be seen and reached inside the viewport (on a phone, behind the header's Menu button; a link
of one of the header's menus once its menu is opened).

One signed-in context per role, resized (set_viewport_size) rather than reopened: each page is loaded once and
measured at the three widths; a page whose main content, text included, is that of a page measured already (the same
page as another role sees it) is not measured again."""
import pytest

from apps.core.roles import Role
from tests.browser.seeded_room import header_pages, main_content, seed_room, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.long, pytest.mark.django_db(transaction=True)]
VIEWPORTS = ((390, 844), (768, 1024), (1440, 900))
MEASURE = "() => [document.documentElement.scrollWidth, window.innerWidth]"
#: For each link (or menu button) of the header under `root`: whether it is rendered, and whether it lies inside the
#: viewport's width.
LINKS_IN_VIEW = """(root) => [...root.querySelectorAll(':scope > a, :scope > details > summary, :scope > .nav-menu > a')]
  .map(a => {
    const box = a.getBoundingClientRect();
    return [a.getAttribute('href') || a.textContent.trim(), box.width > 0 && box.height > 0,
            box.left >= 0 && box.right <= window.innerWidth];
  })"""


def header_links_in_view(page) -> list:
    """The header's links that cannot be seen and reached at the page's current width (opening the Menu button when
    the header shows one, and each of the header's menus in turn): [(href or menu, rendered, inside the viewport)]."""
    menu = page.locator("header details.menu > summary")
    opened = False
    if menu.count() and menu.is_visible():
        menu.click()
        opened = True
    found = page.locator("header nav").evaluate(LINKS_IN_VIEW)
    groups = page.locator("header nav details.nav-group")
    for number in range(groups.count()):
        groups.nth(number).locator("summary").click()
        found += groups.nth(number).evaluate(LINKS_IN_VIEW)
        groups.nth(number).locator("summary").click()
    wrong = [link for link in found if not (link[1] and link[2])]
    if opened:
        menu.click()
    return wrong


def test_no_page_scrolls_sideways_on_a_phone_a_tablet_or_a_desktop(live_server, browser):
    room = seed_room()
    base = live_server.url
    too_wide, header_problems, seen, measured = [], [], {}, set()
    for role in Role:
        page = sign_in(browser, base, room.usernames[role], width=VIEWPORTS[-1][0], height=VIEWPORTS[-1][1])
        pages = [href for href, _ in header_pages(page)] + room.detail_pages(role)
        assert len(pages) >= 5, (role, pages)
        seen[role] = pages
        for width, height in VIEWPORTS:
            page.set_viewport_size({"width": width, "height": height})
            if wrong := header_links_in_view(page):
                header_problems.append((str(role), width, page.url, wrong))
        for number, href in enumerate(pages):
            # each role's header is measured on its first page; a page whose main content (text included) is that of
            # a page measured already (the same page for another role that sees the same) lays out the same
            content = main_content(page, f"{base}{href}", text=True)
            if number and content in measured:
                continue
            measured.add(content)
            answer = page.goto(f"{base}{href}")
            assert answer.status == 200, (role, href, answer.status)
            for width, height in VIEWPORTS:
                page.set_viewport_size({"width": width, "height": height})
                scroll_width, inner_width = page.evaluate(MEASURE)
                if scroll_width > inner_width:
                    too_wide.append((str(role), href, width, scroll_width))
        page.context.close()
    assert not too_wide, f"pages wider than the viewport (role, page, viewport width, page width): {too_wide}"
    assert not header_problems, f"header links out of sight (role, width, page, links): {header_problems}"
    # every page of the header was looked at, for the roles that offer the most
    assert {"/", "/decks/", "/rake/", "/jackpot/claims/", "/counts/", "/accounting/contributions/"} <= set(
        seen[Role.POKER_SHIFT_SUPERVISOR] + seen[Role.ACCOUNTING])
