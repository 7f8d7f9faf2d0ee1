"""The rotation board: every open table, its decks and their clocks; deck events recorded from it."""
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.views import page_to_return_to
from apps.tables.models import PokerTable

from .forms import AssignDeckForm, DeckEventForm, ReceiveDeckForm
from .models import Deck, DeckDistribution
from .selectors import current_alerts, decks_in_storage, propose_distribution, rotation_board
from .services import assign_deck, distribute_decks, receive_deck, record_deck_event


@role_policy(read="decks.view_board")
def board(request):
    """Rotation board (full page or, for htmx polling, the board fragment, which says when it was read). A deck's
    event form being filled in is kept as typed across the refresh (hx-preserve in decks/_board.html)."""
    casino, now = request.user.casino, timezone.now()
    rows = rotation_board(casino=casino, now=now)
    context = {"rows": rows, "alerts": current_alerts(casino=casino, now=now, rows=rows),
               "updated_at": timezone.localtime(now, casino.zone).strftime("%H:%M:%S"),  # the casino's clock
               "storage": decks_in_storage(casino=casino), "event_form": DeckEventForm(),
               "receive_form": ReceiveDeckForm(),
               "tables": PokerTable.objects.filter(casino=casino, is_open=True).order_by("number"),
               "can_manage": request.user.has_perm("decks.manage_decks")}
    template = "decks/_board.html" if request.htmx else "decks/board.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _apply(request, action) -> None:
    try:
        action()
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Recorded.")


@role_policy(write="decks.record_event")
def record_event(request, pk: int):
    """Record an event of a deck from the board (or from the page named by `next`, e.g. the dealer's home); which
    role may record which event is the service's (14.2, 14.4)."""
    deck = get_object_or_404(Deck, pk=pk, casino=request.user.casino)
    form = DeckEventForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
    else:
        _apply(request, lambda: record_deck_event(deck=deck, by=request.user, kind=form.cleaned_data["kind"],
                                                  card_count=form.cleaned_data["card_count"],
                                                  note=form.cleaned_data["note"]))
    return redirect(page_to_return_to(request) or "decks:board")


@role_policy(write="decks.manage_decks")
def receive(request):
    """Take a new deck into storage (14.2(a))."""
    form = ReceiveDeckForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
    else:
        _apply(request, lambda: receive_deck(casino=request.user.casino, by=request.user, **form.cleaned_data))
    return redirect("decks:board")


@role_policy(write="decks.manage_decks")
def assign(request):
    """Bring a stored deck to a table (14.2(a))."""
    form = AssignDeckForm(request.POST)
    if form.is_valid():
        deck = get_object_or_404(Deck, pk=form.cleaned_data["deck"], casino=request.user.casino)
        table = get_object_or_404(PokerTable, pk=form.cleaned_data["table"], casino=request.user.casino)
        _apply(request, lambda: assign_deck(deck=deck, table=table, by=request.user))
    else:
        messages.error(request, "Choose a deck and a table.")
    return redirect("decks:board")


@role_policy(read="decks.view_board", write="decks.distribute")
def distribution(request):
    """The gaming day's deck distribution (14.2(c)): a proposal to accept line by line, and the record."""
    casino = request.user.casino
    status = 200
    if request.method == "POST":
        lines = []
        for value in request.POST.getlist("line"):
            try:
                table_id, deck_id = (int(part) for part in value.split(":"))
            except ValueError:
                continue
            lines.append((get_object_or_404(PokerTable, pk=table_id, casino=casino),
                          get_object_or_404(Deck, pk=deck_id, casino=casino)))
        try:
            distribute_decks(casino=casino, assignments=lines, decided_by=request.user,
                             considerations=request.POST.get("considerations", ""))
        except DomainError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(request, f"{len(lines)} deck(s) distributed.")
            return redirect("decks:distribution")
    proposal = propose_distribution(casino=casino)
    considerations = "\n".join(f"Table {p.table.number}: {p.reason}" for p in proposal)
    return render(request, "decks/distribution.html", {
        "proposal": proposal, "considerations": considerations,
        "history": DeckDistribution.objects.filter(casino=casino).prefetch_related("lines__table", "lines__deck")[:10],
        "can_distribute": request.user.has_perm("decks.distribute")}, status=status)
