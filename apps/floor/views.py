"""The supervisor's pages: dashboard, a table and its rounds, a round; the accounting ledger."""
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_vary_headers
from django.views.generic import TemplateView

from apps.badbeat.models import DailyReset, ResetSeed
from apps.badbeat.selectors import (
    contribution_days,
    contributions_for_gaming_day,
    contributions_of_day,
    jackpot_of,
    live_jackpots,
)
from apps.casinos.selectors import current_gaming_day
from apps.core.pagination import keyset_page
from apps.core.views import PermissionPageMixin
from apps.counts.selectors import last_ledger_check
from apps.rake.selectors import rake_structure_of
from apps.rounds.models import RoundOfPlay
from apps.rounds.services import kill_limits
from apps.tables.models import PokerTable

from .selectors import floor_summary, round_detail, table_rounds


class DashboardView(PermissionPageMixin, TemplateView):
    """Open tables, rounds, rake and contributions of the gaming day, jackpot and pending claims."""

    required_perm = "floor.view_dashboard"
    template_name = "floor/dashboard.html"

    def get_template_names(self):
        return ["floor/_summary.html"] if self.request.htmx else [self.template_name]

    def get_context_data(self, **kwargs):
        casino = self.request.user.casino
        return {**super().get_context_data(**kwargs),
                "summary": floor_summary(casino=casino, gaming_day=current_gaming_day(casino=casino))}

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response


class TableView(PermissionPageMixin, TemplateView):
    required_perm = "tables.view_pokertable"
    template_name = "floor/table.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=self.request.user.casino)
        rounds = keyset_page(self.request, table_rounds(table=table), ordering=("-started_at", "-id"))
        minimum, maximum, label = kill_limits(table=table)
        postings = [(p, rake_structure_of(table=table, rotation_game=p.rotation_game)) for p in table.posted_games()]
        return {**super().get_context_data(**kwargs), "table": table, "rounds": rounds, "postings": postings,
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
    kept totals against their records, 14.19(k), (p)), the gaming day's contributions in keyset pages, and the
    contributions by gaming day. Nothing here sums all of history: the check runs when the day is closed."""

    required_perm = "badbeat.view_contribution_ledger"
    template_name = "floor/contributions.html"

    def get_context_data(self, **kwargs):
        casino = self.request.user.casino
        gaming_day = current_gaming_day(casino=casino)
        jackpot = jackpot_of(casino=casino)
        day_total, day_count = contributions_of_day(casino=casino, gaming_day=gaming_day)
        return {**super().get_context_data(**kwargs), "gaming_day": gaming_day, "jackpot": jackpot,
                "contributions": keyset_page(self.request, contributions_for_gaming_day(
                    casino=casino, gaming_day=gaming_day), ordering=("-id",)),
                "day_total": day_total, "day_count": day_count,
                "funds": [j for j in live_jackpots(casino=casino) if not j.funded_from_primary],
                "last_check": last_ledger_check(casino=casino),
                "days": keyset_page(self.request, contribution_days(casino=casino), ordering=("-gaming_day", "jackpot_id"),
                                    page_size=30, cursor_param="days"),
                "daily_resets": DailyReset.objects.filter(jackpot__casino=casino).select_related("jackpot")[:30],
                "reset_seeds": ResetSeed.objects.filter(jackpot__casino=casino).select_related("jackpot")[:30]}


class TableSignView(PermissionPageMixin, TemplateView):
    """The printable sign of a table, generated from its configuration (N.J.A.C. 13:69F-14.14(c), 14.17,
    14.19(b), 14.11(b)); never typed by hand."""

    required_perm = "tables.view_pokertable"
    template_name = "floor/table_sign.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(PokerTable, pk=self.kwargs["pk"], casino=self.request.user.casino)
        postings = [(p, rake_structure_of(table=table, rotation_game=p.rotation_game)) for p in table.posted_games()]
        offered = any(p.bad_beat_participation for p, _ in postings)
        return {**super().get_context_data(**kwargs), "table": table, "postings": postings,
                "rake_structure": rake_structure_of(table=table),
                "jackpot": jackpot_of(casino=table.casino) if offered else None}
