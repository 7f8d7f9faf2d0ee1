"""The rake audit of hands recorded by other systems (issue 35): each imported hand that records its winnings, the
source's rake beside our posted rake (14.14), with the sums by table and gaming day; and its CSV export. For
surveillance, accounting, the poker shift supervisor and administrators (rake.view_revenue, as the revenue pages)."""
from decimal import Decimal
from itertools import islice

from django.http import StreamingHttpResponse
from django.shortcuts import render

from apps.casinos.selectors import requested_gaming_day
from apps.core.money import ZERO
from apps.core.pagination import keyset_page
from apps.core.policy import role_policy
from apps.core.spreadsheets import SafeWriter, amount_cell

from .models import SourceSettlement
from .selectors import source_rake_days, source_settlements

#: The CSV's columns: one line per imported hand of the gaming day, amounts in Decimal dollars.
EXPORT_COLUMNS = ["gaming_day", "table", "hand", "round_of_play", "pot", "uncalled_returned", "winnings_total",
                  "winnings_written", "source_rake", "our_rake", "difference", "reconciles", "same_winners",
                  "cards_not_revealed", "note"]


@role_policy(read="rake.view_revenue")
def rake_audit(request):
    """The rake audit, newest first in keyset pages: per hand its table, gaming day, hand, pot, the source's rake, our
    posted rake, the difference and whether it reconciles; the sums by table and gaming day, read from their running
    totals (apps.feed.models.SourceRakeDay) — of the gaming day asked for (?day=YYYY-MM-DD, its hands only), or of
    every day in keyset pages (?days=). Nothing here adds up more than one day's tables."""
    casino = request.user.casino
    text = request.GET.get("day")
    gaming_day = requested_gaming_day(casino=casino, text=text) if text else None
    hands = keyset_page(request, source_settlements(casino=casino, gaming_day=gaming_day), ordering=("-id",))
    context = {"gaming_day": gaming_day, "hands": hands}
    if gaming_day is not None:
        tables = list(source_rake_days(casino=casino, gaming_day=gaming_day))  # a row per table at most
        source, ours = sum((r.source_rake for r in tables), ZERO), sum((r.our_rake for r in tables), ZERO)
        context["tables"] = tables
        context["day_total"] = {"hands": sum(r.hands for r in tables), "flagged": sum(r.flagged for r in tables),
                                "pot": sum((r.pot for r in tables), ZERO), "source_rake": source, "our_rake": ours,
                                "difference": source - ours}
    else:
        context["days"] = keyset_page(request, source_rake_days(casino=casino), ordering=("-gaming_day", "-id"),
                                      page_size=30, cursor_param="days")
    return render(request, "feed/rake_audit.html", context)


class _Echo:
    """A file-like object whose write() returns the line, for a streamed response (Django's docs, "Streaming large
    CSV files")."""

    def write(self, value):
        return value


def _line(row: SourceSettlement) -> list:
    difference: Decimal | None = row.difference
    return [row.gaming_day.isoformat(), row.table.number, row.round_of_play.source_name, row.round_of_play_id,
            amount_cell(row.pot), amount_cell(row.uncalled), amount_cell(row.winnings_total), row.written,
            amount_cell(row.source_rake), amount_cell(row.our_rake), amount_cell(difference),
            "yes" if row.reconciles else "no", "yes" if row.same_winners else "no",
            "yes" if row.cards_not_revealed else "no", row.note]


@role_policy(read="rake.view_revenue")
def rake_audit_csv(request):
    """The rake audit of a gaming day (?day=YYYY-MM-DD, today's by default) as CSV, one line per imported hand that
    records its winnings, newest first, streamed as it is read; every cell a spreadsheet would read as a formula
    neutralised (apps.core.spreadsheets). An empty source rake and difference: the hand does not reconcile."""
    casino = request.user.casino
    gaming_day = requested_gaming_day(casino=casino, text=request.GET.get("day"))
    writer = SafeWriter(_Echo())
    rows = (_line(row) for row in source_settlements(casino=casino, gaming_day=gaming_day).iterator(chunk_size=1000))

    def lines():
        yield writer.writerow(EXPORT_COLUMNS)
        while chunk := list(islice(rows, 1000)):
            yield writer.lines(chunk)

    response = StreamingHttpResponse(lines(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="rake-audit-{casino.code}-{gaming_day}.csv"'
    return response
