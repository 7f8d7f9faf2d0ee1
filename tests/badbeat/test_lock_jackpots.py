"""`lock_jackpots`: the one locked read of every round of play recorded (N.J.A.C. 13:69F-14.19(c), (p); 14.20(c)1).
Its SQL is built once a shape and kept: the values of each call (casinos, gaming days) must land in their places."""
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.badbeat import services
from apps.badbeat.models import GamingDayContributions, Jackpot, JackpotKind
from apps.badbeat.services import lock_jackpots
from apps.rounds.models import RoundOfPlay, RoundSource
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
D = Decimal
DAY = date(2026, 3, 1)


def rounds_at(table, *days):
    return [RoundOfPlay(table=table, game=table.game, started_at="2026-03-01T12:00:00Z", gaming_day=day,
                        total_bet=D("20"), pot_total=D("20"), source=RoundSource.JSON) for day in days]


def day_total(jackpot, day, amount):
    GamingDayContributions.objects.create(jackpot=jackpot, gaming_day=day, contributions=D(amount))


def seen(jackpots):
    return {j.pk: j.day_contributions for j in jackpots}


def test_14_19_p_each_jackpot_with_each_gaming_days_contributions_so_far_whichever_the_order_of_calls():
    services._LOCK._kept.clear()
    first, second = CasinoFactory(code="one"), CasinoFactory(code="two")
    a = JackpotFactory(casino=first)
    b = JackpotFactory(casino=second)
    b2 = JackpotFactory(casino=second, kind=JackpotKind.SECONDARY, primary=b)
    table_1, table_2 = PokerTableFactory(casino=first), PokerTableFactory(casino=second)
    day_total(a, DAY, "12.00")
    day_total(b, DAY + timedelta(days=1), "7.50")
    day_total(b2, DAY, "3.25")
    with transaction.atomic():
        locked = lock_jackpots(rounds=rounds_at(table_1, DAY, DAY + timedelta(days=1))
                               + rounds_at(table_2, DAY + timedelta(days=1)))
        assert [j.pk for j in locked] == sorted([a.pk, b.pk, b2.pk])  # primary-key order: no deadlock
        assert seen(locked) == {
            a.pk: {DAY: D("12.00"), DAY + timedelta(days=1): D("0")},
            b.pk: {DAY: D("0"), DAY + timedelta(days=1): D("7.50")},
            b2.pk: {DAY: D("3.25"), DAY + timedelta(days=1): D("0")}}
        assert all(isinstance(v, Decimal) for j in locked for v in j.day_contributions.values())
        assert all(isinstance(j, Jackpot) and j.balance is not None for j in locked)
    # the same shape (two casinos, two days) with the casinos and the days the other way round: the kept SQL
    # takes the new values in their places
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        again = lock_jackpots(rounds=rounds_at(table_2, DAY + timedelta(days=1), DAY + timedelta(days=2))
                              + rounds_at(table_1, DAY + timedelta(days=2)))
    assert seen(again) == {
        a.pk: {DAY + timedelta(days=1): D("0"), DAY + timedelta(days=2): D("0")},
        b.pk: {DAY + timedelta(days=1): D("7.50"), DAY + timedelta(days=2): D("0")},
        b2.pk: {DAY + timedelta(days=1): D("0"), DAY + timedelta(days=2): D("0")}}
    assert len(services._LOCK._kept) == 1
    locking = [q["sql"] for q in queries.captured_queries if "badbeat_jackpot" in q["sql"]]
    assert len(locking) == 1 and "FOR UPDATE" in locking[0]


def test_a_shape_of_many_gaming_days_and_one_casino_only():
    """A batch spanning 40 gaming days (more than a month: the stand-in days must not run out) and one casino."""
    casino, other = CasinoFactory(code="one"), CasinoFactory(code="two")
    mine, theirs = JackpotFactory(casino=casino), JackpotFactory(casino=other)
    table = PokerTableFactory(casino=casino)
    days = [DAY + timedelta(days=n) for n in range(40)]
    day_total(mine, days[-1], "1.00")
    day_total(theirs, days[-1], "9.00")
    with transaction.atomic():
        locked = lock_jackpots(rounds=rounds_at(table, *days))
    assert [j.pk for j in locked] == [mine.pk]
    assert locked[0].day_contributions[days[-1]] == D("1.00")
    assert sum(locked[0].day_contributions.values()) == D("1.00") and len(locked[0].day_contributions) == 40


def test_14_20_c_1_the_multi_casino_terms_come_with_the_lock():
    """With the multi-casino app installed (as here), each jackpot comes with `funds_system` and `system_stops`,
    booleans; a jackpot that funds no system has both false."""
    casino = CasinoFactory(code="one")
    jackpot = JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino)
    with transaction.atomic():
        (locked,) = lock_jackpots(rounds=rounds_at(table, DAY))
    assert locked.pk == jackpot.pk
    assert locked.funds_system is False and locked.system_stops is False


def test_no_participating_round_locks_nothing():
    casino = CasinoFactory(code="one")
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino, bad_beat_participation=False)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert lock_jackpots(rounds=rounds_at(table, DAY)) == []
    assert not queries.captured_queries
