"""Reads about poker tables."""
from django.db.models import QuerySet

from apps.casinos.models import Casino

from .models import PokerTable


def tables_of(*, casino: Casino, open_only: bool = False) -> QuerySet[PokerTable]:
    qs = PokerTable.objects.filter(casino=casino).order_by("number")
    return qs.filter(is_open=True) if open_only else qs
