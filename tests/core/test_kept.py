"""apps.core.kept: a query's SQL built once a shape and run again with other values gives what the ORM gives."""
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Count, Prefetch
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import GamingDayContributions
from apps.core.kept import KeptQuery
from apps.tables.models import PokerTable
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db
DAY = date(2026, 3, 1)


def tables_with_casino(ids):
    return PokerTable.objects.select_related("casino").filter(pk__in=ids).order_by("pk")


def test_each_call_gets_its_own_values_and_the_rows_the_orm_gives():
    casino, other = CasinoFactory(code="one"), CasinoFactory(code="two")
    a, b = PokerTableFactory(casino=casino, number=1), PokerTableFactory(casino=casino, number=2)
    c = PokerTableFactory(casino=other, number=1)
    kept = KeptQuery(tables_with_casino)
    for ids in ([a.pk, c.pk], [b.pk, c.pk], [c.pk, a.pk], [a.pk, 10**9]):
        got = list(kept(ids))
        expected = list(tables_with_casino(ids))
        assert got == expected
        assert [(t.number, t.game, t.casino_id) for t in got] == [(t.number, t.game, t.casino_id) for t in expected]
        with CaptureQueriesContext(connection) as queries:  # select_related: the casino came with the table
            assert [t.casino.code for t in got] == [t.casino.code for t in expected]
        assert not queries.captured_queries
    assert len(kept._kept) == 1  # one shape: two ids


def test_a_new_shape_is_built_and_kept_beside_the_first():
    casino = CasinoFactory(code="one")
    tables = [PokerTableFactory(casino=casino, number=n) for n in range(1, 5)]
    kept = KeptQuery(tables_with_casino)
    assert [t.pk for t in kept([tables[0].pk])] == [tables[0].pk]
    assert [t.pk for t in kept({t.pk for t in tables})] == sorted(t.pk for t in tables)  # a set, in any order
    assert [t.pk for t in kept([tables[3].pk])] == [tables[3].pk]
    with CaptureQueriesContext(connection) as queries:
        assert list(kept([])) == []  # nothing to ask the database
    assert not queries.captured_queries
    assert len(kept._kept) == 3


def test_strings_dates_annotations_and_keyword_arguments_that_shape_the_query():
    casino = CasinoFactory(code="one")
    jackpot = JackpotFactory(casino=casino)
    GamingDayContributions.objects.create(jackpot=jackpot, gaming_day=DAY, contributions=Decimal("4.50"))
    GamingDayContributions.objects.create(jackpot=jackpot, gaming_day=DAY + timedelta(days=1),
                                          contributions=Decimal("1.25"))

    def days_of(code, days, *, counted):
        query = GamingDayContributions.objects.filter(jackpot__casino__code=code, gaming_day__in=days)
        if counted:
            query = query.annotate(n=Count("pk"))
        return query.order_by("gaming_day")

    kept = KeptQuery(days_of)
    assert [(d.gaming_day, d.contributions) for d in kept("one", [DAY, DAY + timedelta(days=1)], counted=False)] \
        == [(DAY, Decimal("4.50")), (DAY + timedelta(days=1), Decimal("1.25"))]
    assert [d.gaming_day for d in kept("one", [DAY + timedelta(days=1), DAY + timedelta(days=7)], counted=False)] \
        == [DAY + timedelta(days=1)]
    assert list(kept("two", [DAY, DAY], counted=False)) == []
    (counted,) = kept("one", [DAY], counted=True)
    assert counted.n == 1 and isinstance(counted.contributions, Decimal)
    assert len(kept._kept) == 2


def test_prefetch_related_comes_along():
    casino = CasinoFactory(code="one")
    table = PokerTableFactory(casino=casino)
    RakeStructureFactory(table=table)
    kept = KeptQuery(lambda ids: PokerTable.objects.filter(pk__in=ids).prefetch_related(Prefetch("rake_structures")))
    (got,) = kept([table.pk])
    with CaptureQueriesContext(connection) as queries:
        assert len(got.rake_structures.all()) == 1
    assert not queries.captured_queries


def test_a_kept_query_is_only_iterated():
    casino = CasinoFactory(code="one")
    table = PokerTableFactory(casino=casino)
    kept = KeptQuery(tables_with_casino)
    for misuse in (lambda q: q.filter(number=1), lambda q: q.count(), lambda q: q.first(), lambda q: q[:1]):
        with pytest.raises(TypeError, match="iterate it"):
            misuse(kept([table.pk]))


def test_a_value_the_orm_writes_into_the_sql_or_drops_is_refused_when_built():
    PokerTableFactory(casino=CasinoFactory(code="one"))
    with pytest.raises(RuntimeError, match="parameter"):  # written into the SQL text
        list(KeptQuery(lambda n: PokerTable.objects.extra(where=[f"number = {n}"]))(3))
    with pytest.raises(RuntimeError, match="parameter"):  # not passed as it was given
        list(KeptQuery(lambda location: PokerTable.objects.filter(location=location.upper()))("pit 1"))
    with pytest.raises(RuntimeError, match="parameter"):  # not used at all
        list(KeptQuery(lambda number: PokerTable.objects.all())(3))
    for value in (True, timezone.now(), Decimal("1.00"), 2.5):
        with pytest.raises(TypeError, match="an int, a str or a date"):
            KeptQuery(lambda v: PokerTable.objects.filter(pk=v))(value)
