"""The room's public page, /public/<code>/ (N.J.A.C. 13:69F-14.18): the official public feed (feed.public_feed, the
same representation GET /api/public/<code>/ answers) for a player's phone, with no sign-in.

The page refreshes its own region by an htmx poll of this URL (no script of its own: the CSP holds) and says when
its content last changed. A code no casino has, or a casino that turned its feed off, is the styled 404 page; a poll
of it is answered with a neutral notice that replaces the region and stops the polling (STOP_POLLING), so that a
page left open never keeps showing games the room no longer publishes.

Like the feed, the page is rate limited per client address (DRF's throttle, scope `public_page`, its own rate: a
room's phones may share one address on its Wi-Fi, each polling every POLL_SECONDS): past the rate, 429 with
Retry-After, a short styled page that says when to try again; a poll's 429 leaves the region as it was (htmx does
not swap an error) and the next poll tries again."""
from __future__ import annotations

from types import SimpleNamespace

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from apps.core.money import dollars
from apps.core.policy import public
from apps.core.rotation import STOP_POLLING

from .apis import PublicFeedThrottle
from .feed import MAX_AGE, public_feed
from .selectors import published_casino

#: The page's region polls every POLL_SECONDS.
POLL_SECONDS = 30
#: The throttle's scope (settings.REST_FRAMEWORK's DEFAULT_THROTTLE_RATES): requests per client address.
PUBLIC_PAGE_SCOPE = "public_page"


@public("The room's public page (14.18): the public feed's games, seats, waitlist lengths and jackpots for a "
        "player's phone, never a player's name; read-only; the room may turn it off.")
@require_safe
def public_page(request, code: str):
    """The public page of the casino `code` (see the module); its region alone for an htmx poll. It is rendered as for
    an anonymous visitor whoever is signed in (no staff header, no CSRF token, no messages): the page is the same for
    everyone, and shared caches may keep it."""
    request.user = AnonymousUser()
    throttle = PublicFeedThrottle()
    # a page, not an API view: the throttle reads only the view's throttle_scope
    if not throttle.allow_request(request, SimpleNamespace(throttle_scope=PUBLIC_PAGE_SCOPE)):  # type: ignore[arg-type]
        wait = max(1, round(throttle.wait() or 1))
        response = render(request, "public/_busy.html" if request.htmx else "public/busy.html",
                          {"wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    casino = published_casino(code=code)
    if casino is None:
        if request.htmx:
            response = render(request, "public/_gone.html", status=STOP_POLLING)
            patch_vary_headers(response, ("HX-Request",))
            return response
        raise Http404("No public page at this address.")
    feed = public_feed(casino=casino)
    jackpots = [{**jackpot, "shown": dollars(jackpot["amount"])} for jackpot in feed.data["jackpots"]]
    games = [{**line, "numbers": ", ".join(t.removeprefix("Table ") for t in line["tables"])}
             for line in feed.data["games"]]
    context = {"feed": feed.data, "games": games, "jackpots": jackpots, "casino": casino, "poll_seconds": POLL_SECONDS,
               "updated_at": timezone.localtime(feed.updated_at, casino.zone),
               "messages": ()}  # a staff member's messages are not the public's
    response = render(request, "public/_feed.html" if request.htmx else "public/page.html", context)
    patch_vary_headers(response, ("HX-Request",))
    # The page and its region are the feed's content in HTML: a weak validator from the feed's (another representation
    # of the same content, a variant each). A poll revalidates every time (no-cache: a 304 while nothing changed), so
    # that the region never lags behind the feed; a page load may be reused for MAX_AGE seconds, as the feed is.
    etag = f'W/"{feed.etag.strip(chr(34))}-{"region" if request.htmx else "page"}"'
    response["ETag"] = etag
    if request.htmx:
        patch_cache_control(response, public=True, no_cache=True)
    else:
        patch_cache_control(response, public=True, max_age=MAX_AGE)
    return get_conditional_response(request, etag=etag, response=response)
