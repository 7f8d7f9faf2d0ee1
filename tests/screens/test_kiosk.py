"""The waitlist kiosk, opened by a kiosk link with no staff session (N.J.A.C. 13:69F-14.18; issue 32, item 6).

The kiosk's page is the join form and the room's lists (lengths only) and links to nothing but itself; a patron puts
their own name on a list through it (CSRF-checked, throttled per link); it never shows another player's name, initials
or phone; the browser it runs in holds no staff session, so it opens no staff page or API operation; a revoked link
stops it at once; `manage.py issue_screen_link` prints a link that opens it."""
import re
from datetime import timedelta
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from apps.core.roles import Role
from apps.core.rotation import STOP_POLLING
from apps.screens.models import DisplayLink, ScreenKind
from apps.screens.selectors import screen_path
from apps.screens.services import issue_display_link, revoke_display_link
from apps.seats.models import EventKind, FloorEvent, WaitlistEntry, WaitlistSource
from tests.factories import CasinoFactory, PokerTableFactory, StaffFactory
from tests.seats.factories import entry, waitlist_for
from tests.support.shown import shown as strip

pytestmark = pytest.mark.django_db
#: What a waiting player gave the floor: none of it may ever show on the kiosk.
OTHERS = ("Zed Early", "Zed", "Early", "Z.E.", "609-555-0199", "555-0199", "Quincy Vantablack", "Q.V.", "Quincy")
LINES_POLL = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "kiosk-lines"}


@pytest.fixture
def admin(staff):
    return staff(Role.ADMIN)


@pytest.fixture
def room(casino, admin):
    """An open table 3 with its list, two players waiting on it (one with a phone), and a kiosk link."""
    table = PokerTableFactory(casino=casino, number=3, seats=9)
    waitlist = waitlist_for(table)
    now = timezone.now()
    entry(waitlist, "Zed Early", now - timedelta(minutes=5), phone="609-555-0199")
    entry(waitlist, "Quincy Vantablack", now - timedelta(minutes=4))
    link = issue_display_link(casino=casino, kind=ScreenKind.KIOSK, name="Desk tablet", issued_by=admin)
    return {"table": table, "waitlist": waitlist, "link": link, "path": screen_path(link)}


@pytest.fixture
def patron():
    """A browser with no session whose forms are CSRF-checked, as a real browser's are."""
    return Client(enforce_csrf_checks=True)


class Page(HTMLParser):
    """The links, forms (action, method, fields), polls and navigation of a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.hrefs, self.forms, self.gets, self.tags = [], [], [], set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        if tag == "a":
            self.hrefs.append(attrs.get("href", ""))
        if tag == "form":
            self.forms.append({"action": attrs.get("action"), "method": attrs.get("method", "get"), "fields": {}})
        if tag in ("input", "select", "textarea", "button") and self.forms and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")
        for verb in ("hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete"):
            if verb in attrs:
                self.gets.append(attrs[verb])


def csrf_of(html: str) -> str:
    return Page(html).forms[0]["fields"]["csrfmiddlewaretoken"]


def join(patron, room, name="Ann Lee", phone="", **extra):
    """The patron opens the kiosk and sends its form (with the page's CSRF token)."""
    page = patron.get(room["path"]).content.decode()
    if "csrfmiddlewaretoken" not in page:  # the page that showed the last patron their place: the next one's form
        page = patron.get(room["path"]).content.decode()
    data = {"csrfmiddlewaretoken": csrf_of(page), "waitlist": room["waitlist"].pk, "name": name,
            "phone": phone} | extra
    return patron.post(room["path"], data)


def assert_no_other_player(html: str) -> None:
    html = strip(html, *re.findall(r"/screens/[^\"'\s</]+/", html))  # a token or signed link may hold "Zed"
    for secret in OTHERS:
        assert secret not in html, secret


class TestTheKioskPage:
    def test_it_is_the_join_form_and_links_to_nothing_but_itself(self, patron, room):
        answer = patron.get(room["path"])
        html = answer.content.decode()
        page = Page(html)
        assert answer.status_code == 200 and "_auth_user_id" not in patron.session
        assert [f["action"] for f in page.forms] == [room["path"]]  # one form, posted to the kiosk's own link
        assert page.forms[0]["method"] == "post"
        assert set(page.forms[0]["fields"]) == {"csrfmiddlewaretoken", "waitlist", "name", "phone"}  # no "source"
        assert all(href == room["path"] or href.startswith("#") for href in page.hrefs), page.hrefs
        assert set(page.gets) == {room["path"]}  # the lists' poll, of the link itself
        assert "nav" not in page.tags and "Log out" not in html and "Menu" not in html
        for staff_path in ("/seats/", "/screens/\"", "/floor", "/jackpot/", "/admin/", "/api/", "/home/",
                           "/accounts/"):
            assert staff_path not in html, staff_path
        assert answer["Cache-Control"].startswith("max-age=0")  # it holds a CSRF token: never kept by a cache

    def test_14_18_it_shows_each_list_s_length_never_a_name_initials_or_phone(self, patron, room):
        html = patron.get(room["path"]).content.decode()
        waitlist = room["waitlist"]
        assert waitlist.limits in html and re.search(r"<td>9</td><td>2</td>", html)  # 9 vacant seats, 2 waiting
        assert_no_other_player(html)
        poll = patron.get(room["path"], **LINES_POLL)
        assert poll.status_code == 200 and "<html" not in poll.content.decode() and "<form" not in poll.content.decode()
        assert re.search(r"<td>9</td><td>2</td>", poll.content.decode())
        assert_no_other_player(poll.content.decode())

    def test_14_18_a_patron_adds_themselves_and_sees_their_place_once(self, patron, room):
        answer = join(patron, room, name="Ann Lee", phone="609 555 0100")
        assert answer.status_code == 302 and answer["Location"] == room["path"]
        ann = WaitlistEntry.objects.get(name="Ann Lee")
        assert (ann.source, ann.phone, ann.waitlist, ann.checked_in_at is not None) == (
            WaitlistSource.KIOSK, "609 555 0100", room["waitlist"], True)
        added = FloorEvent.objects.get(kind=EventKind.ADDED, entry=ann)
        assert (added.by, added.kiosk) == (None, "Desk tablet")  # no staff member added them: the kiosk did
        shown = patron.get(room["path"]).content.decode()
        assert "You are on the list" in shown and "number 3" in shown and room["waitlist"].limits in shown
        assert "Ann" not in strip(shown, room["path"]) and "0100" not in strip(shown, room["path"])  # their own name neither: the next patron reads the screen
        assert_no_other_player(shown)
        page = Page(shown)
        assert page.forms == [] and set(page.hrefs) == {room["path"]} and set(page.gets) == {room["path"]}
        again = patron.get(room["path"]).content.decode()
        assert "You are on the list" not in again and 'name="waitlist"' in again  # the next patron's empty form
        assert "_auth_user_id" not in patron.session

    @pytest.mark.parametrize("name, phone, field", [("", "", "name"), ("Ann", "call me", "phone")])
    def test_a_bad_form_answers_400_beside_its_field_and_writes_nothing(self, patron, room, name, phone, field):
        answer = join(patron, room, name=name, phone=phone)
        html = answer.content.decode()
        assert answer.status_code == 400 and f'id="id_{field}_error"' in html and 'data-testid="form-errors"' in html
        assert_no_other_player(html)
        assert WaitlistEntry.objects.count() == 2 and not FloorEvent.objects.exists()

    def test_a_list_of_another_casino_is_refused(self, patron, room):
        theirs = waitlist_for(PokerTableFactory(casino=CasinoFactory(), number=5))
        answer = join(patron, room, waitlist=theirs.pk)
        assert answer.status_code == 400 and not theirs.entries.exists() and not FloorEvent.objects.exists()

    def test_the_form_is_csrf_checked(self, patron, room):
        patron.get(room["path"])
        answer = patron.post(room["path"], {"waitlist": room["waitlist"].pk, "name": "Forged"})
        assert answer.status_code == 403 and not WaitlistEntry.objects.filter(name="Forged").exists()

    def test_sign_ups_are_throttled_per_link(self, patron, room, settings, admin):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "kiosk": "2/min"}}
        assert join(patron, room, name="One").status_code == 302
        assert join(patron, room, name="").status_code == 400  # a refused form counts too
        third = join(patron, room, name="Three")
        assert third.status_code == 429 and int(third["Retry-After"]) >= 1
        assert "try again in" in third.content.decode() and 'value="Three"' in third.content.decode()  # kept as typed
        assert not WaitlistEntry.objects.filter(name="Three").exists()
        other = issue_display_link(casino=room["link"].casino, kind=ScreenKind.KIOSK, name="Bar tablet",
                                   issued_by=admin)
        assert join(patron, room | {"path": screen_path(other)}, name="Four").status_code == 302  # its own budget


class TestNoStaffSession:
    STAFF_PAGES = ("/", "/seats/", "/seats/kiosk/", "/seats/record/", "/screens/", "/rounds/", "/jackpot/display/",
                   "/home/")
    API = ("/api/rounds/", "/api/claims/", "/api/jackpots/", "/api/counts/", "/api/schema/")

    def test_the_kiosk_s_browser_opens_no_staff_page_nor_api(self, patron, room):
        assert join(patron, room).status_code == 302
        patron.get(room["path"])
        for path in self.STAFF_PAGES:
            answer = patron.get(path)
            assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/"), path
        for path in self.API:
            assert patron.get(path).status_code in (401, 403), path
        assert patron.post("/seats/", {"action": "add", "waitlist": room["waitlist"].pk, "name": "X",
                                       "source": "in_person"}).status_code in (302, 403)
        assert not WaitlistEntry.objects.filter(name="X").exists()

    def test_a_signed_in_browser_is_asked_to_sign_out_first(self, room, staff):
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(staff(Role.FLOORPERSON))
        page = browser.get(room["path"])
        html = page.content.decode()
        assert page.status_code == 200 and "This browser is signed in" in html
        assert 'name="waitlist"' not in html and "nav" not in Page(html).tags
        token = csrf_of(html)
        refused = browser.post(room["path"], {"csrfmiddlewaretoken": token, "waitlist": room["waitlist"].pk,
                                              "name": "Staff"})
        assert refused.status_code == 403 and not WaitlistEntry.objects.filter(name="Staff").exists()
        poll = browser.get(room["path"], **LINES_POLL)
        assert poll.status_code == STOP_POLLING and poll["HX-Retarget"] == "#kiosk"
        signed_out = browser.post(room["path"], {"csrfmiddlewaretoken": token, "action": "sign_out"})
        assert signed_out.status_code == 302 and signed_out["Location"] == room["path"]
        assert "_auth_user_id" not in browser.session
        assert 'name="waitlist"' in browser.get(room["path"]).content.decode()
        assert browser.get("/seats/")["Location"].startswith("/accounts/login/")


class TestRevoked:
    def test_a_revoked_kiosk_link_is_refused_at_once(self, patron, room, admin):
        page = patron.get(room["path"]).content.decode()
        revoke_display_link(link=room["link"], revoked_by=admin)
        sent = patron.post(room["path"], {"csrfmiddlewaretoken": csrf_of(page), "waitlist": room["waitlist"].pk,
                                          "name": "Late Larry"})
        assert sent.status_code == 403 and "This screen&#x27;s link was revoked" in sent.content.decode()
        assert not WaitlistEntry.objects.filter(name="Late Larry").exists()
        assert patron.get(room["path"]).status_code == 403
        poll = patron.get(room["path"], **LINES_POLL)
        html = poll.content.decode()
        assert poll.status_code == STOP_POLLING and poll["HX-Retarget"] == "#kiosk"  # the notice replaces the form too
        assert 'id="kiosk"' in html and "revoked" in html and "<form" not in html and "hx-get" not in html

    def test_a_jackpot_link_takes_no_post(self, patron, room, admin):
        jackpot = issue_display_link(casino=room["link"].casino, kind=ScreenKind.JACKPOT, name="Rail",
                                     issued_by=admin)
        token = csrf_of(patron.get(room["path"]).content.decode())
        assert patron.post(screen_path(jackpot), {"csrfmiddlewaretoken": token}).status_code == 405


class TestIssuing:
    def test_an_administrator_issues_a_kiosk_link_on_the_screens_page(self, client, admin, room):
        client.force_login(admin)
        client.post("/screens/", {"kind": "kiosk", "name": "Second tablet", "location": "Desk"})
        link = DisplayLink.objects.get(name="Second tablet")
        assert link.kind == ScreenKind.KIOSK and link.issued_by == admin
        assert "Waitlist kiosk" in client.get("/screens/").content.decode()

    def test_the_command_prints_a_working_link(self, patron, room, admin, staff):
        staff(Role.ADMIN)  # a second administrator: the first (lowest id) issues it
        out, err = StringIO(), StringIO()
        call_command("issue_screen_link", "--kind", "kiosk", "--casino", room["link"].casino.code,
                     "--base-url", "http://testserver/", stdout=out, stderr=err)
        url = out.getvalue().strip()
        link = DisplayLink.objects.latest("id")
        assert url == f"http://testserver{screen_path(link)}" and len(out.getvalue().splitlines()) == 1
        assert (link.kind, link.name, link.issued_by) == (ScreenKind.KIOSK, "Waitlist kiosk", admin)
        assert "Issued" in err.getvalue() and admin.username in err.getvalue()
        page = patron.get(url.removeprefix("http://testserver"))
        assert page.status_code == 200 and 'name="waitlist"' in page.content.decode()

    def test_the_command_without_a_base_url_prints_the_path(self, room, admin):
        out = StringIO()
        call_command("issue_screen_link", "--kind", "games", "--casino", room["link"].casino.code, "--name", "Rail 2",
                     "--issued-by", admin.username, stdout=out, stderr=StringIO())
        link = DisplayLink.objects.get(name="Rail 2")
        assert out.getvalue().strip() == screen_path(link) and link.kind == ScreenKind.GAMES

    @pytest.mark.parametrize("args, message", [
        (["--casino", "nowhere"], "No casino has the code"),
        (["--issued-by", "nobody-here"], "No active user"),
        (["--issued-by", "{floor}"], "Only an administrator"),
        (["--base-url", "ftp://x"], "--base-url"),
    ])
    def test_the_command_refuses(self, room, staff, args, message):
        floor = staff(Role.FLOORPERSON)
        args = [a.format(floor=floor.username) for a in args]
        base = ["--kind", "kiosk", "--casino", room["link"].casino.code]
        with pytest.raises(CommandError, match=message):
            call_command("issue_screen_link", *base, *args, stdout=StringIO(), stderr=StringIO())
        assert DisplayLink.objects.count() == 1

    def test_the_command_needs_an_administrator_when_none_is_named(self):
        casino = CasinoFactory()
        StaffFactory(casino=casino, roles=[Role.FLOORPERSON])
        with pytest.raises(CommandError, match="no active administrator"):
            call_command("issue_screen_link", "--kind", "kiosk", "--casino", casino.code, stdout=StringIO(),
                         stderr=StringIO())
