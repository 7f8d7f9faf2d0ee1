"""`lock_jackpots`: the one locked read of every round of play recorded (N.J.A.C. 13:69F-14.19(c), (p); 14.20(c)1),
with each jackpot's contributions of each gaming day and the multi-casino terms; only inside a transaction."""
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

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


def seen(locked):
    """{jackpot id: {gaming day: contributions so far}} of a LockedJackpots."""
    days: dict = {}
    for (pk, day), amount in locked.day_contributions.items():
        days.setdefault(pk, {})[day] = amount
    return days


def test_14_19_p_each_jackpot_with_each_gaming_days_contributions_so_far_whichever_the_order_of_calls():
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
        assert [j.pk for j in locked.jackpots] == sorted([a.pk, b.pk, b2.pk])  # primary-key order: no deadlock
        assert seen(locked) == {
            a.pk: {DAY: D("12.00"), DAY + timedelta(days=1): D("0")},
            b.pk: {DAY: D("0"), DAY + timedelta(days=1): D("7.50")},
            b2.pk: {DAY: D("3.25"), DAY + timedelta(days=1): D("0")}}
        assert all(isinstance(v, Decimal) for v in locked.day_contributions.values())
        assert all(isinstance(j, Jackpot) and j.balance is not None for j in locked.jackpots)
    # the casinos and the days the other way round
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        again = lock_jackpots(rounds=rounds_at(table_2, DAY + timedelta(days=1), DAY + timedelta(days=2))
                              + rounds_at(table_1, DAY + timedelta(days=2)))
    assert seen(again) == {
        a.pk: {DAY + timedelta(days=1): D("0"), DAY + timedelta(days=2): D("0")},
        b.pk: {DAY + timedelta(days=1): D("7.50"), DAY + timedelta(days=2): D("0")},
        b2.pk: {DAY + timedelta(days=1): D("0"), DAY + timedelta(days=2): D("0")}}
    locking = [q["sql"] for q in queries.captured_queries if "badbeat_jackpot" in q["sql"]]
    assert len(locking) == 1 and "FOR UPDATE" in locking[0]


def test_a_shape_of_many_gaming_days_and_one_casino_only():
    """A batch spanning 40 gaming days (more than a month) and one casino: only its jackpot, each day's total."""
    casino, other = CasinoFactory(code="one"), CasinoFactory(code="two")
    mine, theirs = JackpotFactory(casino=casino), JackpotFactory(casino=other)
    table = PokerTableFactory(casino=casino)
    days = [DAY + timedelta(days=n) for n in range(40)]
    day_total(mine, days[-1], "1.00")
    day_total(theirs, days[-1], "9.00")
    with transaction.atomic():
        locked = lock_jackpots(rounds=rounds_at(table, *days))
    assert [j.pk for j in locked.jackpots] == [mine.pk]
    assert locked.day_contributions[(mine.pk, days[-1])] == D("1.00")
    assert sum(locked.day_contributions.values()) == D("1.00") and len(locked.day_contributions) == 40


def test_14_20_c_1_the_multi_casino_terms_come_with_the_lock():
    """With the multi-casino app installed (as here), the lock reads which jackpots fund a system and which of those
    stop contributing while it is suspended here; a jackpot that funds no system is in neither."""
    casino = CasinoFactory(code="one")
    jackpot = JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino)
    with transaction.atomic():
        locked = lock_jackpots(rounds=rounds_at(table, DAY))
    assert [j.pk for j in locked.jackpots] == [jackpot.pk]
    assert locked.funds_system == locked.system_stops == frozenset()


def test_no_participating_round_locks_nothing():
    casino = CasinoFactory(code="one")
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino, bad_beat_participation=False)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert lock_jackpots(rounds=rounds_at(table, DAY)).jackpots == []
    assert not queries.captured_queries


@pytest.mark.django_db(transaction=True)  # no test transaction around it: autocommit, as outside any atomic block
def test_the_lock_is_refused_outside_a_transaction():
    """A row lock outside a transaction would be released at once: Django's guard refuses `select_for_update` there,
    and the money path's lock keeps it (no query of the feed turns it off)."""
    from django.db.transaction import TransactionManagementError

    casino = CasinoFactory(code="one")
    JackpotFactory(casino=casino)
    table = PokerTableFactory(casino=casino)
    with transaction.atomic():  # its SQL is built and kept at the first call (apps.core.writer.KeptRead) ...
        assert len(lock_jackpots(rounds=rounds_at(table, DAY)).jackpots) == 1
    assert connection.get_autocommit()
    with pytest.raises(TransactionManagementError, match="select_for_update cannot be used outside of a transaction"):
        lock_jackpots(rounds=rounds_at(table, DAY))  # ... and the kept SQL is refused outside one all the same
