"""Searching the floor's history: the round search page (/rounds/: rounds of play by table, game, gaming day, time,
player name, pot and hand shown, newest first in keyset pages, each linking to its round) and the contributions
ledger's day and table (ledger_search). Every list is read through an index (tests/core/test_history_queries.py)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import cast

from django import forms
from django.core.exceptions import BadRequest
from django.db.models import Prefetch
from django.views.generic import TemplateView

from apps.badbeat.selectors import contributions_for_gaming_day, contributions_of_day
from apps.casinos.models import Casino
from apps.casinos.selectors import current_gaming_day, requested_gaming_day
from apps.core.pagination import KeysetPage, keyset_page
from apps.core.views import PermissionPageMixin
from apps.rounds.filters import RoundFilter
from apps.rounds.models import RoundOfPlay, RoundPlayer
from apps.tables.models import PokerTable

ROUNDS_PAGE = 50


class RoundSearchView(PermissionPageMixin, TemplateView):
    """The round search: the casino's rounds of play newest first (started_at, id), 50 a page (keyset, `?cursor=`),
    filtered by apps.rounds.filters.RoundFilter — the same filters as GET /api/rounds/. Each row links to its round
    and its table. A filter that cannot be read (a day that is no date, a pot of letters) answers 400 with the form's
    errors beside its fields and no rounds. For everyone who reads rounds (rounds.view_roundofplay)."""

    required_perm = "rounds.view_roundofplay"
    template_name = "floor/rounds.html"

    def get(self, request, *args, **kwargs):
        rounds = (RoundOfPlay.objects.filter(table__casino_id=request.user.casino_id).select_related("table")
                  .prefetch_related(Prefetch("players", queryset=RoundPlayer.objects.only(
                      "round_of_play_id", "seat", "name", "at_showdown", "high_hand", "awarded")))
                  .order_by("-started_at", "-id"))
        search = RoundFilter(request.GET or None, queryset=rounds, request=request)
        valid = not search.is_bound or search.is_valid()
        page = keyset_page(request, search.qs if valid else rounds.none(), ordering=("-started_at", "-id"),
                           page_size=ROUNDS_PAGE)
        context = self.get_context_data(search=search, rounds=page)
        return self.render_to_response(context, status=200 if valid else 400)


# --- the contributions ledger: a gaming day and a table -------------------------------------------------------------

class LedgerSearchForm(forms.Form):
    """The contributions ledger's search: a gaming day (today's when empty) and a table (every table when empty)."""

    day = forms.DateField(required=False, label="Gaming day", widget=forms.DateInput(attrs={"type": "date"}))
    table = forms.ModelChoiceField(queryset=PokerTable.objects.none(), required=False, label="Table",
                                   empty_label="Every table")

    def __init__(self, *args, casino: Casino, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["table"]).queryset = (
            PokerTable.objects.filter(casino=casino).order_by("number"))


@dataclass(frozen=True)
class LedgerSearch:
    """What the ledger shows of its search: the form, the gaming day and table (None: every table), that day's (and
    table's) contributions in keyset pages, newest first, and their total (Decimal dollars) and number, from the
    running totals kept beside them (GamingDayContributions, or TableDayContributions for a table)."""

    form: LedgerSearchForm
    gaming_day: date
    table: PokerTable | None
    contributions: KeysetPage
    total: Decimal
    count: int


def ledger_search(request, *, casino: Casino) -> LedgerSearch:
    """The contributions ledger's day (`?day=YYYY-MM-DD`, today's gaming day when empty) and table (`?table=ID`, every
    table when empty). Raises BadRequest (400, naming the parameter) for a day no record can have or a table that is
    not the casino's. Index-backed: contribution_day_newest (gaming_day, -id)."""
    form = LedgerSearchForm(request.GET, casino=casino)
    text = request.GET.get("day") or None
    gaming_day = requested_gaming_day(casino=casino, text=text) if text else current_gaming_day(casino=casino)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise BadRequest(f"{field}: {' '.join(map(str, errors))}")
    table = form.cleaned_data["table"]
    contributions = contributions_for_gaming_day(casino=casino, gaming_day=gaming_day)
    if table is not None:
        contributions = contributions.filter(table=table)
    total, count = contributions_of_day(casino=casino, gaming_day=gaming_day, table=table)
    return LedgerSearch(form=form, gaming_day=gaming_day, table=table, total=total, count=count,
                        contributions=keyset_page(request, contributions, ordering=("-id",)))

