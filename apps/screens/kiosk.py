"""The waitlist kiosk at the desk (N.J.A.C. 13:69F-14.18): a tablet opened by a kiosk link (ScreenKind.KIOSK, issued
and revoked by an administrator as every display link), where a player puts their own name on a list. Served at the
link's URL, /screens/<token>/, by apps.screens.views.screen, with no staff session:

- GET: the join form (list, name or initials, a phone number if the player wishes) and the room's lists — game,
  limits, vacant seats and how many wait, never a player's name, initials or phone (apps.seats.selectors.room_board's
  lines). The page links to nothing but itself. Its lists' region polls the link every KIOSK_POLL_SECONDS (htmx,
  HX-Target "kiosk-lines") and is answered that region alone.
- POST: the form, protected by Django's CSRF check as every form (the page sets the csrftoken cookie; the view is not
  exempt), at most the rate "kiosk" of REST_FRAMEWORK's DEFAULT_THROTTLE_RATES per link (KioskThrottle; beyond it
  429 with Retry-After, nothing written). A valid form puts the player on the list
  (apps.seats.services.join_at_kiosk: source "kiosk", by nobody, the kiosk named in the record) and redirects to the
  link, whose next page shows the list and the player's place once (kept in the kiosk's own anonymous session, no
  name), then returns to an empty form after KIOSK_RETURN_SECONDS.
- A browser signed in as staff is not served the kiosk: it is asked to sign out (`action=sign_out`, which signs it
  out and opens the kiosk). So the browser a kiosk runs in holds no staff session, and a patron at it can open no
  staff page or API operation.
- A revoked link is refused at once: a page load or a POST with the styled 403 (nothing written), a poll with a
  notice that replaces the whole kiosk and stops the polling (apps.screens.views).
"""
from __future__ import annotations

from django.contrib.auth import logout
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from apps.core.exceptions import DomainError
from apps.core.rotation import STOP_POLLING
from apps.core.views import add_domain_error
from apps.seats import services as seats_services
from apps.seats.forms import AddPlayerForm
from apps.seats.selectors import place_on_list, room_board

from .models import DisplayLink
from .selectors import screen_path

#: The throttle's scope (settings.REST_FRAMEWORK's DEFAULT_THROTTLE_RATES, DJANGO_THROTTLE_KIOSK): POSTs per link.
KIOSK_SCOPE = "kiosk"
#: The lists' region polls every KIOSK_POLL_SECONDS; the page that shows a player's place returns to the form after
#: KIOSK_RETURN_SECONDS.
KIOSK_POLL_SECONDS = 30
KIOSK_RETURN_SECONDS = 20
#: The ids of the kiosk's htmx targets (HX-Target): the lists' region, and the whole kiosk.
LINES_TARGET, KIOSK_TARGET = "kiosk-lines", "kiosk"
#: The session key of the place shown once after a player joined: {"link": pk, "list": text, "place": int}.
JOINED = "screens.kiosk.joined"


class KioskThrottle(SimpleRateThrottle):
    """DRF's cache-based throttle of one kiosk link's sign-ups (every POST, valid or not), its rate read from the
    settings at each request. With the cache down it allows (the cache fails open, apps.core.cache)."""

    scope = KIOSK_SCOPE

    def __init__(self, link: DisplayLink) -> None:
        self.link = link
        super().__init__()

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.link.pk}


def is_kiosk_poll(request) -> bool:
    """Whether the request is one of a kiosk page's own htmx requests (its lists' poll, its return to the form)."""
    return bool(request.htmx) and request.htmx.target in (LINES_TARGET, KIOSK_TARGET)


def kiosk(request, link: DisplayLink):
    """The kiosk of a live kiosk link (see the module): GET the page (or its lists' region), POST the join form."""
    if request.user.is_authenticated:
        return _signed_in(request, link)
    if request.htmx and request.htmx.target == LINES_TARGET:
        return _never_cached(render(request, "screens/_kiosk_lines.html", _lines(link)))
    form, status, headers = AddPlayerForm(casino=link.casino, kiosk=True), 200, {}
    if request.method == "POST":
        form = AddPlayerForm(request.POST, casino=link.casino, kiosk=True)
        throttle = KioskThrottle(link)
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # KioskThrottle reads no view
            wait = max(1, round(throttle.wait() or 1))
            form.full_clean()
            form.add_error(None, f"Many players joined at this kiosk just now: try again in {wait} seconds.")
            status, headers = 429, {"Retry-After": str(wait)}
        elif form.is_valid():
            try:
                entry = seats_services.join_at_kiosk(casino=link.casino, kiosk=link.name, **form.cleaned_data)
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                request.session[JOINED] = {"link": link.pk, "list": str(entry.waitlist),
                                           "place": place_on_list(entry=entry)}
                return _never_cached(redirect(screen_path(link)))
        if status == 200:
            status = 400
    joined = request.session.pop(JOINED, None) if request.method == "GET" else None
    if joined is not None and joined.get("link") != link.pk:
        joined = None
    context = _lines(link) | {"form": form, "joined": joined, "return_seconds": KIOSK_RETURN_SECONDS}
    response = render(request, "screens/kiosk.html", context, status=status)
    for name, value in headers.items():
        response[name] = value
    return _never_cached(response)


def _lines(link: DisplayLink) -> dict:
    now = timezone.now()
    return {"casino": link.casino, "kiosk_path": screen_path(link), "lines": room_board(casino=link.casino, now=now),
            "poll_seconds": KIOSK_POLL_SECONDS,
            "updated_at": f"{timezone.localtime(now, link.casino.zone):%H:%M}"}


def _signed_in(request, link: DisplayLink):
    """A browser signed in as staff opened the kiosk link: sign it out at its request (`action=sign_out`), else say
    that a kiosk runs with no staff session (a page; 403 to a POST, nothing written; a poll stops)."""
    if request.method == "POST" and request.POST.get("action") == "sign_out":
        logout(request)
        return _never_cached(redirect(screen_path(link)))
    if request.htmx:
        response = render(request, "screens/_kiosk_stopped.html", {
            "heading": "Signed in: this kiosk stopped",
            "message": "This browser is signed in as a member of the staff, and a kiosk runs with no staff session. "
                       "Sign out, then open the kiosk link again."}, status=STOP_POLLING)
        response["HX-Retarget"], response["HX-Reswap"] = f"#{KIOSK_TARGET}", "outerHTML"
        return _never_cached(response)
    context = {"casino": link.casino, "kiosk_path": screen_path(link), "signed_in_as": request.user}
    return _never_cached(render(request, "screens/kiosk.html", context,
                                status=403 if request.method == "POST" else 200))


def _never_cached(response):
    add_never_cache_headers(response)  # the page holds a CSRF token and the link's token
    patch_vary_headers(response, ("HX-Request", "HX-Target", "Cookie"))
    return response
