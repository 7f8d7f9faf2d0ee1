"""Reads about casinos: gaming days in the casino's own zone."""
from datetime import date, datetime, timedelta

from django.utils import timezone

from .models import Casino


def gaming_day_of(*, casino: Casino, moment: datetime) -> date:
    """The gaming day a timezone-aware `moment` falls on, by the casino's local wall clock.

    A gaming day starts at `casino.gaming_day_starts_at` local time (e.g. 06:00), so 05:59 local belongs
    to the previous gaming day. Raises ValueError for a naive datetime.
    """
    if timezone.is_naive(moment):
        raise ValueError("gaming_day_of needs a timezone-aware datetime")
    local = moment.astimezone(casino.zone)
    day = local.date()
    return day - timedelta(days=1) if local.time() < casino.gaming_day_starts_at else day


def gaming_day_bounds(*, casino: Casino, gaming_day: date) -> tuple[datetime, datetime]:
    """[start, end) of a gaming day as aware datetimes; a wall-clock day, right across DST changes."""
    start = datetime.combine(gaming_day, casino.gaming_day_starts_at, tzinfo=casino.zone)
    end = datetime.combine(gaming_day + timedelta(days=1), casino.gaming_day_starts_at, tzinfo=casino.zone)
    return start, end


def current_gaming_day(*, casino: Casino) -> date:
    return gaming_day_of(casino=casino, moment=timezone.now())
