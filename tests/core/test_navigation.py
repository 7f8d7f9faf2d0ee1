"""Every role lands somewhere useful: the header offers only the pages the role may open (apps.core.navigation, from
each URL's role policy), the sign-in lands on the role's home (/home/), and a 403, 404 or 500 is a styled page with
a way home (403 and 404 with the navigation; the API's answers stay JSON)."""
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.shortcuts import resolve_url
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.views import defaults

from apps.core.home import home
from apps.core.navigation import ACCOUNTING as ACCOUNTING_MENU
from apps.core.navigation import FLOOR as FLOOR_MENU
from apps.core.navigation import HOMES, JACKPOT, MOST_AT_TOP, NAVIGATION, SYSTEM, home_url, route
from apps.core.policy import policy_of
from apps.core.roles import Role
from apps.core.views import permission_denied
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-1"  # tests.factories.StaffFactory's
SUPERVISOR, FLOOR, DEALER, ACCOUNTING = Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON, Role.DEALER, Role.ACCOUNTING
SECURITY, SURVEILLANCE, ADMIN = Role.SECURITY, Role.SURVEILLANCE, Role.ADMIN
LABELS = [entry.label for entry in NAVIGATION]
#: Where the sign-in lands each role (its first page of apps.core.navigation.HOMES that the policy lets it open).
HOME = {SUPERVISOR: "/", ADMIN: "/", FLOOR: "/decks/", DEALER: "/dealers/home/",  # the dealer's table and decks
        ACCOUNTING: "/accounting/contributions/", SECURITY: "/jackpot/claims/", SURVEILLANCE: "/irregularities/"}
#: The header's pages each role is not offered (tests/core/test_role_policy.py's ROLE_POLICY, read page by page;
#: the API's documentation, open to any signed-in user, is offered to the roles that work with the API, core.use_api).
HIDDEN = {
    # the compliance matrix: for auditors (accounting, surveillance, admin)
    SUPERVISOR: {"Compliance"}, ADMIN: set(),
    SURVEILLANCE: {"Screens", "Qualifiers", "API"},  # display links and the qualifier designer: admins and supervisors
    FLOOR: {"Rake", "Rake audit", "Counts", "Contributions", "Reconciliation", "Screens", "Qualifiers", "Compliance",
            "API"},
    # no money, 14.19(k): nor the multi-casino system's pool (its status page is offered to who reads balances)
    DEALER: {"Dashboard", "Rake", "Rake audit", "Counts", "Contributions", "Reconciliation", "Screens", "Qualifiers",
             "Compliance", "Multi-casino", "API"},
    ACCOUNTING: {"Decks", "Irregularities", "Dealers", "Screens", "Qualifiers", "Seats"},
    SECURITY: {"Rake", "Rake audit", "Dealers", "Reconciliation", "Screens", "Qualifiers", "Seats", "Compliance",
               "API"},
}
#: Pages a role may open though its header does not offer them (Entry.perm): open to it, for its own reasons.
NOT_OFFERED = {"Multi-casino": {DEALER}, "API": {DEALER, FLOOR, SECURITY, SURVEILLANCE}}
# the dealer's own page (apps.dealers.home: the table the dealer deals at now) is offered to dealers only
HIDDEN = {role: hidden if role == DEALER else hidden | {"My table"} for role, hidden in HIDDEN.items()}
NAV = re.compile(r'<nav aria-label="Pages">(.*?)</nav>', re.S)
LINK = re.compile(r'<a href="([^"]+)"([^>]*)>([^<]+)</a>')


def nav_links(response) -> list[tuple[str, str, str]]:
    """(href, the other attributes, label) of each link of the page's header navigation."""
    found = NAV.search(response.content.decode())
    return LINK.findall(found.group(1)) if found else []


@pytest.fixture
def room(settings):
    """A casino with a table (its rake posted), its jackpot, and one user of each role."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table = RakeStructureFactory(table__number=3).table
    JackpotFactory(casino=table.casino)
    PokerTableFactory(casino=table.casino, number=4)
    return {role: StaffFactory(casino=table.casino, roles=[role]) for role in Role}


def sign_in(client, user):
    """Sign in on the sign-in page as `user`, with no `next`: the answer follows LOGIN_REDIRECT_URL."""
    return client.post("/accounts/login/", {"username": user.username, "password": PASSWORD}, follow=True)


def test_every_entry_is_a_page_with_a_read_policy():
    """Each page of the header declares its policy and answers GET; its path takes no parameter."""
    for entry in NAVIGATION:
        path, policy = route(entry.name)
        assert path == reverse(entry.name) and policy is not None, entry
        assert "GET" in policy.methods, entry
    assert set(HOMES) == set(Role)
    assert {name for names in HOMES.values() for name in names} <= {entry.name for entry in NAVIGATION}


def test_the_sign_in_lands_on_home():
    """Home is open to any signed-in user (it declares so): it only sends each one on to a page of their role."""
    assert resolve_url(settings.LOGIN_REDIRECT_URL) == reverse("home") == "/home/"
    assert route("home")[1] == policy_of(home) and policy_of(home).signed_in and policy_of(home).methods == ("GET",)


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_each_role_lands_on_its_home_and_every_link_opens(client, room, role):
    """The sign-in goes to /home/, which sends the role to its page (a 200); the header offers exactly the pages the
    role may open: each link answers 200, each page left out answers 403."""
    user = room[role]
    landed = sign_in(client, user)
    assert landed.redirect_chain == [("/home/", 302), (HOME[role], 302)]
    assert landed.status_code == 200
    assert client.get("/home/").url == HOME[role]

    links = nav_links(landed)
    assert [label for _, _, label in links] == [label for label in LABELS if label not in HIDDEN[role]]
    current = [label for href, attributes, label in links if 'aria-current="page"' in attributes]
    assert current == [next(label for href, _, label in links if href == HOME[role])]
    for href, attributes, label in links:
        response = client.get(href)
        assert response.status_code == 200, (role, label, href, response.status_code)
        assert ('target="_blank"' in attributes) == (label == "Display")
    for entry in NAVIGATION:
        if entry.label in HIDDEN[role]:
            response = client.get(reverse(entry.name))
            allowed = role in NOT_OFFERED.get(entry.label, set())
            assert response.status_code == (200 if allowed else 403), (role, entry.label, response.status_code)


def test_a_user_of_several_roles_sees_every_page_of_each(client, room):
    user = room[DEALER]
    user.groups.add(Group.objects.get(name=ACCOUNTING.value))
    client.force_login(user)
    page = client.get("/home/", follow=True)
    assert page.redirect_chain == [("/dealers/home/", 302)]  # the dealer's home: Role's order
    assert {label for _, _, label in nav_links(page)} == set(LABELS) - (HIDDEN[DEALER] & HIDDEN[ACCOUNTING])


def test_an_anonymous_visitor_is_sent_to_sign_in(client):
    response = client.get("/home/")
    assert response.status_code == 302 and response.url == f"{reverse('login')}?next=/home/"
    page = client.get(response.url)
    assert nav_links(page) == [] and b'<nav aria-label="Pages">' not in page.content


def test_home_answers_reads_only(client, room):
    client.force_login(room[SUPERVISOR])
    assert client.post("/home/").status_code == 405


@pytest.mark.parametrize("casino", [True, False], ids=["no role", "no casino"])
def test_a_user_with_no_page_gets_a_page_saying_so(client, room, casino):
    user = StaffFactory(casino=room[SUPERVISOR].casino if casino else None)
    client.force_login(user)
    assert home_url(user) is None
    page = client.get("/home/")
    assert page.status_code == 200 and "home_none.html" in [t.name for t in page.templates]
    text = page.content.decode()
    assert ("no role in the poker room" in text) == casino and ("not attached to a casino" in text) == (not casino)
    assert f'<form method="post" action="{reverse("logout")}">' in text and ">Log out</button>" in text
    assert nav_links(page) == []  # the API's documentation is open to them, but offered to the roles of the API only


def test_a_superuser_of_no_casino_gets_no_page_but_the_admin_site(client):
    user = StaffFactory(casino=None, is_superuser=True, is_staff=True)
    client.force_login(user)
    page = client.get("/home/")
    assert page.status_code == 200 and reverse("admin:index") in page.content.decode()


def test_the_styled_403_lists_where_the_role_may_go(client, room):
    client.force_login(room[DEALER])
    response = client.get("/")  # the dashboard: the room's money, not a dealer's (14.19(k))
    assert response.status_code == 403 and "403.html" in [t.name for t in response.templates]
    text = " ".join(response.content.decode().split())
    assert "This page is not for your role" in text and "not for yours (Dealer)" in text
    assert [label for _, _, label in nav_links(response)] == [label for label in LABELS if label not in HIDDEN[DEALER]]
    assert 'href="/decks/"' in text.split("Where you can go")[1] and 'href="/home/"' in text


def test_the_api_still_answers_json(client, room):
    client.force_login(room[DEALER])
    refused = client.get("/api/rake-records/")
    assert refused.status_code == 403 and refused["Content-Type"] == "application/json"
    assert "detail" in refused.json()
    missing = client.get("/api/no-such-thing/")
    assert missing.status_code == 404 and missing.json() == {"detail": "Not found."}
    request = RequestFactory().get("/api/rounds/")
    request.user = room[DEALER]
    answer = permission_denied(request, PermissionDenied())
    assert answer.status_code == 403 and answer["Content-Type"] == "application/json"


def test_a_404_renders_the_styled_page(client, room):
    client.force_login(room[FLOOR])
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "404.html" in [t.name for t in response.templates]
    text = response.content.decode()
    assert "There is no page at this address" in text and "/no-such-page/" in text and 'href="/home/"' in text
    assert [label for _, _, label in nav_links(response)] == [label for label in LABELS if label not in HIDDEN[FLOOR]]
    client.logout()
    anonymous = client.get("/no-such-page/")
    assert anonymous.status_code == 404 and nav_links(anonymous) == []


def test_the_500_page_renders_without_a_request_or_the_database(django_assert_num_queries):
    """Django's handler renders 500.html with no request context: no user, no navigation, no query."""
    with django_assert_num_queries(0):
        text = render_to_string("500.html")
        response = defaults.server_error(RequestFactory().get("/"))
    assert "Something went wrong" in text and 'href="/home/"' in text and "<nav" not in text
    assert response.status_code == 500 and b"Something went wrong" in response.content


def test_every_role_has_a_home_when_it_has_a_casino(room):
    assert {role: home_url(user) for role, user in room.items()} == HOME


class HeaderEntries(HTMLParser):
    """The top entries of the header's navigation (<nav aria-label="Pages">): ("link", label) for a link, ("menu",
    label, [its links' labels]) for a menu (a <details> with its <summary>)."""

    def __init__(self):
        super().__init__()
        self.entries, self.depth, self.menu, self.text, self.where = [], 0, None, "", None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "nav" and attributes.get("aria-label") == "Pages":
            self.depth = 1
        elif self.depth and tag == "details":
            self.menu = {"class": attributes.get("class"), "label": "", "links": []}
        elif self.depth and tag in ("a", "summary"):
            self.where, self.text = tag, ""
        elif self.depth and tag == "span" and self.where == "summary":
            self.where = "hidden"  # the screen reader's words beside the label

    def handle_endtag(self, tag):
        if tag == "nav" and self.depth:
            self.depth = 0
        elif self.depth and tag == "details" and self.menu is not None:
            self.entries.append(("menu", self.menu["label"], self.menu["links"], self.menu["class"]))
            self.menu = None
        elif self.depth and tag == "a":
            if self.menu is not None:
                self.menu["links"].append(self.text.strip())
            else:
                self.entries.append(("link", self.text.strip()))
            self.where = None
        elif self.depth and tag == "summary":
            self.menu["label"], self.where = self.text.strip(), None

    def handle_data(self, data):
        if self.where in ("a", "summary"):
            self.text += data


def header_entries(response) -> list[tuple]:
    parser = HeaderEntries()
    parser.feed(response.content.decode())
    return parser.entries


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_the_header_shows_at_most_eight_entries_at_its_top(client, room, role):
    """Issue 34: on a phone (390 px) no role's header shows more than eight entries at its top; the rest fold under
    a few menus (<details> with its button, <summary>), each of two links or more, the pages in the header's order."""
    client.force_login(room[role])
    page = client.get(HOME[role])
    entries = header_entries(page)
    assert 1 <= len(entries) <= MOST_AT_TOP, (role, entries)
    menus = [entry for entry in entries if entry[0] == "menu"]
    assert all(label in {FLOOR_MENU, JACKPOT, ACCOUNTING_MENU, SYSTEM} and len(links) >= 2 and css == "nav-group"
               for _, label, links, css in menus), menus
    labels = [label for entry in entries for label in ([entry[1]] if entry[0] == "link" else entry[2])]
    assert labels == [label for _, _, label in nav_links(page)] == [
        label for label in LABELS if label not in HIDDEN[role]]
    if role in (SUPERVISOR, ADMIN):  # the most pages: every group is a menu
        assert [label for _, label, _, _ in menus] == [FLOOR_MENU, JACKPOT, ACCOUNTING_MENU, SYSTEM]


def test_a_menu_marks_the_page_shown_and_a_group_of_one_is_a_link(client, room):
    """The menu that holds the page shown says so (its button, and in words for a screen reader); surveillance is
    offered one page of the System group (Compliance): a link of its own, no menu."""
    client.force_login(room[SUPERVISOR])
    text = client.get(reverse("badbeat:claims")).content.decode()
    assert '<summary class="current">Jackpot<span class="sr-only"> (current section)</span></summary>' in text
    assert 'href="/jackpot/claims/" aria-current="page">Claims</a>' in text
    client.force_login(room[SURVEILLANCE])
    entries = header_entries(client.get(HOME[SURVEILLANCE]))
    assert ("link", "Compliance") in entries and SYSTEM not in [entry[1] for entry in entries if entry[0] == "menu"]
