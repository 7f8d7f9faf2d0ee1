"""The reconciliation page's chart (issue 15): the bad beat contributions recorded against what the counts found,
by gaming day, from `selectors.contributions_against_counts`. Money is Decimal dollars."""
from datetime import date

from apps.casinos.models import Casino
from apps.core.charts import Chart, Series, day_label, span_start

from .selectors import contributions_against_counts


def contributions_against_counts_chart(*, casino: Casino, end: date, days: int) -> Chart:
    """Contributions recorded and amounts counted by gaming day (bars), and the counts' variance (a line), over the
    `days` gaming days that end with `end`: two grouped queries bounded by the span."""
    rows = contributions_against_counts(casino=casino, start=span_start(end=end, days=days), end=end)
    return Chart(
        id="contributions-against-counts", kind="bar", label_heading="Gaming day",
        title=f"Contributions recorded against counts, {day_label(rows[0].gaming_day)} – {day_label(end)}, {end:%Y}",
        labels=[day_label(r.gaming_day) for r in rows],
        series=[Series("Contributions recorded", [r.contributions for r in rows]),
                Series("Counted", [r.counted for r in rows]),
                Series("Variance of the counts", [r.variance for r in rows], kind="line")],
        description="two bars per gaming day and a line for the variance",
        notes=["A count covers the table's contributions since its previous count, so a day's counted amount can "
               "include contributions of the day before; the variance is counted less what each count expected."])
