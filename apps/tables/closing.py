"""What a closing table asks of the apps above tables (design.md: a lower app stays ignorant of a higher one).

An app that keeps things at a table registers, in its AppConfig.ready, a `Keeper`: what of its own is still at a
table (apps.decks: its decks, N.J.A.C. 13:69F-14.2(a)-two-decks; apps.seats: the players in its seats) and how to take
it away once the person closing the table confirms they have (the decks collected, the players unseated). `close_table`
asks every registered keeper, in the closing's transaction: a closing with something still at the table is refused with
its list under the keeper's confirmation field until that confirmation is given; then each keeper records the collection
(its own append-only events). A keeper without `collect` lists what no confirmation takes away: the closing is refused
while it lists anything, until it is dealt with in its own app first (apps.counts: a contribution container not yet
counted, N.J.A.C. 13:69F-14.19(f)1-closing). Called directly, in registration order: no signal, nothing reached through
a setting. """
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from apps.casinos.models import User

from .models import PokerTable


@dataclass(frozen=True)
class Keeper:
    """One app's part in a closing.

    `field`: the closing's confirmation (a keyword of close_table, a form and API field), e.g. "decks_collected";
    `ask`: what the person closing is asked to do before confirming, e.g. "Collect its decks (14.2(a)-two-decks)";
    `still_at(table)`: what is still at the table, each a short text ("deck 00012 (in use)"), empty when nothing;
    `collect(table, by, at)`: record that those things left the table, `by` the person closing it, at `at`; None when
    no confirmation will do: while `still_at` lists anything the closing is refused with `ask` (e.g. "Record a count
    of its contribution container first"), whatever is confirmed."""

    field: str
    ask: str
    still_at: Callable[[PokerTable], list[str]]
    collect: Callable[[PokerTable, User, datetime], object] | None = None


_keepers: list[Keeper] = []


def register(keeper: Keeper) -> None:
    """Ask `keeper` at every closing from now on (once, however often a keeper of its field is registered)."""
    if all(k.field != keeper.field for k in _keepers):
        _keepers.append(keeper)


def keepers() -> list[Keeper]:
    """The registered keepers, in registration order."""
    return list(_keepers)


def still_at_table(table: PokerTable) -> dict[str, list[str]]:
    """What every registered keeper with a confirmation (a `collect`) still has at `table`, by its confirmation field;
    a keeper with nothing there is left out (an empty dict: nothing is at the table)."""
    return {k.field: items for k in _keepers if k.collect is not None and (items := k.still_at(table))}


def closing_blocked(table: PokerTable) -> dict[str, str]:
    """What must be dealt with before `table` closes, whatever is confirmed (the keepers without a `collect`), by
    field: its items and what to do, as close_table refuses it, e.g. {"container_counted": "$12.50 of bad beat
    contributions not yet counted in its contribution container. Record a count of its contribution container ...
    (N.J.A.C. 13:69F-14.19(f)1-closing)."}; empty when nothing blocks the closing."""
    return {k.field: f"{', '.join(items)}. {k.ask}." for k in _keepers
            if k.collect is None and (items := k.still_at(table))}
