"""The jackpot chart (issue 15): a fund's payout amount at the end of each gaming day with its contributions and
payouts (14.19(j)), from `selectors.jackpot_days`. Money is Decimal dollars."""
from datetime import date

from apps.core.charts import Chart, Series, day_label, span_start

from .models import Jackpot
from .selectors import jackpot_days


def jackpot_chart(*, jackpot: Jackpot, end: date, days: int) -> Chart:
    """The amount of `jackpot` (a fund holding its own money) at the end of each of the `days` gaming days that end
    with `end` (a line), and each day's contributions and payouts (bars, contributions on the right-hand scale)."""
    rows = jackpot_days(jackpot=jackpot, start=span_start(end=end, days=days), end=end)
    return Chart(
        id=f"jackpot-{jackpot.pk}", kind="bar", label_heading="Gaming day",
        title=f"{jackpot.name}: amount, contributions and payouts, {day_label(rows[0].gaming_day)} – "
              f"{day_label(end)}, {end:%Y}",
        labels=[day_label(r.gaming_day) for r in rows],
        series=[Series("Amount at the end of the day", [r.balance for r in rows], kind="line"),
                Series("Payouts", [r.payouts for r in rows]),
                Series("Contributions", [r.contributions for r in rows], axis="y2")],
        description="a line for the amount, bars for the payouts and, on the right-hand scale, the contributions",
        notes=["The amount is what the fund would pay (14.19(k)); contributions include the part set aside for the "
               "next payout (14.19(p)), which is not added to the amount until a payout."])
