from datetime import timedelta
from decimal import Decimal, InvalidOperation

from django import template

from apps.core.money import dollars

register = template.Library()


@register.filter
def hm(value: timedelta | None) -> str:
    """A duration as H:MM (negative durations as -H:MM)."""
    if value is None:
        return "—"
    seconds = int(value.total_seconds())
    sign = "-" if seconds < 0 else ""
    minutes = abs(seconds) // 60
    return f"{sign}{minutes // 60}:{minutes % 60:02d}"


@register.filter
def money(value: Decimal | int | str | None) -> str:
    """An amount of Decimal dollars as the room reads it: "$2,675.00", "\u2212$15.00" (apps.core.money.dollars);
    "—" for None or an empty string, and the value unchanged when it is not a number."""
    if value is None or value == "":
        return "—"
    try:
        return dollars(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
