"""Reads of the hand feed: which table a hand goes to, import jobs, and the rake audit of imported hands."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db.models import QuerySet

from apps.casinos.models import Casino
from apps.tables.models import Game, PokerTable, StraddleOption

from .models import ImportJob, SourceRakeDay, SourceSettlement
from .phh import ParsedHand


def tables_dealing(*, casino: Casino) -> QuerySet[PokerTable]:
    """The casino's tables with their rotations, in number order (one query for the tables, one for rotations)."""
    return PokerTable.objects.filter(casino=casino).select_related("casino").prefetch_related("rotation") \
        .order_by("number")


def table_for_hand(*, hand: ParsedHand, tables: Sequence[PokerTable], fixed: bool = False, open_only: bool = True
                   ) -> tuple[PokerTable | None, str]:
    """The table a PHH hand is recorded at, or (None, why not).

    A table deals the hand's game when it is its game or a game of its rotation and seats the hand's players (no more
    than its games seat, PokerTable.seat_maximum). Among those: first a
    table that posts the hand's forced bets and limits, then, for a straddled hand, one whose game allows a straddle
    (verify_round checks where and how many), then one of the same betting structure, then a single-game table before a
    mixed-game one, then the lowest number. A closed table takes no hand unless not `open_only` (an administrator's
    backfill of past days); `fixed`: the one table given must deal the game (verify_round refuses it when closed, naming
    the table). """
    variant, players = hand.variant, len(hand.round_in.players)
    label = f"a {variant.label} hand ({variant.code})"
    straddled = any(p.straddle for p in hand.round_in.players)
    candidates, closed = [], []
    for table in tables:
        posting = table.posting_for(variant.game, variant.betting_structure)
        if open_only and not fixed and not table.is_open:
            if posting is not None and players <= table.seat_maximum:
                closed.append(str(table.number))
            continue
        if posting is None:
            if fixed:
                return None, (f"table {table.number} does not deal {Game(variant.game).label}; {label} cannot be "
                              "recorded there")
            continue
        if players > table.seat_maximum:
            if fixed:
                return None, f"table {table.number} seats at most {table.seat_maximum}; {label} has {players} players"
            continue
        candidates.append(((hand.stakes.posted_at(posting), not straddled or posting.straddles != StraddleOption.NONE,
                            posting.betting_structure == variant.betting_structure,
                            not table.is_mixed, -table.number), table))
    if not candidates:
        if closed:
            return None, (f"no open table of the casino deals {Game(variant.game).label} for {players} players "
                          f"(closed: table {', '.join(closed)}); open one to take in {label}")
        return None, (f"no table of the casino deals {Game(variant.game).label} for {players} players; create one "
                      f"(or a mixed-game table whose rotation includes it) to take in {label}")
    return max(candidates, key=lambda c: c[0])[1], ""


def import_job(*, casino: Casino, pk: int) -> ImportJob | None:
    """One import job of the casino, or None."""
    return ImportJob.objects.filter(casino=casino, pk=pk).first()


def source_settlements(*, casino: Casino, gaming_day: date | None = None) -> QuerySet[SourceSettlement]:
    """The rake audit of the casino's imported hands (SourceSettlement), newest first, with each row's table and
    round of play; of one gaming day when given. Page it (apps.core.pagination.keyset_page, ordering ("-id",)): the
    indexes source_settlement_newest and source_settlement_day_newest back it."""
    rows = SourceSettlement.objects.filter(casino=casino)
    if gaming_day is not None:
        rows = rows.filter(gaming_day=gaming_day)
    return rows.select_related("table", "round_of_play").order_by("-id")


def source_rake_days(*, casino: Casino, gaming_day: date | None = None) -> QuerySet[SourceRakeDay]:
    """The rake audit's running totals of the casino, one per table and gaming day (SourceRakeDay: hands, flagged,
    pot, source's rake and ours, Decimal dollars), newest day first; of one gaming day when given (a row per table at
    most). Page the days (keyset_page, ordering ("-gaming_day", "-id"): the index source_rake_day_newest)."""
    rows = SourceRakeDay.objects.filter(table__casino=casino)
    if gaming_day is not None:
        rows = rows.filter(gaming_day=gaming_day)
    return rows.select_related("table").order_by("-gaming_day", "-id")
