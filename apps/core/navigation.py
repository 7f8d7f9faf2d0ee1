"""The header's navigation and each user's home, read from the role policy of the URLs (apps.core.policy).

`NAVIGATION` lists the header's pages in order, by URL name. A user is offered a page when the policy its view
declares lets them read it (GET): `may_open` resolves the URL name to its view (`resolve(reverse(name))`), reads the
view's policy with `policy_of` and checks its GET permission as the page checks it (`page_access`: signed in, of a
casino, holding the permission; apps.core.policy.allows). So the header never offers a page that answers 403, and a
page whose policy changes in an app's rules.py appears or disappears with it; there is no list of roles here. A page
whose link is for some of the roles that may read it (the API's documentation, open to any signed-in user; the
multi-casino system's status, with its pool) names the permission of an app's rules.py that the link also needs
(`Entry.perm`).

The header groups its pages (`Entry.group`) so that no role sees more than `MOST_AT_TOP` entries at its top, on a
phone too (issue 34): each group the user is offered two pages or more of is one menu (`Menu`, a <details> in
base.html); a group of which the user is offered one page shows that page as a link of its own (`header_for`).

`HOMES` orders, for each role, the pages where that role's work starts; `home_url` is the first of them the user
may open (the user's roles in `Role`'s order, then the header's pages in theirs). The policy decides; the lists only
order. The `home` view (apps.core.home) redirects to it, and the sign-in lands there (LOGIN_REDIRECT_URL).
"""
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import NoReverseMatch, get_urlconf, resolve, reverse
from django.utils.functional import SimpleLazyObject

from .policy import Policy, allows, policy_of
from .roles import Role
from .views import may_access


@dataclass(frozen=True)
class Entry:
    """One page of the header: its URL name (with its namespace), its label, whether it opens in a tab of its own
    (the room's jackpot display), whether it may be a user's home (the API's documentation may not), the header's
    menu it belongs to ("" for none), and a permission the user must hold for the header to offer it besides reading
    the page ("" for none: for a page open to any signed-in user whose link is for some roles only)."""

    name: str
    label: str
    new_tab: bool = False
    home: bool = True
    group: str = ""
    perm: str = ""


#: The header's menus, in order, by the group named in `Entry.group`.
FLOOR, JACKPOT, ACCOUNTING, SYSTEM = "Floor", "Jackpot", "Accounting", "System"
#: The most entries (links and menus) the header shows at its top, for any role (a phone's width, 390 px).
MOST_AT_TOP = 8

NAVIGATION: tuple[Entry, ...] = (
    Entry("dealers:home", "My table"),
    Entry("floor:dashboard", "Dashboard", group=FLOOR),
    Entry("floor:rounds", "Rounds", group=FLOOR),
    Entry("dealers:rotation", "Dealers", group=FLOOR),
    Entry("decks:board", "Decks"),
    Entry("seats:board", "Seats"),
    Entry("irregularities:list", "Irregularities"),
    Entry("badbeat:claims", "Claims", group=JACKPOT),
    Entry("badbeat:display", "Display", new_tab=True, group=JACKPOT),
    Entry("badbeat:rules", "Jackpot rules", group=JACKPOT),
    Entry("qualifiers:designer", "Qualifiers", home=False, group=JACKPOT),
    # every role may read the system's status (tests/multicasino); its pool and ledgers are balances, so the link is
    # offered to the roles that read balances (badbeat.view_balance: not the dealers, 14.19(k))
    Entry("multicasino:status", "Multi-casino", group=JACKPOT, perm="badbeat.view_balance"),
    Entry("rake:revenue", "Rake", group=ACCOUNTING),
    Entry("feed:rake-audit", "Rake audit", home=False, group=ACCOUNTING),
    Entry("counts:counts", "Counts", group=ACCOUNTING),
    Entry("floor:contributions", "Contributions", group=ACCOUNTING),
    Entry("counts:reconciliation", "Reconciliation", group=ACCOUNTING),
    Entry("screens:links", "Screens", group=SYSTEM),
    Entry("compliance:matrix", "Compliance", group=SYSTEM),
    # open to any signed-in user (a token's holder reads it); offered to the roles that work with the API (core.use_api)
    Entry("swagger-ui", "API", home=False, group=SYSTEM, perm="core.use_api"),
)

#: Where each role's work starts, first choice first (only an order: each is offered only when the policy allows).
HOMES: dict[Role, tuple[str, ...]] = {
    Role.POKER_SHIFT_SUPERVISOR: ("floor:dashboard", "badbeat:claims", "decks:board"),
    Role.ADMIN: ("floor:dashboard", "multicasino:status"),
    # the floor: the decks at the tables, the dealers' rotation, what went wrong
    Role.FLOORPERSON: ("decks:board", "dealers:rotation", "irregularities:list", "floor:dashboard"),
    # a dealer: the table dealt now with its decks to handle and an irregularity to report, then the whole board...
    Role.DEALER: ("dealers:home", "decks:board", "irregularities:list", "dealers:rotation", "badbeat:display"),
    # accounting: the contributions ledger, the counts, the reconciliation, the revenue
    Role.ACCOUNTING: ("floor:contributions", "counts:counts", "counts:reconciliation", "rake:revenue"),
    # security delivers the payouts of the claims; surveillance watches what went wrong
    Role.SECURITY: ("badbeat:claims", "irregularities:list", "decks:board", "badbeat:display"),
    Role.SURVEILLANCE: ("irregularities:list", "badbeat:claims", "decks:board", "badbeat:display"),
}


@dataclass(frozen=True)
class Link:
    """A link of the header, as the template shows it."""

    label: str
    url: str
    new_tab: bool
    current: bool
    group: str = ""


@dataclass(frozen=True)
class Menu:
    """A menu of the header: its label and its links (two or more), as the template shows it."""

    label: str
    links: tuple[Link, ...]

    @property
    def current(self) -> bool:
        """Whether the page shown is one of the menu's."""
        return any(link.current for link in self.links)


@lru_cache(maxsize=256)
def _route(name: str, urlconf: str) -> tuple[str, Policy | None]:
    """(path, declared policy) of a URL name without parameters; the URL configuration does not change while the
    process runs, so each is read once (per URL configuration)."""
    path = reverse(name, urlconf=urlconf)
    return path, policy_of(resolve(path, urlconf=urlconf).func)


def route(name: str) -> tuple[str, Policy | None]:
    """The path of URL name `name` and the role policy its view declares (None when it declares none)."""
    return _route(name, get_urlconf() or settings.ROOT_URLCONF)


def may_open(user: Any, name: str) -> bool:
    """Whether `user` may read (GET) the page named `name`, by the policy its view declares: open to anyone, to any
    signed-in user, or to a user of a casino holding the GET permission (`may_access`, as `page_access` checks).
    A URL that declares no policy, or answers no GET, is never offered."""
    try:
        _, policy = route(name)
    except NoReverseMatch:
        return False
    return allows(policy, user, "GET")


def offered(user: Any, entry: Entry) -> bool:
    """Whether the header offers `entry` to `user`: the user may open its page (`may_open`) and holds the entry's own
    permission, when it names one (`Entry.perm`)."""
    return may_open(user, entry.name) and (not entry.perm or may_access(user, entry.perm))


def links_for(request: HttpRequest) -> list[Link]:
    """The header's links the request's user may open, in `NAVIGATION`'s order; the one of the page shown marked
    current. None for a visitor who is not signed in."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    links = []
    for entry in NAVIGATION:
        if offered(user, entry):
            url = route(entry.name)[0]
            links.append(Link(entry.label, url, entry.new_tab, current=request.path == url, group=entry.group))
    return links


def header_for(links: list[Link]) -> list[Link | Menu]:
    """The header's top entries for `links` (`links_for`), in their order: a link of no group, a menu for each
    group of two links or more (at the place of its first link), the link itself for a group of one."""
    grouped: dict[str, list[Link]] = {}
    for link in links:
        grouped.setdefault(link.group, []).append(link)
    entries: list[Link | Menu] = []
    for link in links:
        members = grouped[link.group]
        if not link.group or len(members) == 1:
            entries.append(link)
        elif link is members[0]:
            entries.append(Menu(link.group, tuple(members)))
    return entries


def home_url(user: Any) -> str | None:
    """The path of the first page `user` may open among their roles' `HOMES` (in `Role`'s order), then among the
    header's pages that may be a home; None when there is none (no casino, no role, or a role with no page)."""
    held = set(user.role_names())
    candidates = [name for role in Role if role.value in held for name in HOMES.get(role, ())]
    candidates += [entry.name for entry in NAVIGATION if entry.home]
    entries = {entry.name: entry for entry in NAVIGATION}
    for name in dict.fromkeys(candidates):
        if offered(user, entries[name]):
            return route(name)[0]
    return None


def navigation(request: HttpRequest) -> dict[str, Any]:
    """Context processor (settings.TEMPLATES): `nav_links`, the header's links the signed-in user may open (see
    `links_for`), and `nav_header`, the same as the header's top entries, links and menus (`header_for`); each worked
    out only when a template shows it (an htmx partial does not)."""
    links = SimpleLazyObject(lambda: links_for(request))
    return {"nav_links": links, "nav_header": SimpleLazyObject(lambda: header_for(list(links)))}
