"""Writes about casinos and staff, and the opening and closing of gaming days."""
from collections.abc import Iterable
from datetime import date, datetime

from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role

from .models import Casino, GamingDay, User


def ensure_role_groups() -> None:
    """Create one Django group per staff role (idempotent; runs after every migrate)."""
    for role in Role:
        Group.objects.get_or_create(name=role.value)


@transaction.atomic
def create_staff_member(*, casino: Casino, username: str, password: str, roles: list[Role],
                        first_name: str = "", last_name: str = "", license_number: str = "",
                        **profile) -> User:
    """Create (or update) a staff user of `casino` with exactly `roles`; `profile`: license_type, department,
    works_on_casino_floor, approved_count_witness."""
    ensure_role_groups()
    user, _ = User.objects.update_or_create(
        username=username,
        defaults={"casino": casino, "first_name": first_name, "last_name": last_name,
                  "license_number": license_number, "is_staff": Role.ADMIN in roles, **profile},
    )
    user.set_password(password)
    user.save()
    user.groups.set(Group.objects.filter(name__in=[r.value for r in roles]))
    return user


def hold_open_gaming_days(*, casino_id: int, days: Iterable[date], what: str, field: str = "gaming_day") -> None:
    """Refuse a write that changes the money of a closed gaming day, and keep the days open until the caller's
    transaction commits (the daily count's close waits for it).

    days: the gaming days the write records money in; what: what is refused, for the message (e.g. "a round of
    play"). Call inside the write's transaction, before its first money record. Each day's row is created if
    missing and held with a share lock on PostgreSQL (concurrent writes to the same day do not wait for each
    other). Raises DomainError (400, `field`) naming the closed day and when it closed: a late correction is
    recorded by accounting in an open day instead.
    """
    wanted = sorted(set(days))
    if not wanted:
        return

    def held(days) -> list[tuple[date, datetime | None]]:  # (gaming day, closed at)
        if connection.vendor != "postgresql":
            return list(GamingDay.objects.filter(casino_id=casino_id, gaming_day__in=days)
                        .values_list("gaming_day", "closed_at"))
        with connection.cursor() as cursor:  # every round of play asks: no model built
            cursor.execute(f"SELECT gaming_day, closed_at FROM {GamingDay._meta.db_table} WHERE casino_id = %s AND "
                           "gaming_day = ANY(%s) FOR SHARE", [casino_id, days])
            return cursor.fetchall()

    rows = held(wanted)  # one statement once the day has its row (every write but the day's first)
    missing = sorted(set(wanted) - {day for day, _ in rows})
    if missing:
        GamingDay.objects.bulk_create([GamingDay(casino_id=casino_id, gaming_day=day) for day in missing],
                                      ignore_conflicts=True)
        rows += held(missing)
    for day, closed_at in rows:
        if closed_at is not None:
            when = closed_at.astimezone(Casino.objects.get(pk=casino_id).zone).strftime("%Y-%m-%d at %H:%M")
            raise DomainError(
                f"Gaming day {day:%Y-%m-%d} was closed on {when} (the daily count): {what} of that day "
                "can no longer be recorded. Accounting records a late correction in the open gaming day that "
                "refers to it.", field=field)


@transaction.atomic
def close_gaming_day_books(*, casino: Casino, gaming_day: date, closed_by: User | None = None) -> GamingDay:
    """Mark a gaming day closed (the daily count's close, N.J.A.C. 13:69F-14.19(d), (k)): from now on nothing that
    changes its money is recorded. Takes the day's row exclusively, so it waits for writes in flight to commit.
    Idempotent: a closed day is returned as it is."""
    GamingDay.objects.get_or_create(casino=casino, gaming_day=gaming_day)
    day = GamingDay.objects.select_for_update().get(casino=casino, gaming_day=gaming_day)
    if day.closed_at is None:
        day.closed_at, day.closed_by = timezone.now(), closed_by
        day.save(update_fields=["closed_at", "closed_by"])
    return day
