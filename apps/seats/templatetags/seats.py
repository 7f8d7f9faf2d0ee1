"""Template helpers of the seats board."""
from datetime import datetime, timedelta

from django import template

register = template.Library()


@register.simple_tag
def problem_for(problem: dict | None, *parts) -> str:
    """The message of the board's refused action when it came from the form named by `parts` (joined by "-"), else
    "" — so the message shows beside the form that sent it."""
    if not problem:
        return ""
    return problem["message"] if problem["form_id"] == "-".join(str(p) for p in parts) else ""


@register.filter
def add_minutes(moment: datetime | None, minutes: int) -> datetime | None:
    return None if moment is None else moment + timedelta(minutes=int(minutes))
