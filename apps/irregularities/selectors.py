"""Reads: the irregularities of a gaming day (and shift)."""
from datetime import date

from django.db.models import QuerySet

from apps.casinos.models import Casino

from .models import Irregularity


def irregularities_for(*, casino: Casino, gaming_day: date) -> QuerySet[Irregularity]:
    """The irregularities of one gaming day, newest first, each with its resolution if any (`resolution`)."""
    return (Irregularity.objects.filter(table__casino=casino, gaming_day=gaming_day)
            .select_related("table", "deck", "reported_by", "resolution__resolved_by").order_by("-at", "-pk"))


def unresolved_irregularities(*, casino: Casino) -> QuerySet[Irregularity]:
    """The irregularities of the casino nobody has resolved yet (services.resolve_irregularity), whatever their day,
    oldest first: what needs a person on the floor map (14.15). One query."""
    return (Irregularity.objects.filter(table__casino=casino, resolution__isnull=True)
            .select_related("table", "deck", "reported_by").order_by("at", "pk"))
