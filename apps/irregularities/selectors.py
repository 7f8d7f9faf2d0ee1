"""Reads: the irregularities of a gaming day (and shift)."""
from datetime import date

from django.db.models import QuerySet

from apps.casinos.models import Casino

from .models import Irregularity


def irregularities_for(*, casino: Casino, gaming_day: date) -> QuerySet[Irregularity]:
    return (Irregularity.objects.filter(table__casino=casino, gaming_day=gaming_day)
            .select_related("table", "deck", "reported_by").order_by("-at", "-pk"))
