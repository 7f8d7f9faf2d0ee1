"""Writes of round-of-play records: the rounds, their seats, pots and awards, and the kill button (N.J.A.C.
13:69F-14.7, 14.11(i)-placed, 14.11(i)-limits, 14.11(i)-moves, 14.11(i)-collected). The hand feed (apps.feed) decides
what is written, in the regulation's order; this app keeps the records and knows nothing of rake or the bad beat
payouts."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal

from apps.core.money import CENT
from apps.core.writer import Totals
from apps.tables.models import KillOption, PokerTable

from .models import KillMove, KillRecord, Pot, PotAward, RoundOfPlay, RoundPlayer, TableGamingDay


def day_totals(*, rounds: Sequence[RoundOfPlay]) -> Totals:
    """What new rounds of play add to each table's running total of the gaming day (TableGamingDay: rounds, dead
    rounds, sums bet), for the writer that records them (apps.core.writer)."""
    return Totals(TableGamingDay, ("table_id", "gaming_day"), [
        {"table_id": r.table_id, "gaming_day": r.gaming_day, "rounds": 1, "dead_rounds": int(r.is_dead),
         "pot_total": r.pot_total} for r in rounds])


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat of a round of play (RoundPlayer), as the hand feed settled it. Decimal dollars."""

    seat: int
    name: str
    starting_stack: Decimal | None
    contributed: Decimal
    returned: Decimal
    hole_cards: str
    dealt_cards: str
    draws: list[dict[str, str]]
    folded: bool
    at_showdown: bool
    high_hand: str
    high_cards: str
    low_hand: str
    low_cards: str
    awarded: Decimal
    straddle: Decimal = Decimal("0.00")
    dead_money: Decimal = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class PotRow:
    """The main pot (index 0) or a side pot of a round (14.7(c)4), and the chips pushed from it to each winning seat:
    awards [(seat, Decimal dollars)]. runs: a hand run more than once, each run's share of the pot and its awards
    ({"run": 1, "amount": "50.01", "awards": [{"seat": 3, "amount": "50.01"}]}, Decimal dollars as strings)."""

    index: int
    gross: Decimal
    deducted: Decimal
    amount: Decimal
    eligible_seats: list[int]
    awards: list[tuple[int, Decimal]]
    runs: list[dict] = field(default_factory=list)


_SEAT_FIELDS = tuple(f.name for f in fields(SeatRow))
_POT_FIELDS = tuple(f.name for f in fields(PotRow) if f.name != "awards")


def seats_and_pots(*, round_of_play: RoundOfPlay, seats: Sequence[SeatRow],
                   pots: Sequence[PotRow]) -> tuple[list[RoundPlayer], list[Pot], list[PotAward]]:
    """The records of a round's seats, its pots and the chips pushed from each pot (14.7(c)4), unsaved, for the
    writer that records the round (apps.core.writer): (seats in seat order, pots in order, awards). The round keeps
    them as written (`written_players`, `written_pots`, each pot's `written_awards`) for the answer that recorded
    it."""
    players = [RoundPlayer(round_of_play=round_of_play, **{name: getattr(seat, name) for name in _SEAT_FIELDS})
               for seat in sorted(seats, key=lambda s: s.seat)]
    written_pots: list[Pot] = []
    awards: list[PotAward] = []
    for row in pots:
        pot = Pot(round_of_play=round_of_play, **{name: getattr(row, name) for name in _POT_FIELDS})
        pot.written_awards = [PotAward(pot=pot, seat=seat, amount=amount) for seat, amount in row.awards]
        awards += pot.written_awards
        written_pots.append(pot)
    round_of_play.written_players, round_of_play.written_pots = players, written_pots
    return players, written_pots, awards


def current_kill(*, table: PokerTable) -> KillRecord | None:
    """The kill in effect for the next round at `table`, or None (no kill offered, or collected)."""
    if table.kill_option == KillOption.NONE:
        return None
    latest = table.kill_records.order_by("-round_of_play__started_at", "-pk").first()
    return latest if latest is not None and latest.seat is not None else None


def kill_limits(*, table: PokerTable) -> tuple[Decimal, Decimal | None, str]:
    """The wagering limits of the next round: twice the posted limits with a kill, one and a half times with a
    half-kill (N.J.A.C. 13:69F-14.1, 14.11(i)-limits); the posted limits otherwise. Returns (minimum, maximum,
    label)."""
    kill = current_kill(table=table)
    if kill is None:
        return table.minimum_wager, table.maximum_wager, "Posted limits"
    factor = Decimal(2) if table.kill_option == KillOption.KILL else Decimal("1.5")
    maximum = table.maximum_wager * factor if table.maximum_wager is not None else None
    return (table.minimum_wager * factor).quantize(CENT), maximum.quantize(CENT) if maximum is not None else None, \
        f"{table.get_kill_option_display()} in effect: seat {kill.seat} holds the kill button"


def move_kill_button(*, round_of_play: RoundOfPlay, table: PokerTable, awards: dict[str, Decimal]) -> None:
    """Move the kill button after a round (N.J.A.C. 13:69F-14.11(i)-placed, 14.11(i)-moves, 14.11(i)-collected); awards:
    seat -> chips won from the pots.

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
