"""What a closing table asks of the apps above tables (design.md: a lower app stays ignorant of a higher one).

An app that keeps things at a table (apps.decks: its decks) registers, in its AppConfig.ready, a function that says
what of its own is still at a table; `close_table` asks every registered one, in the closing's transaction, before it
closes the table (N.J.A.C. 13:69F-14.2(a): decks are kept at an open table, none at a closed one). Called directly,
in registration order: no signal, nothing reached through a setting.
"""
from __future__ import annotations

from collections.abc import Callable

from .models import PokerTable

#: table -> what is still at it, each a short text, e.g. "deck 00012 (in use)".
StillAtTable = Callable[[PokerTable], list[str]]

_checks: list[StillAtTable] = []


def register(check: StillAtTable) -> None:
    """Ask `check` at every closing from now on (once, however often it is registered)."""
    if check not in _checks:
        _checks.append(check)


def still_at_table(table: PokerTable) -> list[str]:
    """What every registered app still has at `table`, in registration order; empty when nothing."""
    return [item for check in _checks for item in check(table)]
