"""A small room with something on every page, and a signed-in page per role: what the responsive and accessibility
browser tests (test_responsive.py, test_accessibility.py) look at. Not a fixture module: the tests call it."""
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.test import Client
from django.utils import timezone

from apps.badbeat.models import Claim
from apps.casinos.models import Department, LicenseType, User
from apps.core.roles import Role
from apps.decks.services import assign_deck, receive_deck
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.irregularities.models import IrregularityKind
from apps.irregularities.services import log_irregularity
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

D = Decimal
PASSWORD = "pw-for-tests-1"
#: The staff each role signs in as (departments where the segregation of duties asks for one).
EXTRA = {Role.SECURITY: {"department": Department.SECURITY},
         Role.ACCOUNTING: {"department": Department.ACCOUNTING, "license_type": LicenseType.CASINO_KEY_EMPLOYEE},
         Role.SURVEILLANCE: {"department": Department.SURVEILLANCE}}


@dataclass
class Room:
    """What was seeded: the table with rounds, its bad-beat round and pending claim; the user name of each role."""

    table: object
    bad_beat: object
    claim: Claim
    usernames: dict[Role, str] = field(default_factory=dict)

    def detail_pages(self, role: Role) -> list[str]:
        """Pages beyond the header's that a role opens all day: the supervisor's table, round and claim."""
        if role in (Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN):
            return [f"/tables/{self.table.pk}/", f"/rounds/{self.bad_beat.pk}/", f"/jackpot/claims/{self.claim.pk}/"]
        return []


def seed_room() -> Room:
    """A casino with a staff member per role; table 3 (rake posted) with a few rounds and a bad beat whose claim is
    pending, two decks at it and one in storage, an irregularity; table 4, open and empty; the primary jackpot."""
    table = RakeStructureFactory(table__number=3).table
    casino = table.casino
    JackpotFactory(casino=casino, minimum_players_dealt=2)
    PokerTableFactory(casino=casino, number=4)
    usernames = {}
    for role in Role:
        usernames[role] = f"{role.value}_user"
        StaffFactory(username=usernames[role], first_name=role.label, last_name="Tester", casino=casino,
                     roles=[role], **EXTRA.get(role, {}))
    supervisor = StaffFactory(username="seeding_sup", casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    for board, first, second in (("2h 7d 9c Js Kd", "As Ac", "Qh Qd"), ("3c 8d Th Qs 2s", "Kh Kc", "Jh Td"),
                                 ("4d 5d 6h 9s Ac", "Ah Ad", "7c 8c")):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=[
            PlayerIn(seat=1, name="Ana", contributed=D("25"), hole_cards=first),
            PlayerIn(seat=2, name="Ben", contributed=D("25"), hole_cards=second)]))
    bad_beat = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s",
                                                                 players=[
        PlayerIn(seat=1, name="Ana", contributed=D("100"), hole_cards="9s 9c"),
        PlayerIn(seat=2, name="Ben", contributed=D("100"), hole_cards="5s 4s")]))
    for serial, colour in (("R-1001", "red"), ("B-2001", "blue")):
        deck = receive_deck(casino=casino, serial=serial, back_colour=colour, back_design="Boardwalk", by=supervisor)
        assign_deck(deck=deck, table=table, by=supervisor)
    receive_deck(casino=casino, serial="G-3001", back_colour="green", by=supervisor)  # one in storage, to assign
    log_irregularity(table=table, kind=IrregularityKind.EXPOSED_CARD, reported_by=supervisor,
                     description="A card was exposed while dealing the flop.")
    return Room(table=table, bad_beat=bad_beat, claim=Claim.objects.get(round_of_play=bad_beat), usernames=usernames)


def sign_in(browser, base_url: str, username: str, *, width: int = 1440, height: int = 900):
    """A browser context of its own, signed in as `username` (a session made as the sign-in page makes one, given to
    the browser as its cookie: tests/browser/test_navigation.py signs in through the page), on the user's home page;
    returns its page."""
    client = Client()
    client.force_login(User.objects.get(username=username))
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base_url}/home/")
    assert "/accounts/login/" not in page.url, username
    return page


def header_pages(page) -> list[tuple[str, str]]:
    """(href, label) of every link the header's navigation shows on the current page."""
    return page.eval_on_selector_all("header nav a", "links => links.map(a => [a.getAttribute('href'), "
                                                     "a.textContent.trim()])")


#: A page's main content in the HTML the server sends (its body when it has no <main>), without its forms' CSRF tokens.
MAIN, BODY = re.compile(r"<main\b.*?</main>", re.S), re.compile(r"<body\b.*?</body>", re.S)
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"')
TEXT = re.compile(r">[^<]*<")


def main_content(page, url: str, *, text: bool) -> str:
    """The main content of the page at `url` as the server sends it to the signed-in user of `page` (the request shares
    the context's cookies; nothing is drawn, which costs a fraction of a visit), with its text or, without `text`, its
    markup only. Two pages with the same are the same page as far as layout (with text) and accessibility (without) go:
    one page as two roles that see the same see it. Asserts that the page answers 200."""
    answer = page.request.get(url)
    assert answer.status == 200, (url, answer.status)
    found = MAIN.search(answer.text()) or BODY.search(answer.text())
    content = TOKEN.sub("", found.group(0) if found else answer.text())
    return content if text else TEXT.sub("><", content)
