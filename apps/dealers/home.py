"""The dealer's home (/dealers/home/, where a dealer's sign-in lands): the table the dealer deals at now (from the
planned rotation), its decks with their clocks and alerts, and a form to report an irregularity there."""
from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from apps.casinos.selectors import current_gaming_day
from apps.core.policy import role_policy
from apps.decks.forms import DeckEventForm
from apps.decks.models import Deck
from apps.decks.selectors import current_alerts, rotation_board
from apps.irregularities.models import IrregularityKind
from apps.irregularities.selectors import irregularities_for
from apps.tables.models import PokerTable

from .selectors import dealer_shift


@role_policy(read="dealers.view_own_table")
def dealer_home(request):
    """The dealer's table now (the down under way in the rotation: the table and until when, or a break), the next
    downs and the next break (from when to when); that table's decks with their 3 h, 6 h and 15 min clocks and the
    deck alerts in force there, as the rotation board computes them (apps.decks.selectors: the same selector, on each view), each deck with its event
    form (posted to `record_deck_event` here); the irregularities reported at the table this gaming day and the form
    to report one, which posts to the irregularities' URL and comes back here (`next`). An htmx poll gets the decks' part only, which says when it was read; a form being filled in is
    kept (hx-preserve). For dealers (dealers.view_own_table)."""
    return _home(request)


@role_policy(write="dealers.record_own_deck_event")
def record_deck_event(request, pk: int):
    """Record an event of a deck at the dealer's table now, from the dealer's home (which role may record which
    event is the decks service's, apps.decks.services.record_deck_event). A deck at no table of
    the dealer's is 404. Refused, the home comes back (400) with the deck's form as typed and the error beside its
    field; nothing is written. A wrong count asks to confirm first (200), then pulls the deck with a warning
    (14.6(e)4-wrong-count). For dealers (dealers.record_own_deck_event)."""
    shift = dealer_shift(dealer=request.user, now=timezone.now())
    if shift.table is None:
        raise Http404("No table is dealt by you now.")
    deck = get_object_or_404(Deck, pk=pk, casino=request.user.casino, table=shift.table)
    form = DeckEventForm(request.POST, auto_id=f"my-deck-{deck.pk}-%s")
    if recorded := form.record(deck=deck, by=request.user):
        (messages.warning if form.pulled else messages.success)(request, recorded)  # a pulled deck: a warning
        return redirect("dealers:home")
    # a wrong count asks to confirm (200: nothing is wrong yet); a refusal is a 400
    return _home(request, status=200 if form.confirmation else 400, failed_event=(deck.pk, form))


def _home(request, *, status: int = 200, failed_event=None):
    casino, now = request.user.casino, timezone.now()
    shift = dealer_shift(dealer=request.user, now=now)
    table = shift.table
    board = rotation_board(casino=casino, now=now)
    row = next((r for r in board if table is not None and r.table.pk == table.pk), None)  # None: no open table now
    alerts = [a for a in current_alerts(casino=casino, now=now, rows=board) if a.table_id == row.table.pk] \
        if row is not None else []
    context = {"shift": shift, "table": table, "row": row, "alerts": alerts, "failed_event": failed_event,
               "updated_at": timezone.localtime(now, casino.zone).strftime("%H:%M:%S")}
    if request.htmx:
        response = render(request, "dealers/_home_decks.html", context, status=status)
    else:
        gaming_day = current_gaming_day(casino=casino)
        reported = irregularities_for(casino=casino, gaming_day=gaming_day)
        context |= {
            "irregularities": list(reported.filter(table=table)[:20]) if table is not None else [],
            "kinds": IrregularityKind.choices,
            # with no table now, the dealer names one: the open tables
            "tables": [] if table is not None else PokerTable.objects.filter(casino=casino, is_open=True)
            .order_by("number")}  # the report's form shown to who may post it ({% may_post %})
        response = render(request, "dealers/home.html", context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
