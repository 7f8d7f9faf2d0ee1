"""The gaming day: each casino's day starts at its own local time, right across daylight-saving changes."""
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from apps.casinos.selectors import gaming_day_bounds, gaming_day_of
from tests.factories import CasinoFactory

NEW_YORK = ZoneInfo("America/New_York")
pytestmark = pytest.mark.django_db


def test_0559_and_0601_local_fall_on_different_gaming_days():
    casino = CasinoFactory(gaming_day_starts_at=time(6, 0))
    assert gaming_day_of(casino=casino, moment=datetime(2026, 3, 10, 5, 59, tzinfo=NEW_YORK)) == date(2026, 3, 9)
    assert gaming_day_of(casino=casino, moment=datetime(2026, 3, 10, 6, 1, tzinfo=NEW_YORK)) == date(2026, 3, 10)


def test_gaming_day_boundary_across_spring_forward():
    """8 March 2026, 02:00 EST -> 03:00 EDT: the day of 7 March is 23 hours long and ends at 06:00 EDT."""
    casino = CasinoFactory()
    utc = ZoneInfo("UTC")
    start, end = gaming_day_bounds(casino=casino, gaming_day=date(2026, 3, 7))
    assert (end.astimezone(utc) - start.astimezone(utc)).total_seconds() == 23 * 3600
    assert gaming_day_of(casino=casino, moment=datetime(2026, 3, 8, 9, 59, tzinfo=utc)) == date(2026, 3, 7)  # 05:59 EDT
    assert gaming_day_of(casino=casino, moment=datetime(2026, 3, 8, 10, 1, tzinfo=utc)) == date(2026, 3, 8)  # 06:01 EDT


def test_gaming_day_boundary_across_fall_back():
    casino = CasinoFactory()
    utc = ZoneInfo("UTC")
    start, end = gaming_day_bounds(casino=casino, gaming_day=date(2026, 10, 31))
    assert (end.astimezone(utc) - start.astimezone(utc)).total_seconds() == 25 * 3600


def test_naive_datetime_is_refused():
    with pytest.raises(ValueError):
        gaming_day_of(casino=CasinoFactory(), moment=datetime(2026, 3, 10, 5, 59))
