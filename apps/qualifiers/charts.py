"""The designer's charts (drawn by static/js/charts.js, figures also as a table; apps.core.charts): the expected
gaming days between hits of each candidate rule, and the chance of a hit within d gaming days,
1 − (1 − p)^(rounds a day × d), a line per candidate."""
from __future__ import annotations

from dataclasses import dataclass

from apps.core.charts import Chart, Series

from .designer import Figures, chance_of_hit

#: The spans (gaming days) of the chance-of-a-hit curve.
CURVE_DAYS = (7, 14, 30, 60, 90, 180, 365, 730)


@dataclass(frozen=True)
class PercentChart(Chart):
    """A chart of percentages (0-100) with one decimal, or whole days: Chart sends a non-money series as whole
    numbers, which would flatten a 0.4 % chance to 0."""

    @property
    def data(self) -> dict:
        data = super().data
        for sent, series in zip(data["series"], self.series, strict=True):
            sent["values"] = [round(float(v), 1) for v in series.values]
        return data


def days_to_hit_charts(results: list[tuple[int, Figures]]) -> list[Chart]:
    """[expected days between hits (bars), chance of a hit within d days (lines)] for (candidate number, figures);
    empty when no candidate has a known rate (no hit in the deals, or no history of the game)."""
    known = [(number, f) for number, f in results if f.days_between_hits is not None]
    if not known:
        return []
    days_between = [days for _, f in known if (days := f.days_between_hits) is not None]
    bars = PercentChart(
        id="days-between-hits", title="Expected gaming days between hits", kind="bar", horizontal=True,
        label_heading="Candidate", labels=[f"Candidate {n}" for n, f in known],
        series=[Series("Gaming days between hits", [round(days, 1) for days in days_between], money=False)],
        description="one bar per candidate rule; a shorter bar hits more often")
    curve = PercentChart(
        id="chance-of-hit", title="Chance of a hit within d gaming days (%)", kind="line", label_heading="Gaming days",
        labels=[f"{d} days" for d in CURVE_DAYS],
        series=[Series(f"Candidate {n}", [round(100 * chance_of_hit(f.probability, f.rounds_per_day * d), 1)
                                               for d in CURVE_DAYS], money=False) for n, f in known],
        description="a line per candidate rule, rising with the days",
        notes=["1 − (1 − p)^(rounds a gaming day × days), with p the probability per round of play."])
    return [bars, curve]
