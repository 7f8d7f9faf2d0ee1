"""Writes about casinos and staff, and the opening and closing of gaming days."""
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta

from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.roles import Role

from .models import Backfill, Casino, GamingDay, GamingDayClose, User
from .selectors import (
    CLOCK_TOLERANCE,
    closed_message,
    current_gaming_day,
    gaming_day_of,
    held_message,
    not_open_message,
)


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


def start_backfill(*, casino: Casino, run_by: User, source: str) -> Backfill:
    """Start an administrator's backfill of historic records into past gaming days that hold none; the record of
    it (who, when, from what), which the writes of the backfill then carry (`hold_open_gaming_days(backfill=...)`).

    Raises DomainError (field "run_by") unless `run_by` is an administrator of `casino`."""
    if not (run_by.is_active and run_by.casino_id == casino.pk and run_by.has_role(Role.ADMIN)):
        raise DomainError(f"Only an administrator of {casino} may backfill historic records.", field="run_by")
    return Backfill.objects.create(casino=casino, run_by=run_by, source=" ".join(source.split())[:300])


def hold_open_gaming_days(*, casino: Casino, days: Iterable[date], what: str, field: str = "gaming_day",
                          backfill: Backfill | None = None) -> None:
    """Refuse a write of money into a gaming day that is not open, and keep the days open until the caller's
    transaction commits (a close waits for it).

    days: the gaming days the write records money in; what: what is refused, for the message (e.g. "a round of
    play"). A casino's open gaming days are the current one (or the next, for a time within the feed's clock
    tolerance of its start) and, until it is closed, the previous one: the late-arrival window, bounded by the close
    job. An earlier day is open only to `backfill`, an administrator's backfill (`start_backfill`), and only if it
    holds no other records: the first write of the backfill into it makes the day the backfill's.

    Call inside the write's transaction, before its first money record. Each day's row (GamingDay) is created if
    missing and held with a share lock on PostgreSQL, so that concurrent writes to a day do not wait for each other
    and a close waits for them. A day is closed when its close record exists (GamingDayClose, which the app's login
    cannot delete) or, for a close committed while this write waited, its row is marked closed.

    Raises DomainError (400, `field`) naming the day: a day not open (with the open ones), a day closed (with when:
    accounting records a late correction in an open day instead), a past day that holds records other than the
    backfill's.
    """
    wanted = sorted(set(days))
    if not wanted:
        return
    today = current_gaming_day(casino=casino)
    latest = gaming_day_of(casino=casino, moment=timezone.now() + CLOCK_TOLERANCE)
    previous = today - timedelta(days=1)
    for day in wanted:
        if day > latest:
            raise DomainError(f"Gaming day {day:%Y-%m-%d} has not begun: today's gaming day is {today:%Y-%m-%d}.",
                              field=field)
        if day < previous and backfill is None:
            raise DomainError(not_open_message(casino=casino, gaming_day=day, what=what), field=field)
    past = [day for day in wanted if day < previous]
    rows = _held_days(casino.pk, wanted)  # one statement once the days have their rows (every write but a day's first)
    missing = [day for day in wanted if day not in rows]
    if missing:
        GamingDay.objects.bulk_create(
            [GamingDay(casino_id=casino.pk, gaming_day=day, backfill=backfill if day in past else None)
             for day in missing], ignore_conflicts=True)
        rows |= _held_days(casino.pk, missing)
    for day in wanted:
        backfill_id, closed_at = rows[day]
        if closed_at is not None:
            raise DomainError(closed_message(casino=casino, gaming_day=day, closed_at=closed_at, what=what),
                              field=field)
        if day in past and (backfill is None or backfill_id != backfill.pk):
            raise DomainError(held_message(gaming_day=day), field=field)


def _held_days(casino_id: int, days: list[date]) -> dict[date, tuple[int | None, datetime | None]]:
    """{gaming day: (backfill id, closed at)} of the casino's rows of `days`, held with a share lock. Closed at: the
    close record's time, or the row's mark of a close committed while this statement waited."""
    with connection.cursor() as cursor:  # every round of play asks: one statement, no model built
        cursor.execute(
            f"SELECT d.gaming_day, d.backfill_id, COALESCE((SELECT c.closed_at FROM {GamingDayClose._meta.db_table} c "
            "WHERE c.casino_id = d.casino_id AND c.gaming_day = d.gaming_day), d.closed_at) "
            f"FROM {GamingDay._meta.db_table} d WHERE d.casino_id = %s AND d.gaming_day = ANY(%s) FOR SHARE OF d",
            [casino_id, days])
        return {day: (backfill_id, closed_at) for day, backfill_id, closed_at in cursor.fetchall()}


@transaction.atomic
def close_gaming_day_books(*, casino: Casino, gaming_day: date, figures: Callable[[], dict],
                           closed_by: User | None = None, backfill: Backfill | None = None) -> GamingDayClose:
    """Close a gaming day's books (the daily count's close, N.J.A.C. 13:69F-14.19(d)-daily, 14.19(k)-official-record):
    from now on nothing that changes its money is recorded. Takes the day's row exclusively (so it waits for writes in
    flight to commit), marks it closed, then calls `figures()` for the summary the close is recorded with and writes the
    close record (GamingDayClose: append-only). Idempotent: a day closed already is returned as it was closed.

    figures: () -> dict, JSON-serialisable (the daily count's findings), computed under the lock so that no write
    of the day can change them. The caller checks that the day has ended (apps.counts.services.close_gaming_day)."""
    GamingDay.objects.get_or_create(casino=casino, gaming_day=gaming_day)
    day = GamingDay.objects.select_for_update().get(casino=casino, gaming_day=gaming_day)
    done = GamingDayClose.objects.filter(casino=casino, gaming_day=gaming_day).first()
    if done is not None:
        return done
    now = timezone.now()
    if day.closed_at is None:
        day.closed_at = now
        day.save(update_fields=["closed_at"])
    return GamingDayClose.objects.create(casino=casino, gaming_day=gaming_day, closed_at=now, closed_by=closed_by,
                                         backfill=backfill, summary=figures())


def went_live_on(*, casino: Casino) -> date | None:
    """The first gaming day this deployment recorded live: the casino's go-live date when set, else the first gaming
    day that holds a record not written by a backfill; None before any."""
    if casino.went_live_on is not None:
        return casino.went_live_on
    return (GamingDay.objects.filter(casino=casino, backfill__isnull=True).order_by("gaming_day")
            .values_list("gaming_day", flat=True).first())


def gaming_days_to_close(*, casino: Casino, through: date | None = None) -> list[date]:
    """The casino's ended gaming days, from its go-live (`went_live_on`) through `through` (default: the last that
    ended), that have no close record yet, oldest first: the close job's catch-up (a day missed while the scheduler
    was down is closed too, and a day with no records is closed empty). Backfilled days before go-live are closed
    by their backfill."""
    start = went_live_on(casino=casino)
    last = current_gaming_day(casino=casino) - timedelta(days=1)
    through = min(through, last) if through is not None else last
    if start is None or start > through:
        return []
    closed = set(GamingDayClose.objects.filter(casino=casino, gaming_day__gte=start, gaming_day__lte=through)
                 .values_list("gaming_day", flat=True))
    return [day for day in (start + timedelta(days=n) for n in range((through - start).days + 1))
            if day not in closed]
