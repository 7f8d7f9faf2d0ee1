"""Template helpers of the seats board."""
from datetime import datetime, timedelta

from django import template

from apps.seats.forms import PassOverForm, RemoveForm
from apps.seats.models import WaitlistEntry

register = template.Library()


@register.filter
def state_at(entry: WaitlistEntry, now: datetime) -> str:
    """The entry's state at `now` (models.EntryState value), for the row to offer what fits."""
    return entry.state(now)


@register.simple_tag
def pass_over_form(entry: WaitlistEntry, now: datetime) -> PassOverForm:
    """The row's pass-over form: only the reasons that fit the player now (models.PASS_REASONS)."""
    return PassOverForm(entry=entry, now=now)


@register.simple_tag
def remove_form(entry: WaitlistEntry) -> RemoveForm:
    """The row's removal form (the reason and a note), shown when the floor opens Remove…"""
    return RemoveForm(entry=entry)


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
