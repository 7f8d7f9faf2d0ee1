"""The supervisor's pages: dashboard, a table and its rounds, a round; the accounting ledger."""
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import patch_vary_headers
from django.views.generic import TemplateView

from apps.badbeat.charts import jackpot_chart
from apps.badbeat.models import DailyReset, Jackpot, ResetSeed
from apps.badbeat.selectors import (
    contribution_days,
    contributions_of_day,
    jackpot_of,
    live_jackpots,
)
from apps.casinos.selectors import current_gaming_day
from apps.core.charts import chart_span, span_links
from apps.core.exceptions import DomainError
from apps.core.history import history_response, is_history_tab, tabs
from apps.core.pagination import keyset_page
from apps.core.views import PermissionPageMixin, add_domain_error
from apps.counts.selectors import last_ledger_check
from apps.rake.selectors import rake_structure_of
from apps.rounds.models import RoundOfPlay
from apps.rounds.services import kill_limits
from apps.tables.closing import closing_blocked, still_at_table
from apps.tables.models import PokerTable
from apps.tables.services import close_table, open_table

from .forms import TableCloseForm, TableOpenForm
from .history import table_sources
from .search import ledger_search
from .selectors import floor_summary, round_detail, table_rounds


class DashboardView(PermissionPageMixin, TemplateView):
    """The floor map: what needs a person now (overdue decks, claims to verify, payouts to deliver, tables short of a
    dealer), every table as a tile (open or closed, game or rotation, limits, seats, dealer in the box, each deck's
    clocks), the jackpots with their status and the gaming day's totals. For htmx polling (every 15 s) the live
    region alone, which says when it was read, by the casino's clock."""

    required_perm = "floor.view_dashboard"
    template_name = "floor/dashboard.html"

    def get_template_names(self):
        return ["floor/_summary.html"] if self.request.htmx else [self.template_name]

    def get_context_data(self, **kwargs):
        casino = self.request.user.casino
        return {**super().get_context_data(**kwargs), "zone": casino.time_zone,
                "summary": floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))}

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response


class TableView(PermissionPageMixin, TemplateView):
    """A table: its posted game, limits and rake, and its rounds of play newest first in keyset pages; `?tab=history`
    shows who changed the table, its rotation and its rake, who opened and closed it, when, from what to what
    (apps.floor.history). POST (the poker shift supervisor and floorpersons, tables.open_close_table): `action=open`
    (seats, dealer in the box) or `action=close` (reason, drop box removed for the count, decks collected; a
    contribution container with contributions not yet counted is listed and refuses the closing until a count of it
    is recorded: close_table's checks); then back to the page, or the page again with the form's errors (400)."""

    required_perm = "tables.view_pokertable"
    perms_by_method = {"POST": "tables.open_close_table"}
    template_name = "floor/table.html"

    def post(self, request, *args, **kwargs):
        table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=request.user.casino)
        opening = request.POST.get("action") == "open"
        form = (TableOpenForm(request.POST, table=table) if opening else TableCloseForm(request.POST))
        if form.is_valid():
            try:
                if isinstance(form, TableOpenForm):
                    open_table(table=table, by=request.user, **form.changes())
                else:
                    close_table(table=table, by=request.user, **form.cleaned_data)
            except DomainError as exc:
                add_domain_error(form, exc)
            else:
                return redirect("floor:table", pk=table.pk)
        context = self.get_context_data(**kwargs, **{"open_form" if opening else "close_form": form})
        return self.render_to_response(context, status=400)

    def get(self, request, *args, **kwargs):
        if is_history_tab(request):
            table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=request.user.casino)
            return history_response(request, title=f"Table {table.number} — {table.game_label}", record_label="Table",
                                    sources=table_sources(table=table, user=request.user),
                                    what="the table, its rotation and its rake")
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=self.request.user.casino)
        rounds = keyset_page(self.request, table_rounds(table=table), ordering=("-started_at", "-id"))
        minimum, maximum, label = kill_limits(table=table)
        postings = [(p, rake_structure_of(table=table, rotation_game=p.rotation_game)) for p in table.posted_games()]
        return {"open_form": TableOpenForm(table=table), "close_form": TableCloseForm(),
                "still_at_table": [item for items in still_at_table(table).values() for item in items]
                if table.is_open else [],
                "closing_blocked": list(closing_blocked(table).values()) if table.is_open else [],
                **super().get_context_data(**kwargs), "table": table, "rounds": rounds, "postings": postings,
                "tabs": tabs(self.request, "Table"),
                "rake_structure": rake_structure_of(table=table),
                "next_limits": {"minimum": minimum, "maximum": maximum, "label": label}}


class RoundView(PermissionPageMixin, TemplateView):
    required_perm = "tables.view_pokertable"
    template_name = "floor/round.html"

    def get_context_data(self, **kwargs):
        round_of_play = get_object_or_404(RoundOfPlay.objects.select_related("table"), pk=self.kwargs["pk"],
                                          table__casino=self.request.user.casino)
        return {**super().get_context_data(**kwargs), **round_detail(round_of_play=round_of_play)}


class ContributionLedgerView(PermissionPageMixin, TemplateView):
    """Accounting: each fund's kept balance, reset reserve and contributions with the last daily ledger check (the
    kept totals against their records, 14.19(k)-official-record, 14.19(p)-documented), a chart of each fund's amount
    with its contributions and payouts over the last 30 or 90 gaming days (?span=), a gaming day's contributions, of
    every table or one (?day=, ?table=: apps.floor.search.ledger_search), in keyset pages, and the contributions by
    gaming day. Nothing here sums all of history: the check runs when the day is closed."""

    required_perm = "badbeat.view_contribution_ledger"
    template_name = "floor/contributions.html"

    def get_context_data(self, **kwargs):
        casino = self.request.user.casino
        gaming_day = current_gaming_day(casino=casino)
        span = chart_span(self.request.GET.get("span"))
        jackpot = jackpot_of(casino=casino)
        funds = [j for j in live_jackpots(casino=casino).select_related("casino") if not j.funded_from_primary]
        day_total, day_count = contributions_of_day(casino=casino, gaming_day=gaming_day)
        ledger = ledger_search(self.request, casino=casino)  # the gaming day and table searched (?day=, ?table=)
        return {**super().get_context_data(**kwargs), "gaming_day": gaming_day, "jackpot": jackpot,
                "ledger": ledger, "contributions": ledger.contributions,
                "day_total": day_total, "day_count": day_count,
                "funds": funds, "span": span, "span_links": span_links(self.request, days=span),
                "jackpot_charts": [jackpot_chart(jackpot=j, end=gaming_day, days=span) for j in funds],
                "last_check": last_ledger_check(casino=casino),
                "days": keyset_page(self.request, contribution_days(casino=casino), ordering=("-gaming_day", "jackpot_id"),
                                    page_size=30, cursor_param="days"),
                "daily_resets": DailyReset.objects.filter(jackpot__casino=casino).select_related("jackpot")[:30],
                "reset_seeds": ResetSeed.objects.filter(jackpot__casino=casino).select_related("jackpot")[:30]}


class TableSignView(PermissionPageMixin, TemplateView):
    """The printable sign of a table, generated from its configuration (N.J.A.C. 13:69F-14.14(c)-sign,
    14.17-limits-posted, 14.17-raises-posted, 14.19(b)-table-notice, 14.11(b)-kill-posted, the blinds
    14.10(d)-blinds-posted); never typed by hand. Each game's ante rule, the amount or none (14.9(b)-ante-posted,
    14.10(b)-ante-posted, 14.11(b)-ante-posted, 14.12(b)-ante-posted, 14.12A(b)-ante-posted, 14.12B(b)-ante-posted,
    14.13(b)-ante-posted, 14.13A(b)-ante-posted)."""

    required_perm = "tables.view_pokertable"
    template_name = "floor/table_sign.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=self.request.user.casino)
        postings = [(p, rake_structure_of(table=table, rotation_game=p.rotation_game)) for p in table.posted_games()]
        return {**super().get_context_data(**kwargs), "table": table, "postings": postings,
                "rake_structure": rake_structure_of(table=table), "jackpot": _sign_jackpot(table, postings)}


def _sign_jackpot(table: PokerTable, postings: list) -> Jackpot | None:
    """The bad beat payout a table's sign gives notice of (14.19(b)-table-notice): the casino's, when a game the
    table deals takes part in it (`postings`: (GamePosting, rake structure) pairs); else None."""
    offered = any(p.bad_beat_participation for p, _ in postings)
    return jackpot_of(casino=table.casino) if offered else None
