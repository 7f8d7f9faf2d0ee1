"""The header's navigation and each user's home, read from the role policy of the URLs (apps.core.policy).

`NAVIGATION` lists the header's pages in order, by URL name. A user is offered a page when the policy its view
declares lets them read it (GET): `may_open` resolves the URL name to its view (`resolve(reverse(name))`), reads the
view's policy with `policy_of` and checks its GET permission as the page checks it (`page_access`: signed in, of a
casino, holding the permission). So the header never offers a page that answers 403, and a page whose policy
changes in an app's rules.py appears or disappears with it; there is no list of roles here.

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

from .policy import Policy, policy_of
from .roles import Role
from .views import may_access


@dataclass(frozen=True)
class Entry:
    """One page of the header: its URL name (with its namespace), its label, whether it opens in a tab of its own
    (the room's jackpot display), and whether it may be a user's home (the API's documentation may not)."""

    name: str
    label: str
    new_tab: bool = False
    home: bool = True


NAVIGATION: tuple[Entry, ...] = (
    Entry("dealers:home", "My table"),
    Entry("floor:dashboard", "Floor"),
    Entry("floor:rounds", "Rounds"),
    Entry("seats:board", "Seats"),
    Entry("decks:board", "Decks"),
    Entry("rake:revenue", "Rake"),
    Entry("irregularities:list", "Irregularities"),
    Entry("dealers:rotation", "Dealers"),
    Entry("badbeat:claims", "Claims"),
    Entry("badbeat:display", "Display", new_tab=True),
    Entry("badbeat:rules", "Jackpot rules"),
    Entry("qualifiers:designer", "Qualifiers", home=False),
    Entry("screens:links", "Screens"),
    Entry("multicasino:status", "Multi-casino"),
    Entry("counts:counts", "Counts"),
    Entry("floor:contributions", "Contributions"),
    Entry("counts:reconciliation", "Reconciliation"),
    Entry("compliance:matrix", "Compliance"),
    Entry("swagger-ui", "API", home=False),
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
    if policy is None:
        return False
    if policy.anyone:
        return "GET" in policy.methods
    if not user.is_authenticated:
        return False
    if policy.signed_in:
        return "GET" in policy.methods
    perm = policy.perms.get("GET")
    return may_access(user, perm) if perm else False


def links_for(request: HttpRequest) -> list[Link]:
    """The header's links the request's user may open, in `NAVIGATION`'s order; the one of the page shown marked
    current. None for a visitor who is not signed in."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    links = []
    for entry in NAVIGATION:
        if may_open(user, entry.name):
            url = route(entry.name)[0]
            links.append(Link(entry.label, url, entry.new_tab, current=request.path == url))
    return links


def home_url(user: Any) -> str | None:
    """The path of the first page `user` may open among their roles' `HOMES` (in `Role`'s order), then among the
    header's pages that may be a home; None when there is none (no casino, no role, or a role with no page)."""
    held = set(user.role_names())
    candidates = [name for role in Role if role.value in held for name in HOMES.get(role, ())]
    candidates += [entry.name for entry in NAVIGATION if entry.home]
    for name in dict.fromkeys(candidates):
        if may_open(user, name):
            return route(name)[0]
    return None


def navigation(request: HttpRequest) -> dict[str, Any]:
    """Context processor (settings.TEMPLATES): `nav_links`, the header's links the signed-in user may open (see
    `links_for`), worked out only when a template shows them (an htmx partial does not)."""
    return {"nav_links": SimpleLazyObject(lambda: links_for(request))}
