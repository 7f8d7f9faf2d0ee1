"""Writes about poker tables."""
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from apps.casinos.models import Casino
from apps.core.exceptions import DomainError

from .models import SEAT_MAXIMUM, Game, KillOption, PokerTable


def verify_table_configuration(*, game: str, seats: int, minimum_wager: Decimal,
                               maximum_wager: Decimal | None, kill_option: str = KillOption.NONE,
                               kill_pot_minimum: Decimal | None = None) -> None:
    """Check a table's posted configuration.

    Seats may not exceed the game's maximum: hold'em 11 (14.10(b)), Omaha 10 (14.11(b)), seven-card stud 9
    (14.9(b)), five-card draw 8 (14.12(b)), triple draw 7 (14.12A(b)), badugi 9 (14.12B(b)), five-card stud 8
    (14.13(b)), mambo stud 11 (14.13A(b)); at least 2 players (14.6(b)). A kill or half-kill is offered only
    in Omaha high-low split eight or better, with a qualifying pot amount (14.11(i)). Raises DomainError naming
    the field.
    """
    if game not in SEAT_MAXIMUM:
        raise DomainError(f"Unknown game {game!r}; N.J.A.C. 13:69F-14.8 lists the permissible games.", field="game")
    maximum, clause = SEAT_MAXIMUM[game]
    if seats < 2 or seats > maximum:
        raise DomainError(f"This game seats 2 to {maximum} players (N.J.A.C. 13:69F-{clause}).", field="seats")
    if maximum_wager is not None and maximum_wager < minimum_wager:
        raise DomainError("The maximum wager may not be below the minimum wager (14.17).", field="maximum_wager")
    if kill_option != KillOption.NONE:
        if game != Game.OMAHA_HILO8:
            raise DomainError("A kill or half-kill is offered only in Omaha high-low split eight or better "
                              "(N.J.A.C. 13:69F-14.11(i)).", field="kill_option")
        if kill_pot_minimum is None or kill_pot_minimum <= 0:
            raise DomainError("Give the pot amount that qualifies for the kill (14.11(i)).", field="kill_pot_minimum")


@transaction.atomic
def create_table(*, casino: Casino, number: int, game: str, seats: int, minimum_wager: Decimal,
                 maximum_wager: Decimal | None = None, **posted: object) -> PokerTable:
    """Create a table with its posted limits (N.J.A.C. 13:69F-14.8, 14.17). Raises DomainError."""
    verify_table_configuration(game=game, seats=seats, minimum_wager=minimum_wager, maximum_wager=maximum_wager,
                               kill_option=str(posted.get("kill_option", KillOption.NONE)),
                               kill_pot_minimum=posted.get("kill_pot_minimum"))  # type: ignore[arg-type]
    if PokerTable.objects.filter(casino=casino, number=number).exists():
        raise DomainError(f"Table {number} already exists.", field="number")
    return PokerTable.objects.create(casino=casino, number=number, game=game, seats=seats,
                                     minimum_wager=minimum_wager, maximum_wager=maximum_wager, **posted)


@transaction.atomic
def update_table(*, table: PokerTable, **changes: object) -> PokerTable:
    """Change a table's posted configuration, re-checking it as a whole. Raises DomainError."""
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    for name, value in changes.items():
        setattr(table, name, value)
    verify_table_configuration(game=table.game, seats=table.seats, minimum_wager=table.minimum_wager,
                               maximum_wager=table.maximum_wager, kill_option=table.kill_option,
                               kill_pot_minimum=table.kill_pot_minimum)
    table.save()
    return table


@transaction.atomic
def open_table(*, table: PokerTable) -> PokerTable:
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if not table.is_open:
        table.is_open, table.opened_at = True, timezone.now()
        table.save(update_fields=["is_open", "opened_at"])
    return table


@transaction.atomic
def close_table(*, table: PokerTable) -> PokerTable:
    table = PokerTable.objects.select_for_update().get(pk=table.pk)
    if table.is_open:
        table.is_open = False
        table.save(update_fields=["is_open"])
    return table
