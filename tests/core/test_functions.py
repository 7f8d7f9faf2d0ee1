"""apps.core.functions: LocalIsoformat writes in PostgreSQL what Python's isoformat() gives in a casino's zone."""
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db.models import DateTimeField, Value
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.casinos.models import Casino
from apps.core.functions import LocalIsoformat

pytestmark = pytest.mark.django_db

ZONES = ["America/New_York", "UTC", "Asia/Kolkata", "America/St_Johns", "Australia/Adelaide", "Pacific/Kiritimati",
         "Pacific/Pago_Pago", "Europe/London", "Asia/Kathmandu"]


def written(casino: Casino, moment: datetime, zone: str) -> str:
    return (Casino.objects.filter(pk=casino.pk)
            .annotate(text=LocalIsoformat(Value(moment, output_field=DateTimeField()), zone=zone))
            .values_list("text", flat=True).get())


@pytest.mark.parametrize("zone", ZONES)
def test_the_text_is_pythons_isoformat_around_the_changes_of_offset(casino, zone):
    """Each side of New York's changes of 2026 (8 March, 1 November: the hour 01:00-02:00 twice), whole seconds and
    microseconds, in zones east and west, with half- and three-quarter-hour offsets."""
    moments = []
    for change in (datetime(2026, 3, 8, 7, 0, tzinfo=UTC), datetime(2026, 11, 1, 6, 0, tzinfo=UTC),
                   datetime(2026, 10, 4, 16, 30, tzinfo=UTC), datetime(2026, 4, 5, 16, 30, tzinfo=UTC)):
        moments += [change + timedelta(microseconds=delta) for delta in (-1, 0, 1, -3_600_000_000, 1_800_000_000)]
    moments += [datetime(2026, 11, 20, 9, 0, 0, 250_000, tzinfo=UTC), datetime(1999, 12, 31, 23, 59, 59, tzinfo=UTC)]
    for moment in moments:
        assert written(casino, moment, zone) == moment.astimezone(ZoneInfo(zone)).isoformat(), moment


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # the casino is only read
@given(moment=st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(2099, 12, 31), timezones=st.just(UTC)),
       zone=st.sampled_from(ZONES))
def test_any_moment_in_any_zone(casino, moment, zone):
    """Any moment from 1971 to 2099, microseconds included, in any of the zones."""
    assert written(casino, moment, zone) == moment.astimezone(ZoneInfo(zone)).isoformat()
