"""Reads about rake."""
from datetime import date
from decimal import Decimal

from django.db.models import Sum

from apps.casinos.models import Casino

from .models import RakeRecord


def rake_for_gaming_day(*, casino: Casino, gaming_day: date) -> Decimal:
    """Total rake (Decimal dollars) taken at the casino's tables on a gaming day."""
    return RakeRecord.objects.filter(table__casino=casino, gaming_day=gaming_day).aggregate(
        total=Sum("amount", default=Decimal("0.00")))["total"]
