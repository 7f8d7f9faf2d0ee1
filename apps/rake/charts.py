"""The revenue page's charts (issue 15): rake by gaming day, week and table over a span of days, and rounds settled
per hour by table on the gaming day shown, built from the running totals by hour (`selectors.rake_over_days`,
`selectors.rounds_per_hour_by_table`). Money is Decimal dollars; rake here is what was taken from pots (14.14),
time charges apart."""
from datetime import date

from apps.casinos.models import Casino
from apps.core.charts import Chart, Series, day_label, span_start

from .selectors import rake_over_days, rounds_per_hour_by_table


def rake_span_charts(*, casino: Casino, end: date, days: int) -> list[Chart]:
    """Rake from pots by gaming day, by week and by table over the `days` gaming days that end with `end`: one
    grouped query on TableHourRake."""
    start = span_start(end=end, days=days)
    rake = rake_over_days(casino=casino, start=start, end=end)
    span = f"{day_label(start)} – {day_label(end)}, {end:%Y}"
    return [
        Chart(id="rake-by-day", title=f"Rake by gaming day, {span}", kind="bar", label_heading="Gaming day",
              labels=[day_label(day) for day, _ in rake.days],
              series=[Series("Rake from pots", [amount for _, amount in rake.days])],
              description="one bar per gaming day"),
        Chart(id="rake-by-week", title=f"Rake by week, {span}", kind="bar", label_heading="Week",
              labels=[f"Week of {day_label(monday)}" for monday, _ in rake.weeks],
              series=[Series("Rake from pots", [amount for _, amount in rake.weeks])],
              description="one bar per week, Monday to Sunday",
              notes=["Weeks run Monday to Sunday; the first and the last count only the days of the span."]),
        Chart(id="rake-by-table", title=f"Rake by table, {span}", kind="bar", horizontal=True, label_heading="Table",
              labels=[f"Table {number}" for number, _, _ in rake.tables],
              series=[Series("Rake from pots", [amount for _, _, amount in rake.tables])],
              description="one bar per table"),
    ]


def rounds_per_hour_chart(*, casino: Casino, gaming_day: date) -> Chart:
    """Rounds settled per hour of `gaming_day`, one stacked series per table (one grouped query on TableHourRake)."""
    hours, tables = rounds_per_hour_by_table(casino=casino, gaming_day=gaming_day)
    return Chart(id="rounds-per-hour", title=f"Rounds settled per hour by table, gaming day {day_label(gaming_day)}",
                 kind="bar", stacked=True, label_heading="Hour", labels=[f"{h:%H}:00" for h in hours],
                 series=[Series(f"Table {number}", counts, money=False) for number, counts in sorted(tables.items())],
                 description="one stacked bar per hour, a colour per table")
