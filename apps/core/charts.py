"""Charts drawn in the browser by static/js/charts.js (Chart.js, vendored under static/vendor/chart.js/).

A page passes a `Chart` to templates/includes/chart.html, which writes a <canvas data-chart> with an aria-label, the
chart's figures as JSON (Django's json_script: the Content-Security-Policy forbids inline scripts, not data) and the
same figures as a table for those who read rather than look. The figures come from the owning app's selectors,
bounded to a span of gaming days (`chart_span`) and read from running totals kept per day; nothing here queries.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from django.core.exceptions import BadRequest
from django.http import HttpRequest
from django.utils.formats import date_format

#: The spans of gaming days a chart may cover (?span=30 or ?span=90), ending with the gaming day shown.
CHART_SPANS = (30, 90)


def chart_span(text: str | None, *, field_name: str = "span") -> int:
    """The number of gaming days a chart covers, from a page's query parameter: one of CHART_SPANS, the first when
    empty. Raises django's BadRequest (the page answers 400 naming `field_name`) for anything else."""
    if not text:
        return CHART_SPANS[0]
    if text not in {str(n) for n in CHART_SPANS}:
        raise BadRequest(f"{field_name}: choose one of {', '.join(str(n) for n in CHART_SPANS)} days.")
    return int(text)


def span_start(*, end: date, days: int) -> date:
    """The first of the `days` gaming days that end with `end`."""
    return end - timedelta(days=days - 1)


def span_links(request: HttpRequest, *, days: int, field_name: str = "span") -> list[dict[str, Any]]:
    """The links to the other spans of a page's charts, keeping its other query parameters (e.g. ?day=):
    [{"days", "url", "current"}] for each of CHART_SPANS."""
    links = []
    for n in CHART_SPANS:
        query = request.GET.copy()
        query[field_name] = str(n)
        links.append({"days": n, "url": f"?{query.urlencode()}", "current": n == days})
    return links


def day_label(day: date) -> str:
    """A gaming day as a chart's label, e.g. "Fri Nov 20": the weekday and the room's month and day
    (MONTH_DAY_FORMAT, pokerroom/formats), as every page writes a date ("Nov 20, 2026")."""
    return f"{date_format(day, 'D')} {date_format(day, 'MONTH_DAY_FORMAT')}"


@dataclass(frozen=True)
class Series:
    """One line or set of bars: a value per label, Decimal dollars when `money` (sent as exact strings), else int (a
    percent chart's, apps.qualifiers.charts, a float).
    `kind` overrides the chart's kind (a line over bars); `axis` "y2" puts it on a second scale at the right."""

    label: str
    values: Sequence[Decimal | int | float]
    money: bool = True
    kind: str | None = None
    axis: str = "y"


@dataclass(frozen=True)
class Chart:
    """A chart and its figures: `kind` "bar" or "line", one label per point (a day, a week, a table, an hour) and
    its series. `description` completes the canvas's aria-label (what the chart shows, in words)."""

    id: str
    title: str
    kind: str
    labels: list[str]
    series: list[Series]
    description: str = ""
    label_heading: str = ""
    stacked: bool = False
    horizontal: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def data_id(self) -> str:
        return f"chart-{self.id}-data"

    @property
    def data(self) -> dict[str, Any]:
        """What charts.js reads: labels, series (values as strings for money, so that no cent is rounded on the way),
        and how to draw them."""
        return {"kind": self.kind, "labels": self.labels, "stacked": self.stacked, "horizontal": self.horizontal,
                "series": [{"label": s.label, "money": s.money, "kind": s.kind or self.kind, "axis": s.axis,
                            "values": [f"{v:.2f}" if s.money else int(v) for v in s.values]} for s in self.series]}

    @property
    def rows(self) -> list[tuple[str, list[tuple[Decimal | int | float, bool]]]]:
        """The figures as table rows: (label, [(value, money) for each series])."""
        return [(label, [(s.values[i], s.money) for s in self.series]) for i, label in enumerate(self.labels)]

    @property
    def aria_label(self) -> str:
        what = ", ".join(s.label for s in self.series)
        return (f"{self.title}: {self.kind} chart of {what}"
                f"{' — ' + self.description if self.description else ''}. The figures are in the table below it.")

    @property
    def is_empty(self) -> bool:
        return not self.labels or all(not v for s in self.series for v in s.values)
