"""Reads about poker tables."""
from django.db.models import QuerySet

from apps.casinos.models import Casino
from apps.core.writer import KeptRead

from .models import PokerTable


def tables_of(*, casino: Casino, open_only: bool = False) -> QuerySet[PokerTable]:
    qs = PokerTable.objects.filter(casino=casino).order_by("number")
    return qs.filter(is_open=True) if open_only else qs


_TABLES_BY_ID = KeptRead(lambda ids: PokerTable.objects.select_related("casino").filter(pk__in=ids),
                         related=("casino",))


def tables_by_id(*, ids) -> dict[int, PokerTable]:
    """The poker tables of ids `ids` (any casino; an id of no table is left out), each with its casino, by id. The
    hand feed reads its tables here for every round of play posted: one query, its SQL kept (apps.core.writer)."""
    return {table.pk: table for table in _TABLES_BY_ID(sorted(set(ids)))}
