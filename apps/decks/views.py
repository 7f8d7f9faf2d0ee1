"""The rotation board: every open table, its decks and their clocks; deck events recorded from it."""
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.views import add_domain_error
from apps.tables.models import PokerTable

from .forms import AssignDeckForm, DeckEventForm, ReceiveDeckForm
from .models import Deck, DeckDistribution
from .selectors import current_alerts, decks_in_storage, propose_distribution, rotation_board
from .services import assign_deck, distribute_decks, receive_deck


def _board(request, *, status: int = 200, **forms):
    """The board page (or, for htmx polling, the board fragment, which says when it was read), with the forms a
    refused POST brings back bound (its errors beside its fields): `receive_form`, `assign_form`, or `failed_event`
    (the deck's pk and its bound event form). Each form is shown to who may post it only ({% may_post %}; a deck's
    event form offers the events the user may record of it, templatetags.decks.deck_event_form)."""
    casino, now = request.user.casino, timezone.now()
    rows = rotation_board(casino=casino, now=now)
    context = {"rows": rows, "alerts": current_alerts(casino=casino, now=now, rows=rows),
               "updated_at": timezone.localtime(now, casino.zone).strftime("%H:%M:%S"),  # the casino's clock
               "storage": decks_in_storage(casino=casino), "receive_form": ReceiveDeckForm(auto_id="receive-%s"),
               "assign_form": AssignDeckForm(casino=casino), "failed_event": None} | forms
    template = "decks/_board.html" if request.htmx else "decks/board.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@role_policy(read="decks.view_board")
def board(request):
    """Rotation board (full page or, for htmx polling, the board fragment, which says when it was read). A deck's
    event form being filled in is kept as typed across the refresh (hx-preserve in decks/_board.html)."""
    return _board(request)


@role_policy(write="decks.record_event")
def record_event(request, pk: int):
    """Record an event of a deck from the board; which role may record which event is the service's
    (`record_deck_event`, `recordable_events`). Refused, the board comes back (400) with the deck's form as typed
    and the error beside its field. A count of other than 52 cards comes back (200) asking to confirm that the deck
    will be pulled from play; confirmed, the deck is pulled and the message is a warning (14.6(e)4-wrong-count)."""
    deck = get_object_or_404(Deck, pk=pk, casino=request.user.casino)
    form = DeckEventForm(request.POST, auto_id=f"record-deck-{deck.pk}-%s")
    if recorded := form.record(deck=deck, by=request.user):
        (messages.warning if form.pulled else messages.success)(request, recorded)  # a pulled deck: a warning
        return redirect("decks:board")
    # a wrong count asks to confirm (200: nothing is wrong yet); a refusal is a 400
    return _board(request, status=200 if form.confirmation else 400, failed_event=(deck.pk, form))


@role_policy(write="decks.manage_decks")
def receive(request):
    """Take a new deck into storage (receive_deck); refused, the board comes back (400) with the form as typed."""
    form = ReceiveDeckForm(request.POST, auto_id="receive-%s")
    if form.is_valid():
        try:
            deck = receive_deck(casino=request.user.casino, by=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, f"Deck {deck.serial} received into storage.")
            return redirect("decks:board")
    return _board(request, status=400, receive_form=form)


@role_policy(write="decks.manage_decks")
def assign(request):
    """Bring a stored deck to an open table (14.2(a)-two-decks); refused, the board comes back (400) with the choice
    made."""
    form = AssignDeckForm(request.POST, casino=request.user.casino)
    if form.is_valid():
        deck, table = form.cleaned_data["deck"], form.cleaned_data["table"]
        try:
            assign_deck(deck=deck, table=table, by=request.user)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, f"Deck {deck.serial} assigned to table {table.number}.")
            return redirect("decks:board")
    return _board(request, status=400, assign_form=form)


@role_policy(read="decks.view_board", write="decks.distribute")
def distribution(request):
    """The gaming day's deck distribution (14.2(c)-daily-distribution, 14.2(c)-considerations): a proposal to accept
    line by line, and the record."""
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
    return render(request, "decks/distribution.html", {  # its form shown to who may post it ({% may_post %})
        "proposal": proposal, "considerations": considerations,
        "history": DeckDistribution.objects.filter(casino=casino).prefetch_related("lines__table", "lines__deck")[:10]},
        status=status)
