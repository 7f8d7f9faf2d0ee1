"""Reads about casinos: gaming days in the casino's own zone."""
from datetime import date, datetime, timedelta

from django.core.exceptions import BadRequest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.validation import DAYS_AHEAD, parse_day

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


def is_gaming_day_closed(*, casino: Casino, gaming_day: date) -> bool:
    """Whether the daily count has closed the gaming day (nothing that changes its money is recorded then)."""
    from .models import GamingDay

    return GamingDay.objects.filter(casino=casino, gaming_day=gaming_day, closed_at__isnull=False).exists()


def requested_gaming_day(*, casino: Casino, text: str | None, field: str = "day") -> date:
    """The gaming day a page's query parameter or path segment names, written YYYY-MM-DD; today's gaming day when
    `text` is empty. Raises django's BadRequest (the page answers 400 with the message, naming `field`) for any other
    text (a month 13, a year 'abc', NUL) or a day before the casino keeps records (`records_kept_since`) or more than
    DAYS_AHEAD days after today's (apps.core.validation.parse_day)."""
    today = current_gaming_day(casino=casino)
    if not text:
        return today
    try:
        return parse_day(text, earliest=casino.records_kept_since, latest=today + timedelta(days=DAYS_AHEAD),
                         field=field)
    except DomainError as exc:
        raise BadRequest(f"{field}: {exc.message}") from exc


def requested_moment(*, casino: Casino, text: str | None, field: str = "start") -> datetime | None:
    """The casino's local wall-clock moment a page's query parameter or form field names (YYYY-MM-DDTHH:MM), None
    when `text` is empty; raises BadRequest naming `field` for any other text or a moment whose gaming day
    requested_gaming_day refuses."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is not None:
        raise BadRequest(f"{field}: write the moment YYYY-MM-DDTHH:MM, the casino's local time.")
    requested_gaming_day(casino=casino, text=moment.date().isoformat(), field=field)
    return moment.replace(tzinfo=casino.zone)
