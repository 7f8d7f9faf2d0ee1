"""Writes: logging irregularities at the tables and resolving them (N.J.A.C. 13:69F-14.15)."""
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.casinos.models import User
from apps.casinos.selectors import gaming_day_of
from apps.core.exceptions import AlreadyRecorded, DomainError
from apps.core.roles import Role
from apps.decks.models import Deck
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable

from .models import Irregularity, IrregularityKind, IrregularityResolution

#: Who sees to an irregularity reported at a table: the floor (14.15).
RESOLVERS = (Role.POKER_SHIFT_SUPERVISOR, Role.FLOORPERSON)


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


@transaction.atomic
def resolve_irregularity(*, irregularity: Irregularity, by: User, note: str = "",
                         at: datetime | None = None) -> IrregularityResolution:
    """A supervisor or floorperson (RESOLVERS) has seen to `irregularity` (N.J.A.C. 13:69F-14.15): record who, when
    (`at`, aware, not in the future; now when None) and what was done (`note`, at most 300 characters). It then no
    longer needs a person (apps.floor: the floor map's strip and the table's tile). Raises DomainError: `by` not of
    the floor ("by") or of another casino ("irregularity"), a bad time ("at"); AlreadyRecorded (409) when it is
    resolved already."""
    if not (by.is_superuser or by.has_role(*RESOLVERS)):
        raise DomainError("An irregularity is resolved by the poker shift supervisor or a floorperson.", field="by")
    irregularity = Irregularity.objects.select_related("table__casino").get(pk=irregularity.pk)
    if irregularity.table.casino_id != by.casino_id and not by.is_superuser:
        raise DomainError("That irregularity is not in this room.", field="irregularity")
    at = at or timezone.now()
    if timezone.is_naive(at) or at > timezone.now():
        raise DomainError("The time must be an aware time, not in the future.", field="at")
    try:  # one resolution per irregularity (its unique key decides between two at once; the record is append-only)
        with transaction.atomic():
            return IrregularityResolution.objects.create(irregularity=irregularity, resolved_by=by, resolved_at=at,
                                                         note=note.strip()[:300])
    except IntegrityError:
        existing = IrregularityResolution.objects.get(irregularity=irregularity)
    when = timezone.localtime(existing.resolved_at, irregularity.table.casino.zone)
    raise AlreadyRecorded(f"This irregularity was resolved already, at {when:%H:%M}.", field="irregularity",
                          existing_id=existing.pk)
