"""Reads about poker tables."""
from django.db.models import QuerySet

from apps.casinos.models import Casino
from apps.core.writer import KeptRead

from .models import PokerTable


def tables_of(*, casino: Casino, open_only: bool = False) -> QuerySet[PokerTable]:
    qs = PokerTable.objects.filter(casino=casino).order_by("number")
    return qs.filter(is_open=True) if open_only else qs


def open_tables(*, casino: Casino) -> list[PokerTable]:
    """The casino's open tables by number, each with the games it posts (a mixed-game table's rotation prefetched:
    `posted_games()` reads no more). The one read of which tables are open and what they deal (14.18): the floor map,
    the rotation board, the seats board, the room's screens and the public feed all start from it. Two queries
    whatever the tables."""
    return list(PokerTable.objects.filter(casino=casino, is_open=True).prefetch_related("rotation").order_by("number"))


_TABLES_BY_ID = KeptRead(lambda ids: PokerTable.objects.select_related("casino").filter(pk__in=ids),
                         related=("casino",))


def tables_by_id(*, ids) -> dict[int, PokerTable]:
    """The poker tables of ids `ids` (any casino; an id of no table is left out), each with its casino, by id. The
    hand feed reads its tables here for every round of play posted: one query, its SQL kept (apps.core.writer)."""
    return {table.pk: table for table in _TABLES_BY_ID(sorted(set(ids)))}
