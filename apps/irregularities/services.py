"""Writes: logging irregularities at the tables (N.J.A.C. 13:69F-14.15)."""
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from apps.casinos.selectors import gaming_day_of
from apps.core.exceptions import DomainError
from apps.decks.models import Deck
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .models import Irregularity, IrregularityKind


@transaction.atomic
def log_irregularity(*, table: PokerTable, kind: str, description: str, reported_by=None,
                     at: datetime | None = None, deck: Deck | None = None,
                     round_of_play: RoundOfPlay | None = None) -> Irregularity:
    """Log an irregularity of 14.15 with who, when, table, deck and round. Raises DomainError naming the field.

    The deck and the round, when given, must belong to the table; the time may not be in the future.
    """
    if kind not in IrregularityKind.values:
        raise DomainError(f"Unknown irregularity {kind!r}.", field="kind")
    if not description.strip():
        raise DomainError("Describe what happened.", field="description")
    at = at or timezone.now()
    if timezone.is_naive(at) or at > timezone.now():
        raise DomainError("The time must be an aware time, not in the future.", field="at")
    if deck is not None and deck.casino_id != table.casino_id:
        raise DomainError("That deck belongs to another casino.", field="deck")
    if round_of_play is not None and round_of_play.table_id != table.pk:
        raise DomainError("That round was played at another table.", field="round_of_play")
    return Irregularity.objects.create(kind=kind, table=table, deck=deck, round_of_play=round_of_play, at=at,
                                       gaming_day=gaming_day_of(casino=table.casino, moment=at),
                                       reported_by=reported_by, description=description.strip()[:500])
