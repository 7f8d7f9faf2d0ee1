"""Writes: planning the dealer rotation of a shift."""
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from apps.casinos.models import Casino, User
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.tables.models import PokerTable

from .models import DealerDown


@transaction.atomic
def plan_rotation(*, casino: Casino, dealers: list[User], tables: list[PokerTable], start: datetime,
                  hours: int, down_minutes: int, planned_by: User) -> list[DealerDown]:
    """Plan fixed downs for a shift: each down every dealer moves to the next table, and after the last table
    takes a break, so breaks rotate evenly. Replaces the planned downs of these dealers and tables from `start`.

    Needs more dealers than tables (someone is always on break), every dealer with the dealer role, downs of
    15 to 60 minutes, 1 to 12 hours. Raises DomainError naming the field.
    """
    if not (planned_by.is_superuser or planned_by.has_role(Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN)):
        raise DomainError("The poker shift supervisor plans the dealer rotation.", field="planned_by")
    if not tables:
        raise DomainError("Choose the tables to deal.", field="tables")
    if len(dealers) <= len(tables):
        raise DomainError(f"{len(tables)} tables need at least {len(tables) + 1} dealers so that breaks rotate.",
                          field="dealers")
    if any(t.casino_id != casino.pk for t in tables) or any(d.casino_id != casino.pk for d in dealers):
        raise DomainError("Dealers and tables must be of this casino.", field="dealers")
    not_dealers = [d.username for d in dealers if not d.has_role(Role.DEALER)]
    if not_dealers:
        raise DomainError(f"Not dealers: {', '.join(not_dealers)}.", field="dealers")
    if not 15 <= down_minutes <= 60:
        raise DomainError("A down lasts 15 to 60 minutes.", field="down_minutes")
    if not 1 <= hours <= 12:
        raise DomainError("Plan 1 to 12 hours.", field="hours")
    if timezone.is_naive(start):
        raise DomainError("The start must carry a time zone.", field="start")
    end = start + timedelta(hours=hours)
    DealerDown.objects.filter(casino=casino, starts_at__gte=start, starts_at__lt=end, dealer__in=dealers).delete()
    DealerDown.objects.filter(casino=casino, starts_at__gte=start, starts_at__lt=end, table__in=tables).delete()
    downs, length = [], timedelta(minutes=down_minutes)
    order = sorted(tables, key=lambda t: t.number)
    count = len(dealers)
    k, at = 0, start
    while at < end:
        for i, dealer in enumerate(dealers):
            position = (i + k) % count
            downs.append(DealerDown(casino=casino, dealer=dealer, table=order[position] if position < len(order) else None,
                                    starts_at=at, ends_at=min(at + length, end), planned_by=planned_by))
        k, at = k + 1, at + length
    return DealerDown.objects.bulk_create(downs)
