"""Revenue pages: rake by table, shift and hour of a gaming day, and its CSV export."""
from decimal import Decimal
from itertools import islice

from django.http import StreamingHttpResponse
from django.shortcuts import render

from apps.casinos.selectors import requested_gaming_day
from apps.core.charts import chart_span, span_links
from apps.core.policy import role_policy
from apps.core.spreadsheets import SafeWriter

from .charts import rake_span_charts, rounds_per_hour_chart
from .selectors import (
    EXPORT_COLUMNS,
    rake_by_game,
    rake_by_hour,
    rake_by_shift,
    rake_by_table,
    rake_records_for_export,
    time_charges_by_table,
    time_charges_for_gaming_day,
)


def _day(request):
    """(casino, gaming day from ?day=YYYY-MM-DD or today's); BadRequest (400) for a day no record can have."""
    casino = request.user.casino
    return casino, requested_gaming_day(casino=casino, text=request.GET.get("day"))


@role_policy(read="rake.view_revenue")
def revenue(request):
    """Rake of a gaming day (?day=YYYY-MM-DD): by table, by shift, and a chart by hour; charts of the rounds settled
    per hour by table that day, and of the rake by day, week and table over the span of gaming days ending with it
    (?span=30 or 90, apps.core.charts.chart_span)."""
    casino, gaming_day = _day(request)
    days = chart_span(request.GET.get("span"))
    hourly = rake_by_hour(casino=casino, gaming_day=gaming_day)
    peak = max((amount for _, amount in hourly), default=Decimal("0")) or Decimal("1")
    tables = list(rake_by_table(casino=casino, gaming_day=gaming_day))
    time_charges = time_charges_by_table(casino=casino, gaming_day=gaming_day)
    for row in tables:
        row["time_charges"] = time_charges.pop(row["table__number"], Decimal("0.00"))
    tables += [{"table__number": number, "rounds": 0, "basis": Decimal("0.00"), "rake": Decimal("0.00"),
                "time_charges": amount} for number, amount in sorted(time_charges.items())]
    time_charge_total = time_charges_for_gaming_day(casino=casino, gaming_day=gaming_day)
    return render(request, "rake/revenue.html", {
        "gaming_day": gaming_day, "tables": tables, "shifts": rake_by_shift(casino=casino, gaming_day=gaming_day),
        "games": rake_by_game(casino=casino, gaming_day=gaming_day),
        "time_charge_total": time_charge_total,
        "total": sum((row["rake"] for row in tables), Decimal("0.00")) + time_charge_total,
        "chart_width": len(hourly) * 40, "span": days, "span_links": span_links(request, days=days),
        "span_charts": rake_span_charts(casino=casino, end=gaming_day, days=days),
        "rounds_chart": rounds_per_hour_chart(casino=casino, gaming_day=gaming_day),
        "bars": [{"hour": h, "amount": amount, "x": i * 40 + 4, "height": int(amount / peak * 100),
                  "y": 100 - int(amount / peak * 100), "label_x": i * 40 + 20} for i, (h, amount) in enumerate(hourly)]})


class _Echo:
    """A file-like object whose write() returns the line, for csv.writer in a streamed response (Django's docs,
    "Streaming large CSV files")."""

    def write(self, value):
        return value


@role_policy(read="rake.view_revenue")
def revenue_csv(request):
    """Every rake record of a gaming day as CSV, one line per round of play, streamed as it is read (a day may hold
    thousands of rounds)."""
    casino, gaming_day = _day(request)
    writer = SafeWriter(_Echo())  # each cell a spreadsheet would read as a formula neutralised (OWASP)
    rows = iter(rake_records_for_export(casino=casino, gaming_day=gaming_day))

    def lines():
        yield writer.writerow(EXPORT_COLUMNS)
        while chunk := list(islice(rows, 1000)):  # the response sends a chunk of lines at a time, not a line
            yield writer.lines(chunk)

    response = StreamingHttpResponse(lines(), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="rake-{casino.code}-{gaming_day}.csv"'
    return response
