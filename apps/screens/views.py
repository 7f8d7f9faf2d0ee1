"""The room's screens opened by a display link, with no sign-in (N.J.A.C. 13:69F-14.18, 14.19(b)-current-amount,
14.19(i)1, 14.19(q)-notice), and the page where administrators issue and revoke the links.

A screen's URL is /screens/<token>/ (selectors.token_for): the jackpot display, the games-and-seats board or the
waitlist kiosk (apps.screens.kiosk) of the link's casino, showing only what patrons see. The screen polls the same
URL (htmx); each request checks the link again, so a revoked link stops at the screen's next poll: the poll is
answered with a notice that replaces the screen and stops the polling (status 286), and a page load with a styled
403. A token that opens nothing (not ours, altered, of no link) is a styled 404, and its poll stops the same way."""
from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.views.decorators.http import require_http_methods

from apps.badbeat.display import jackpot_screen
from apps.core.exceptions import DomainError
from apps.core.pagination import keyset_page
from apps.core.policy import public, role_policy
from apps.core.rotation import STOP_POLLING, rotate, tick_of
from apps.core.validation import TextValidator
from apps.core.views import add_domain_error
from apps.seats.selectors import GameLine

from . import kiosk, services
from .kiosk import is_kiosk_poll
from .models import DisplayLink, ScreenKind
from .selectors import TokenProblem, games_board, link_from_token, links_of, screen_path

#: The board polls every BOARD_POLL_SECONDS; BOARD_ROWS game lines a page, each page BOARD_TICKS_PER_PAGE polls (10 s);
#: a line shows the initials of the first BOARD_INITIALS players of its list (and how many more wait), and the numbers
#: of its first BOARD_TABLES tables (and how many more deal it).
BOARD_POLL_SECONDS = 5
BOARD_ROWS = 8
BOARD_TICKS_PER_PAGE = 2
BOARD_INITIALS = 6
BOARD_TABLES = 4

STOPPED = {
    TokenProblem.REVOKED: ("This screen's link was revoked",
                           "An administrator of the poker room revoked the link this screen was opened with. Ask for "
                           "a new display link."),
    TokenProblem.INVALID: ("This screen's link is not valid",
                           "The address this screen was opened with is not a display link of the poker room. Ask an "
                           "administrator for a display link."),
}


def _stopped(request, problem: TokenProblem):
    heading, message = STOPPED[problem]
    context = {"heading": heading, "message": message, "problem": problem.value}
    if is_kiosk_poll(request):  # the notice replaces the whole kiosk, its form too
        response = render(request, "screens/_kiosk_stopped.html", context, status=STOP_POLLING)
        response["HX-Retarget"], response["HX-Reswap"] = f"#{kiosk.KIOSK_TARGET}", "outerHTML"
    elif request.htmx:
        response = render(request, "screens/_stopped.html", context, status=STOP_POLLING)
    else:
        status = 403 if problem == TokenProblem.REVOKED else 404
        response = render(request, "screens/stopped.html", context, status=status)
    add_never_cache_headers(response)
    patch_vary_headers(response, ("HX-Request",))
    return response


@public("A room screen opened by a display link an administrator issued: the signed token is the credential, "
        "checked (and revocation with it) on every request; it shows only what patrons see (14.18, 14.19(b)); a "
        "kiosk link's form puts a player on a list (POST, CSRF-protected, throttled per link).",
        methods=("GET", "POST"))
@require_http_methods(["GET", "HEAD", "POST"])
def screen(request, token: str):
    """The screen a display link opens, with no session: the jackpot display (apps.badbeat.display) or the games
    and seats board (14.18), refreshed by its own poll of this URL, or the waitlist kiosk (apps.screens.kiosk,
    whose form posts here); a revoked or invalid link stops it (see the module). Only a kiosk takes a POST."""
    check = link_from_token(token)
    link = check.link
    if check.problem is not None or link is None:  # no link without a problem: INVALID
        return _stopped(request, check.problem or TokenProblem.INVALID)
    if link.kind == ScreenKind.KIOSK:
        services.note_seen(link=link)
        return kiosk.kiosk(request, link)
    if request.method == "POST":
        return HttpResponseNotAllowed(["GET", "HEAD"])
    tick = tick_of(request)
    services.note_seen(link=link)
    poll_url = screen_path(link)
    if link.kind == ScreenKind.JACKPOT:
        context = jackpot_screen(casino=link.casino, tick=tick) | {"poll_url": poll_url}
        template = "badbeat/_display.html" if request.htmx else "badbeat/display.html"
    else:
        context = board_screen(link=link, tick=tick) | {"poll_url": poll_url}
        template = "screens/_board.html" if request.htmx else "screens/board.html"
    response = render(request, template, context)
    add_never_cache_headers(response)
    patch_vary_headers(response, ("HX-Request",))
    return response


@dataclass(frozen=True)
class BoardLine:
    """A line of the board as the screen writes it: the game line (apps.seats.selectors.GameLine), its tables'
    numbers ("1, 2"; "1, 2, 3, 4 +2" beyond BOARD_TABLES), and the first BOARD_INITIALS initials of its list in call
    order with how many more wait."""

    line: GameLine
    tables: str
    initials: str
    more: int


def _board_line(line: GameLine) -> BoardLine:
    numbers = [t.removeprefix("Table ") for t in line.tables]
    tables = ", ".join(numbers[:BOARD_TABLES]) + (f" +{len(numbers) - BOARD_TABLES}" if len(numbers) > BOARD_TABLES
                                                  else "")
    shown = line.waitlist_initials[:BOARD_INITIALS]
    return BoardLine(line=line, tables=tables, initials=" ".join(shown),
                     more=max(0, line.waitlist_length - len(shown)))


def board_screen(*, link: DisplayLink, tick: int) -> dict:
    """The games-and-seats board's context at poll `tick`: the page of game lines shown (selectors.games_board, the
    public page's lines), turning every BOARD_TICKS_PER_PAGE polls when more than BOARD_ROWS are running, the open
    tables and vacant seats in all, and when it was read (the casino's time)."""
    now = timezone.now()
    lines = games_board(casino=link.casino, now=now)
    rotation = rotate([_board_line(line) for line in lines], per_page=BOARD_ROWS, tick=tick,
                      ticks_per_page=BOARD_TICKS_PER_PAGE)
    return {"casino": link.casino, "rotation": rotation, "poll_seconds": BOARD_POLL_SECONDS,
            "tables_open": len({table for line in lines for table in line.tables}),
            "seats_open": sum(line.vacant_seats for line in lines),
            "updated_at": f"{timezone.localtime(now, link.casino.zone):%H:%M:%S}"}


class IssueForm(forms.Form):
    kind = forms.ChoiceField(label="Screen", choices=ScreenKind.choices)
    name = forms.CharField(label="Name", max_length=80, validators=[TextValidator()],
                           help_text="e.g. Rail screen 2")
    location = forms.CharField(label="Where it hangs", max_length=120, required=False, validators=[TextValidator()])


@role_policy(read="screens.view_displaylink", write="screens.add_displaylink")
def links(request):
    """The casino's display links, newest first: which screen, where, issued when and by whom, last seen, revoked.
    An administrator issues a link here (and sees each live link's URL, to open on the screen) and revokes one; a
    poker shift supervisor sees the list without the links."""
    casino = request.user.casino
    form = IssueForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                link = services.issue_display_link(casino=casino, issued_by=request.user, **form.cleaned_data)
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                messages.success(request, f"Display link issued for “{link.name}”: open "
                                          f"{request.build_absolute_uri(screen_path(link))} on the screen.")
                return redirect("screens:links")
    may_issue = request.user.has_perm("screens.add_displaylink")
    page = keyset_page(request, links_of(casino=casino), ordering=("-id",))
    rows = [(link, request.build_absolute_uri(screen_path(link)) if may_issue and link.is_live else None)
            for link in page.rows]
    response = render(request, "screens/links.html", {
        "page": page, "rows": rows, "form": form if may_issue else None, "may_issue": may_issue},
        status=400 if request.method == "POST" else 200)
    if may_issue:
        add_never_cache_headers(response)  # the links are credentials: not kept by a cache
    return response


@role_policy(write="screens.change_displaylink")
def revoke(request, pk: int):
    """Revoke a display link, from its row's confirmation (`confirm=yes`): its screen stops at its next poll. By an
    administrator of the link's casino (others: 403); a link of another casino is not found (404)."""
    link = get_object_or_404(DisplayLink, pk=pk, casino=request.user.casino)
    if not request.user.has_perm("screens.change_displaylink", link):
        raise PermissionDenied
    if request.POST.get("confirm") != "yes":
        messages.error(request, f"“{link.name}” was not revoked: confirm with the button under “Revoke…”.")
        return redirect("screens:links")
    try:
        services.revoke_display_link(link=link, revoked_by=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Display link revoked: “{link.name}” stops at its next refresh.")
    return redirect("screens:links")
