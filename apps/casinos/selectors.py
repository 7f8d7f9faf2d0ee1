"""Reads about casinos: gaming days in the casino's own zone."""
from datetime import date, datetime, timedelta

from django.core.exceptions import BadRequest
from django.utils import timezone

from apps.core.exceptions import DomainError
from apps.core.validation import DAYS_AHEAD, parse_day

from .models import Casino

#: A record may be dated this far ahead of the casino's clock (a dealer's tablet runs its own clock).
CLOCK_TOLERANCE = timedelta(minutes=5)


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
    """Whether the gaming day's books are closed: its close record exists (GamingDayClose; nothing that changes its
    money is recorded then)."""
    from .models import GamingDayClose

    return GamingDayClose.objects.filter(casino=casino, gaming_day=gaming_day).exists()


def not_open_message(*, casino: Casino, gaming_day: date, what: str) -> str:
    """Why money cannot go into a gaming day earlier than the open ones (the refusal's sentence)."""
    today = current_gaming_day(casino=casino)
    return (f"Gaming day {gaming_day:%Y-%m-%d} is not open: {what} is recorded only in the current gaming day "
            f"({today:%Y-%m-%d}) and, until it is closed, the previous one ({today - timedelta(days=1):%Y-%m-%d}). "
            "Historic records go in through an administrator's backfill (manage.py import_phh FOLDER --backfill); "
            "accounting corrects a closed day with a late correction.")


def closed_message(*, casino: Casino, gaming_day: date, closed_at: datetime, what: str) -> str:
    """Why money cannot go into a closed gaming day (the refusal's sentence), with when it closed."""
    when = closed_at.astimezone(casino.zone).strftime("%Y-%m-%d at %H:%M")
    return (f"Gaming day {gaming_day:%Y-%m-%d} was closed on {when} (the daily count): {what} of that day can no "
            "longer be recorded. Accounting records a late correction in the open gaming day that refers to it.")


def held_message(*, gaming_day: date) -> str:
    """Why a backfill cannot fill a past gaming day (the refusal's sentence)."""
    return (f"Gaming day {gaming_day:%Y-%m-%d} holds records already: a backfill fills only past gaming days that "
            "hold none.")


def gaming_day_refusal(*, casino: Casino, gaming_day: date, what: str, backfill=None) -> str | None:
    """Why money cannot be recorded in `gaming_day` now, or None when it can (read without a lock: the write itself
    is checked again by apps.casinos.services.hold_open_gaming_days). `backfill`: a casinos.Backfill, which may fill a
    past day that holds no other records. For an import that refuses its hands one by one with the reason."""
    from .models import GamingDay, GamingDayClose

    today = current_gaming_day(casino=casino)
    if gaming_day >= today:
        return None
    close = GamingDayClose.objects.filter(casino=casino, gaming_day=gaming_day).values_list("closed_at", flat=True)
    closed_at = close.first()
    if closed_at is not None:
        return closed_message(casino=casino, gaming_day=gaming_day, closed_at=closed_at, what=what)
    if gaming_day == today - timedelta(days=1):
        return None
    if backfill is None:
        return not_open_message(casino=casino, gaming_day=gaming_day, what=what)
    owner = GamingDay.objects.filter(casino=casino, gaming_day=gaming_day).values_list("backfill_id", flat=True)
    if owner.exists() and owner.first() != backfill.pk:
        return held_message(gaming_day=gaming_day)
    return None


def is_gaming_day_open(*, casino: Casino, gaming_day: date) -> bool:
    """Whether money may be recorded in the gaming day now, without a backfill: the current gaming day, or the
    previous one until it is closed (apps.casinos.services.hold_open_gaming_days refuses the others)."""
    today = current_gaming_day(casino=casino)
    latest = gaming_day_of(casino=casino, moment=timezone.now() + CLOCK_TOLERANCE)
    if gaming_day == today or today < gaming_day <= latest:
        return True
    return gaming_day == today - timedelta(days=1) and not is_gaming_day_closed(casino=casino, gaming_day=gaming_day)


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
