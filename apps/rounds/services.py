"""Writes of round-of-play records: the rounds, their seats, pots and awards, and the kill button (N.J.A.C.
13:69F-14.7, 14.11(i)). The hand feed (apps.feed) decides what is written, in the regulation's order; this app keeps
the records and knows nothing of rake or the bad beat payouts."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple

from apps.core.bulk import Rows, insert_family, insert_rows, totals_statement
from apps.core.money import CENT
from apps.tables.models import KillOption, PokerTable

from .models import KillMove, KillRecord, Pot, PotAward, RoundOfPlay, RoundPlayer, TableGamingDay


def create_rounds(*, rounds: Sequence[RoundOfPlay]) -> list[RoundOfPlay]:
    """Insert new rounds of play (unsaved RoundOfPlay rows, append-only: one INSERT for a few, COPY for many); they
    get their ids. Each table's running total of the gaming day (TableGamingDay: rounds, dead rounds, sums bet) is
    added to first, in the same round trip for a few. Call in the transaction that records their money."""
    days = totals_statement(TableGamingDay, key=("table_id", "gaming_day"), rows=[
        {"table_id": r.table_id, "gaming_day": r.gaming_day, "rounds": 1, "dead_rounds": int(r.is_dead),
         "pot_total": r.pot_total} for r in rounds])
    return list(insert_rows(RoundOfPlay, rounds, before=[days]))  # the day's totals, then the rounds


class SeatRow(NamedTuple):
    """A seat of a recorded round of play (RoundPlayer), as the hand feed settled it. Decimal dollars."""

    round_of_play_id: int
    seat: int
    name: str
    starting_stack: Decimal | None
    contributed: Decimal
    returned: Decimal
    hole_cards: str
    dealt_cards: str
    draws: list
    folded: bool
    at_showdown: bool
    high_hand: str
    high_cards: str
    low_hand: str
    low_cards: str
    awarded: Decimal


class PotRow(NamedTuple):
    """The main pot (index 0) or a side pot of a recorded round (14.7(c)4), and the chips pushed from it to each
    winning seat: awards [(seat, Decimal dollars)]."""

    round_of_play_id: int
    index: int
    gross: Decimal
    deducted: Decimal
    amount: Decimal
    eligible_seats: list
    awards: list


def record_seats_and_pots(*, seats: Sequence[SeatRow], pots: Sequence[PotRow]) -> tuple[list[RoundPlayer], list[Pot]]:
    """Insert the seats of rounds of play and their pots with the chips pushed from each (14.7(c)4, 14.3), for
    recorded rounds: on PostgreSQL in one round trip for a round or two, else an INSERT or a COPY each
    (`insert_family`). Returns the rows as written (seats in order; pots with their ids and their awards
    prefetched), for an answer that need not read them back."""
    pot_ids = insert_family(
        Rows(Pot, PotRow._fields[:-1], [pot[:-1] for pot in pots]), key=("round_of_play_id", "index"),
        children=Rows(PotAward, ("seat", "amount"),
                      [(pot.round_of_play_id, pot.index, seat, amount) for pot in pots for seat, amount in pot.awards]),
        first=Rows(RoundPlayer, SeatRow._fields, seats))
    players = [RoundPlayer(**seat._asdict()) for seat in seats]
    written = []
    for pot_id, pot in zip(pot_ids, pots, strict=True):
        row = Pot(pk=pot_id, **{name: value for name, value in pot._asdict().items() if name != "awards"})
        hold_prefetched(row, awards=[PotAward(pot_id=pot_id, seat=seat, amount=amount) for seat, amount in pot.awards])
        written.append(row)
    return players, written


def hold_prefetched(instance, **related: list) -> None:
    """Give `instance` its related rows as Django's prefetch_related would (name -> rows, e.g. players=[...]):
    `instance.players.all()` then reads them without a query; a filter on them still queries the database."""
    cache = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    for name, rows in related.items():
        queryset = getattr(instance, name).get_queryset()
        queryset._result_cache, queryset._prefetch_done = list(rows), True
        cache[name] = queryset


def current_kill(*, table: PokerTable) -> KillRecord | None:
    """The kill in effect for the next round at `table`, or None (no kill offered, or collected)."""
    if table.kill_option == KillOption.NONE:
        return None
    latest = table.kill_records.order_by("-round_of_play__started_at", "-pk").first()
    return latest if latest is not None and latest.seat is not None else None


def kill_limits(*, table: PokerTable) -> tuple[Decimal, Decimal | None, str]:
    """The wagering limits of the next round: twice the posted limits with a kill, one and a half times with a
    half-kill (N.J.A.C. 13:69F-14.1, 14.11(i)); the posted limits otherwise. Returns (minimum, maximum, label)."""
    kill = current_kill(table=table)
    if kill is None:
        return table.minimum_wager, table.maximum_wager, "Posted limits"
    factor = Decimal(2) if table.kill_option == KillOption.KILL else Decimal("1.5")
    maximum = table.maximum_wager * factor if table.maximum_wager is not None else None
    return (table.minimum_wager * factor).quantize(CENT), maximum.quantize(CENT) if maximum is not None else None, \
        f"{table.get_kill_option_display()} in effect: seat {kill.seat} holds the kill button"


def move_kill_button(*, round_of_play: RoundOfPlay, table: PokerTable, awards: dict[str, Decimal]) -> None:
    """Move the kill button after a round (N.J.A.C. 13:69F-14.11(i)); awards: seat -> chips won from the pots.

    A player who wins the entire pot, the pot qualifying in amount, takes the kill button for the next round;
    the kill is collected once a pot does not qualify in amount or is split between a high and a low winner
    (or shared by tied hands, when no single player wins the entire pot).
    """
    holder = current_kill(table=table)
    winners = {seat for seat, amount in awards.items() if amount > 0}
    qualifies = round_of_play.pot_total >= (table.kill_pot_minimum or Decimal(0))
    if qualifies and len(winners) == 1:
        seat = int(next(iter(winners)))
        move = KillMove.PLACED if holder is None else (KillMove.KEPT if holder.seat == seat else KillMove.MOVED)
        reason = f"Seat {seat} won the entire ${round_of_play.pot_total:,.2f} pot."
    else:
        seat, move = None, KillMove.COLLECTED
        reason = (f"The ${round_of_play.pot_total:,.2f} pot does not qualify in amount." if not qualifies
                  else "The pot was split.")
        if holder is None:
            return  # nothing to collect, nothing to record
    KillRecord.objects.create(round_of_play=round_of_play, table=table, move=move, seat=seat, reason=reason)
