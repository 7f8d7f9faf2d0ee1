"""How the designer's page writes its figures: probabilities as percentages and as "1 in N", rates with one
decimal, an unknown figure (no hit in the deals, no history) as a dash."""
import math

from django import template

register = template.Library()
DASH = "—"


@register.filter
def percent(value: float | None) -> str:
    """A probability 0..1 as a percentage with three significant digits in fixed notation, e.g. 0.01 -> "1.00 %",
    0.000123 -> "0.0123 %", 1e-7 -> "0.0000100 %"; 100 % and more as a whole number."""
    if value is None:
        return DASH
    if value <= 0:
        return "0 %"
    share = value * 100
    if share >= 100:
        return f"{share:,.0f} %"
    return f"{share:.{max(0, 2 - math.floor(math.log10(share)))}f} %"


@register.filter
def one_in(value: float | None) -> str:
    """A probability as "1 in N" (N rounded to a whole number), e.g. 0.000123 -> "1 in 8,130"."""
    if not value:
        return DASH
    return f"1 in {1 / value:,.0f}"


@register.filter
def figure(value: float | None) -> str:
    """A rate or a count of days with one decimal and thousands separators; a dash when unknown."""
    return DASH if value is None else f"{value:,.1f}"
