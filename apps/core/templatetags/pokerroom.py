from datetime import timedelta

from django import template

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
