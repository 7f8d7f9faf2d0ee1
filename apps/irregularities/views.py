"""The shift's irregularities: a list for the gaming day, a form to log one, and resolving one (the floor)."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from apps.casinos.selectors import requested_gaming_day
from apps.core.exceptions import DomainError
from apps.core.policy import role_policy
from apps.core.views import add_domain_error, page_to_return_to
from apps.decks.models import Deck
from apps.tables.models import PokerTable

from .models import Irregularity, IrregularityKind
from .selectors import irregularities_for
from .services import log_irregularity, resolve_irregularity


class IrregularityForm(forms.Form):
    table = forms.IntegerField()
    kind = forms.ChoiceField(choices=IrregularityKind.choices)
    deck = forms.CharField(max_length=40, required=False, help_text="Deck serial, if a deck is involved")
    description = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2}))


@role_policy(read="irregularities.view_irregularity", write="irregularities.add_irregularity")
def irregularity_list(request):
    """The gaming day's irregularities (14.15) and the form to log one; a form posted from another page (the dealer's
    home) goes back there once logged (`next`), and shows its errors here."""
    casino = request.user.casino
    form = IrregularityForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            table = get_object_or_404(PokerTable, pk=form.cleaned_data["table"], casino=casino)
            deck = None
            if form.cleaned_data["deck"]:
                deck = Deck.objects.filter(casino=casino, serial=form.cleaned_data["deck"]).first()
                if deck is None:
                    form.add_error("deck", "No such deck.")
            if not form.errors:
                try:
                    log_irregularity(table=table, kind=form.cleaned_data["kind"], deck=deck,
                                     description=form.cleaned_data["description"], reported_by=request.user)
                except DomainError as exc:
                    add_domain_error(form, exc)
                else:
                    messages.success(request, "Irregularity logged.")
                    return redirect(page_to_return_to(request) or "irregularities:list")
    return _list(request, form, status=400 if request.method == "POST" else 200)


def _list(request, form: IrregularityForm, *, status: int = 200):
    casino = request.user.casino
    gaming_day = requested_gaming_day(casino=casino, text=request.GET.get("day"))
    return render(request, "irregularities/list.html", {
        "form": form, "gaming_day": gaming_day, "rows": irregularities_for(casino=casino, gaming_day=gaming_day),
        "tables": PokerTable.objects.filter(casino=casino).order_by("number")},  # its forms: {% may_post %}
        status=status)


@role_policy(write="irregularities.resolve_irregularity")
def resolve(request, pk: int):
    """The floor has seen to an irregularity (services.resolve_irregularity, 14.15): it no longer needs a person on
    the floor map. POST `note` (optional, what was done) and `next` (the page to go back to: the floor map, or the
    list of its gaming day). Refused (resolved already: 409; too long a note: 400), the list comes back with why.
    For the poker shift supervisor and floorpersons (irregularities.resolve_irregularity)."""
    irregularity = get_object_or_404(Irregularity.objects.select_related("table"), pk=pk,
                                     table__casino=request.user.casino)
    note = request.POST.get("note", "")
    try:
        if len(note) > 300:
            raise DomainError("Say what was done in 300 characters at most.", field="note")
        resolve_irregularity(irregularity=irregularity, by=request.user, note=note)
    except DomainError as exc:
        messages.error(request, exc.message)
        return _list(request, IrregularityForm(), status=exc.status_code)
    messages.success(request, f"Irregularity at table {irregularity.table.number} resolved: "
                              f"{irregularity.get_kind_display()}.")
    return redirect(page_to_return_to(request)
                    or f"{reverse('irregularities:list')}?day={irregularity.gaming_day.isoformat()}")
