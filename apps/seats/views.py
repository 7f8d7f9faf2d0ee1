"""The floorperson's board (/seats/): each open table's seats (seated, away against the posted limit, vacant, and what
the feed's rounds of play say), every list with its players in call order and its next call; the floor keeps them
from here (N.J.A.C. 13:69F-14.18). One URL: GET the page (or, for the htmx poll, the board's part), POST one action
(`action`), which calls one service. A form being filled in is kept across the poll (hx-preserve, each form with its
own id). A broken rule answers 400 with the message beside the form that sent it, and writes nothing.

A player's row offers what fits the player's state (models.EntryState): Seat for a called player, Check in for a phone
sign-up, Back at the desk for a player passed over and skipped, Pass over (a called player only, with the reasons of
models.PASS_REASONS) and Remove… (a confirmation folded in the row, without script: the reason, required, and a note
for Other, then "Remove"). A removal shows at the top of the board with Undo for models.UNDO_WITHIN.

A table whose seats record disagrees with its newest (current) round is flagged, with one button, "Accept the seats
the last round reports" (accept_round, its own URL, also on the floor map).

The kiosk, where a player puts their own name on a list, runs from a kiosk link with no staff session
(apps.screens.kiosk); /seats/kiosk/ tells the floor how to get one. The record (/seats/record/): who was added,
called, seated, passed over and why, newest first.
"""
from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from apps.core.exceptions import DomainError
from apps.core.pagination import keyset_page
from apps.core.policy import role_policy
from apps.tables.models import PokerTable

from . import services
from .forms import AddPlayerForm, PassOverForm, RemoveForm, StartListForm
from .models import UNDO_WITHIN, EntryStatus, Seat, Waitlist, WaitlistEntry
from .selectors import events_of, floor_board, recently_removed


class FormProblem(Exception):
    """An action's bound form did not validate: the page shows it with its errors beside its fields."""

    def __init__(self, name: str, form) -> None:
        super().__init__(name)
        self.name, self.form = name, form


def _pk(request, name: str) -> int:
    value = request.POST.get(name, "")
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise DomainError("Choose one from the board.", field=name)
    return int(value)


def _table(request, name: str = "table") -> PokerTable:
    table = PokerTable.objects.filter(casino=request.user.casino, pk=_pk(request, name)).first()
    if table is None:
        raise DomainError("No such table in this room.", field=name)
    return table


def _seat_row(request) -> Seat:
    seat = Seat.objects.select_related("table").filter(table__casino=request.user.casino,
                                                       pk=_pk(request, "seat")).first()
    if seat is None:
        raise DomainError("That seat was vacated meanwhile.", field="seat")
    return seat


def _entry(request) -> WaitlistEntry:
    entry = WaitlistEntry.objects.filter(waitlist__casino=request.user.casino, pk=_pk(request, "entry")).first()
    if entry is None:
        raise DomainError("No such player on this room's lists.", field="entry")
    return entry


def _waitlist(request) -> Waitlist:
    waitlist = Waitlist.objects.filter(casino=request.user.casino, pk=_pk(request, "waitlist")).first()
    if waitlist is None:
        raise DomainError("No such list in this room.", field="waitlist")
    return waitlist


def _number(request, name: str = "number") -> int:
    value = request.POST.get(name, "")
    if not value.isascii() or not value.isdigit() or not 1 <= int(value[:3]) <= 11:
        raise DomainError("A seat number from 1 to 11.", field=name)
    return int(value)


def _add(request, now):
    form = AddPlayerForm(request.POST, casino=request.user.casino)
    if not form.is_valid():
        raise FormProblem("add_form", form)
    try:
        return services.add_to_list(by=request.user, now=now, **form.cleaned_data)
    except DomainError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        raise FormProblem("add_form", form) from None


def _start(request, now):
    form = StartListForm(request.POST, casino=request.user.casino)
    if not form.is_valid():
        raise FormProblem("start_form", form)
    try:
        return services.start_list(by=request.user, **form.cleaned_data)
    except DomainError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        raise FormProblem("start_form", form) from None


def _refused(form) -> DomainError:
    """A row's form that did not validate, as the board shows a refused action: its first error, naming the field."""
    field, errors = next(iter(form.errors.items()))
    return DomainError(errors[0], field=None if field == "__all__" else field)


def _pass(request, now):
    entry = _entry(request)
    form = PassOverForm(request.POST, entry=entry, now=now)
    if not form.is_valid():
        raise _refused(form)
    return services.pass_over(entry=entry, reason=form.cleaned_data["reason"], by=request.user, now=now)


def _remove(request, now):
    entry = _entry(request)
    form = RemoveForm(request.POST, entry=entry)
    if not form.is_valid():
        raise _refused(form)
    return services.remove_from_list(entry=entry, by=request.user, now=now, **form.cleaned_data)


#: Each action of the board: the service it calls with what the form sent (ids of this casino's records only).
ACTIONS: dict[str, Callable] = {
    "add": _add,
    "start_list": _start,
    "seat": lambda r, now: services.seat_player(table=_table(r), number=_number(r), player=r.POST.get("player", ""),
                                                by=r.user, now=now),
    "away": lambda r, now: services.mark_away(seat=_seat_row(r), by=r.user, now=now),
    "back": lambda r, now: services.mark_back(seat=_seat_row(r), by=r.user, now=now),
    "vacate": lambda r, now: services.vacate(seat=_seat_row(r), by=r.user, now=now),
    "change": lambda r, now: services.change_table(seat=_seat_row(r), to_table=_table(r, "to_table"),
                                                   to_number=_number(r, "to_number"), by=r.user, now=now),
    "call": lambda r, now: services.call_next(waitlist=_waitlist(r), table=_table(r), seat=_number(r), by=r.user,
                                              now=now),
    "move": lambda r, now: services.move_from_must_move(waitlist=_waitlist(r), table=_table(r), seat=_number(r),
                                                        by=r.user, now=now),
    "seat_called": lambda r, now: services.seat_called(entry=_entry(r), by=r.user, now=now),
    "check_in": lambda r, now: services.check_in(entry=_entry(r), by=r.user, now=now),
    "pass": _pass,
    "here": lambda r, now: services.mark_here(entry=_entry(r), by=r.user, now=now),
    "remove": _remove,
    "restore": lambda r, now: services.restore_to_list(entry=_entry(r), by=r.user, now=now),
}

DONE = {"add": "Added to the list.", "start_list": "The list is open.", "seat": "Seated.", "away": "Marked away.",
        "back": "Back at the table.", "vacate": "Seat vacated.", "change": "Table changed.", "call": "Called.",
        "move": "Moved from the must-move table.", "seat_called": "Seated.", "check_in": "Checked in.",
        "pass": "Passed over: still on the list.", "here": "Back at the desk: called at the next seat.",
        "remove": "Removed from the list: Undo on the board if it was a mistake.",
        "restore": "Back on the list at their place."}


@role_policy(read="seats.view_board", write="seats.keep_board")
def board(request):
    """The floorperson's board (GET: the page, or its board part for the htmx poll; POST: one action, see ACTIONS).
    Floorpersons, the poker shift supervisor and administrators keep it (seats.keep_board); dealers and surveillance
    read it (seats.view_board), without the phone numbers and the forms."""
    casino, now = request.user.casino, timezone.now()
    status, problem, forms = 200, None, {}
    if request.method == "POST":
        action = request.POST.get("action", "")
        form_id = request.POST.get("form_id", "")[:60]
        try:
            if action not in ACTIONS:
                raise DomainError("Choose an action of the board.", field="action")
            ACTIONS[action](request, now)
        except FormProblem as exc:
            forms[exc.name], status = exc.form, 400
        except DomainError as exc:
            problem, status = {"form_id": form_id, "field": exc.field, "message": exc.message}, 400
        else:
            messages.success(request, DONE[action])
            if not request.htmx:
                return redirect("seats:board")
            now = timezone.now()
    context = _board_context(request, casino, now) | {"problem": problem}
    context["add_form"] = forms.get("add_form") or AddPlayerForm(casino=casino)
    context["start_form"] = forms.get("start_form") or StartListForm(casino=casino)
    template = "seats/_board.html" if request.htmx else "seats/board.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _board_context(request, casino, now) -> dict:
    floor = floor_board(casino=casino, now=now)
    may_keep = request.user.has_perm("seats.keep_board")
    # each table with the other open tables of its game and limits (where a table change may go)
    tables = [(t, [o.table for o in floor.tables if o.key == t.key and o is not t]) for t in floor.tables]
    return {"floor": floor, "tables": tables, "may_keep": may_keep, "now": now, "called": EntryStatus.CALLED,
            "removed": recently_removed(casino=casino, now=now) if may_keep else [],
            "undo_minutes": UNDO_WITHIN.seconds // 60,
            "updated_at": timezone.localtime(now, casino.zone).strftime("%H:%M:%S"), "zone": casino.zone}


@role_policy(write="seats.keep_board")
def accept_round(request, pk: int):
    """"Accept the seats the last round reports" at an open table (POST, from the floor map or the seats board):
    `round` is the id of the newest round as the page showed it; services.accept_round_seats makes the record what
    that round reports and records it (idempotent: a second click changes nothing). Then back to the floor map
    (`next=floor`) or the seats board, with what changed. Refused — another round came in meanwhile, or it is too
    old — the seats board comes back (409) with the message beside the table's button; a `round` that is no id: 400.
    Floorpersons, the poker shift supervisor and administrators (seats.keep_board)."""
    casino, now = request.user.casino, timezone.now()
    table = get_object_or_404(PokerTable, pk=pk, casino=casino)
    status = 400
    try:
        round_id = _pk(request, "round")
        status = 409
        taken = services.accept_round_seats(table=table, round_id=round_id, by=request.user, now=now)
    except DomainError as exc:
        context = _board_context(request, casino, now) | {
            "problem": {"form_id": f"accept-{table.pk}", "field": exc.field, "message": exc.message},
            "add_form": AddPlayerForm(casino=casino), "start_form": StartListForm(casino=casino)}
        return render(request, "seats/board.html", context, status=status)
    if taken.changed:
        done = [f"seat{'s' if len(ns) > 1 else ''} {', '.join(map(str, ns))} {what}"
                for ns, what in ((taken.seated, "taken"), (taken.vacated, "vacated")) if ns]
        messages.success(request, f"Table {table.number}: {' and '.join(done)}, as round #{round_id} reports.")
    else:
        messages.success(request, f"Table {table.number}: the seats already agree with round #{round_id}.")
    return redirect("floor:dashboard" if request.POST.get("next") == "floor" else "seats:board")


@role_policy(read="seats.keep_board")
def kiosk(request):
    """How to set up the desk's kiosk (a page for the floor, not the kiosk): the kiosk runs from a kiosk link an
    administrator issues (/screens/, or `manage.py issue_screen_link --kind kiosk`), opened on the tablet with no
    staff session (apps.screens.kiosk), so that a patron at it can open no staff page. This page has no form: a staff
    session never serves as the kiosk."""
    return render(request, "seats/kiosk.html", {
        "may_issue": request.user.has_perm("screens.add_displaylink"),
        "may_see_links": request.user.has_perm("screens.view_displaylink")})


@role_policy(read="seats.view_board")
def record(request):
    """The record of the floor's seats and lists, newest first (keyset pages): who was added, called, seated, passed
    over and why; seats vacated, changed and lost to the away limit. No names: the entry's number, table and seat."""
    page = keyset_page(request, events_of(casino=request.user.casino), ordering=("-at", "-id"))
    return render(request, "seats/record.html", {"page": page, "zone": request.user.casino.zone})
