"""apps.core.writer: the one writer of the money path — what domain services say to record, written in few round
trips and in one lock order (saved rows, then running totals, then records), with its ids and pointers right."""
import re
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Count
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import Jackpot
from apps.core.writer import INSERT_MAX_VALUES, KeptRead, Totals, Writer
from apps.rounds.models import Pot, PotAward, RoundOfPlay, RoundPlayer, RoundSource, TableGamingDay
from apps.tables.models import PokerTable
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def table():
    return PokerTableFactory(casino=CasinoFactory(code="one"))


def a_round(table, **more) -> RoundOfPlay:
    return RoundOfPlay(table=table, game=table.game, started_at=timezone.now(), gaming_day=timezone.localdate(),
                       total_bet=D("20.00"), pot_total=D("20.00"), source=RoundSource.JSON, **more)


def statements(queries) -> list[str]:
    """Each statement of the captured round trips, in order (a round trip may join several with ';')."""
    return [part.strip() for q in queries for part in re.split(r";\s*\n", q["sql"]) if part.strip()]


def test_records_get_their_ids_and_point_at_each_other_in_two_round_trips(table):
    round_ = a_round(table, betting_rounds=["12.00", "8.00"])
    pots = [Pot(round_of_play=round_, index=0, gross=D("20.00"), deducted=D("1.00"), amount=D("19.00")),
            Pot(round_of_play=round_, index=1, gross=D("4.00"), amount=D("4.00"))]
    awards = [PotAward(pot=pots[0], seat=3, amount=D("19.00")), PotAward(pot=pots[1], seat=5, amount=D("4.00"))]
    writer = Writer()
    writer.add([round_])
    writer.add(pots)
    writer.add(awards)
    with CaptureQueriesContext(connection) as queries:
        writer.flush()
    assert len(queries) == 2  # the ids of every new record, then everything else
    assert round_.pk and all(p.pk for p in pots) and all(a.pk for a in awards)
    stored = RoundOfPlay.objects.get(pk=round_.pk)
    assert stored.betting_rounds == ["12.00", "8.00"] and stored.created_at is not None  # JSON, auto_now_add
    assert [(p.index, p.round_of_play_id) for p in Pot.objects.order_by("index")] == [(0, round_.pk), (1, round_.pk)]
    assert {(a.pot_id, a.seat) for a in PotAward.objects.all()} == {(pots[0].pk, 3), (pots[1].pk, 5)}


def test_totals_are_added_up_per_key_and_to_what_is_kept(table):
    other = PokerTableFactory(casino=table.casino)
    day = timezone.localdate()
    writer = Writer()
    writer.add_totals(Totals(TableGamingDay, ("table_id", "gaming_day"), [
        {"table_id": table.pk, "gaming_day": day, "rounds": 1, "dead_rounds": 0, "pot_total": D("20.00")},
        {"table_id": other.pk, "gaming_day": day, "rounds": 1, "dead_rounds": 1, "pot_total": D("0.00")}]))
    writer.add_totals(Totals(TableGamingDay, ("table_id", "gaming_day"), [
        {"table_id": table.pk, "gaming_day": day, "rounds": 1, "dead_rounds": 0, "pot_total": D("7.50")}]))
    writer.flush()
    writer.add_totals(Totals(TableGamingDay, ("table_id", "gaming_day"), [
        {"table_id": table.pk, "gaming_day": day, "rounds": 2, "dead_rounds": 0, "pot_total": D("2.50")}]))
    with CaptureQueriesContext(connection) as queries:
        writer.flush()
    assert len(queries) == 1  # no record: no ids to take
    kept = {t.table_id: (t.rounds, t.dead_rounds, t.pot_total) for t in TableGamingDay.objects.all()}
    assert kept == {table.pk: (4, 0, D("30.00")), other.pk: (1, 1, D("0.00"))}


def test_the_lock_order_is_saved_rows_then_running_totals_in_key_order_then_records(table):
    """Whatever order the domain said them in, the flush writes the rows the caller holds locked (in primary-key
    order), then the running totals (their keys sorted: an upsert locks its row to the commit), then the records."""
    casino = table.casino
    first = JackpotFactory(casino=casino)
    second = JackpotFactory(casino=CasinoFactory(code="two"))
    later = PokerTableFactory(casino=casino)
    day = timezone.localdate()
    writer = Writer()
    writer.add([a_round(table)])
    with transaction.atomic():
        jackpots = list(Jackpot.objects.select_for_update().filter(pk__in=[first.pk, second.pk]).order_by("pk"))
        for jackpot in reversed(jackpots):
            jackpot.balance += D("1.00")
            writer.save(jackpot, ["balance", "updated_at"])
        writer.add_totals(Totals(TableGamingDay, ("table_id", "gaming_day"), [
            {"table_id": later.pk, "gaming_day": day, "rounds": 1, "dead_rounds": 0, "pot_total": D("1.00")},
            {"table_id": table.pk, "gaming_day": day, "rounds": 1, "dead_rounds": 0, "pot_total": D("1.00")}]))
        with CaptureQueriesContext(connection) as queries:
            writer.flush()
    written = statements(queries)[1:]  # after the ids
    kinds = [s.split()[0] + (" ON CONFLICT" if "ON CONFLICT" in s else "") for s in written]
    assert kinds == ["UPDATE", "UPDATE", "INSERT ON CONFLICT", "INSERT"]
    updated = [int(re.search(r"WHERE \"id\" = (\d+)", s).group(1)) for s in written[:2]]
    assert updated == sorted([first.pk, second.pk])
    assert Jackpot.objects.get(pk=first.pk).balance == first.balance + D("1.00")
    values = re.search(r"VALUES (.*) ON CONFLICT", written[2]).group(1)
    assert values.index(f"({min(table.pk, later.pk)}, ") < values.index(f"({max(table.pk, later.pk)}, ")


def test_save_writes_only_the_fields_named(table):
    jackpot = JackpotFactory(casino=table.casino)
    before = jackpot.updated_at
    jackpot.balance, jackpot.name = D("99.00"), "Changed in memory only"
    writer = Writer()
    writer.save(jackpot, ["balance", "updated_at"])
    writer.flush()
    stored = Jackpot.objects.get(pk=jackpot.pk)
    assert stored.balance == D("99.00") and stored.name != "Changed in memory only"
    assert stored.updated_at > before  # auto_now, as save() sets it


def test_many_values_go_by_copy_with_their_ids_in_the_order_given(table):
    round_ = a_round(table)
    count = INSERT_MAX_VALUES // len(RoundPlayer._meta.concrete_fields) + 5
    seats = [RoundPlayer(round_of_play=round_, seat=n, name=f"P{n}", contributed=D("1.00"), draws=[{"n": n}])
             for n in range(1, count + 1)]
    writer = Writer()
    writer.add([round_])
    writer.add(seats)
    with CaptureQueriesContext(connection) as queries:
        writer.flush()
    # COPY goes through psycopg's own cursor (Django records no query of it): no INSERT of the seats was sent
    assert not any('INSERT INTO "rounds_roundplayer"' in q["sql"] for q in queries)
    assert any('INSERT INTO "rounds_roundofplay"' in q["sql"] for q in queries)
    assert [s.pk for s in seats] == sorted(s.pk for s in seats)
    stored = {p.pk: (p.seat, p.draws, p.round_of_play_id) for p in RoundPlayer.objects.all()}
    assert stored == {s.pk: (s.seat, [{"n": s.seat}], round_.pk) for s in seats}


def test_a_broken_constraint_raises_and_writes_nothing(table):
    round_ = a_round(table)
    writer = Writer()
    writer.add([round_])
    writer.add_totals(Totals(TableGamingDay, ("table_id", "gaming_day"), [
        {"table_id": table.pk, "gaming_day": timezone.localdate(), "rounds": 1, "dead_rounds": 0,
         "pot_total": D("20.00")}]))
    writer.add([Pot(round_of_play=round_, index=0, gross=D("20.00"), deducted=D("1.00"), amount=D("20.00"))])
    with pytest.raises(IntegrityError, match="pot_amount_is_gross_less_deducted"), transaction.atomic():
        writer.flush()
    assert not RoundOfPlay.objects.exists() and not TableGamingDay.objects.exists() and not Pot.objects.exists()


# --- kept reads: the money path's hot reads, their SQL built by the ORM once a shape ---------------------------------

TABLES = KeptRead(lambda ids, code: PokerTable.objects.select_related("casino").filter(pk__in=ids, casino__code=code)
                  .annotate(kills=Count("kill_records")).order_by("pk"), related=("casino",))


def test_a_kept_read_gives_what_the_orm_gives_with_one_query_and_its_own_values(table):
    """Every field (money, JSON, times), the annotation and the related casino as the ORM reads them; a later call
    of the same shape runs the kept SQL with its own values (no compiling, one query)."""
    second = PokerTableFactory(casino=table.casino, number=table.number + 1)
    elsewhere = PokerTableFactory(casino=CasinoFactory(code="two"))
    orm = list(PokerTable.objects.select_related("casino").filter(pk__in=[table.pk, second.pk])
               .annotate(kills=Count("kill_records")).order_by("pk"))
    kept = TABLES([table.pk, second.pk], "one")
    assert [(t.pk, t.kills) for t in kept] == [(t.pk, t.kills) for t in orm]
    for mine, theirs in zip(kept, orm, strict=True):
        assert {f.attname: getattr(mine, f.attname) for f in PokerTable._meta.concrete_fields} == \
            {f.attname: getattr(theirs, f.attname) for f in PokerTable._meta.concrete_fields}
        assert {f.attname: getattr(mine.casino, f.attname) for f in type(mine.casino)._meta.concrete_fields} == \
            {f.attname: getattr(theirs.casino, f.attname) for f in type(theirs.casino)._meta.concrete_fields}
        assert not mine._state.adding and mine._state.db == "default"  # as loaded from the database
    with CaptureQueriesContext(connection) as queries:
        assert [t.pk for t in TABLES([second.pk, elsewhere.pk], "two")] == [elsewhere.pk]  # other values
        with django_assert_no_compile():
            assert [t.pk for t in TABLES([table.pk, elsewhere.pk], "one")] == [table.pk]
    assert len(queries) == 2
    assert TABLES([], "one") == []  # an empty `__in`: no query at all


class django_assert_no_compile:
    """Fails when the ORM compiles a query inside the block."""

    def __enter__(self):
        from django.db.models.sql.compiler import SQLCompiler

        self.original = SQLCompiler.as_sql

        def refuse(*args, **kwargs):
            raise AssertionError("a kept read compiled its query again")

        SQLCompiler.as_sql = refuse
        return self

    def __exit__(self, *exc):
        from django.db.models.sql.compiler import SQLCompiler

        SQLCompiler.as_sql = self.original


@pytest.mark.django_db(transaction=True)  # no test transaction around it: autocommit, as outside any atomic block
def test_a_kept_locking_read_is_refused_outside_a_transaction_even_once_kept():
    table = PokerTableFactory(casino=CasinoFactory(code="one"))
    locking = KeptRead(lambda ids: PokerTable.objects.select_for_update().filter(pk__in=ids))
    with transaction.atomic():
        assert [t.pk for t in locking([table.pk])] == [table.pk]
    assert connection.get_autocommit()
    with pytest.raises(TransactionManagementError, match="select_for_update cannot be used outside of a transaction"):
        locking([table.pk])


def test_a_value_that_does_not_reach_the_sql_as_a_parameter_is_refused(table):
    dropped = KeptRead(lambda number: PokerTable.objects.all())
    with pytest.raises(RuntimeError, match="did not reach the SQL as a parameter"):
        dropped(table.number)
    out_of_range = KeptRead(lambda number: PokerTable.objects.filter(number__gte=number))  # a stand-in is an id's
    with pytest.raises(RuntimeError, match="did not reach the SQL as a parameter"):
        out_of_range(table.number)
    with pytest.raises(TypeError, match="an int, a str or a date"):
        KeptRead(lambda at: PokerTable.objects.filter(created_at__gte=at))(timezone.now())
    reordered = KeptRead(lambda ids: PokerTable.objects.filter(pk__in=ids).values("number", "pk"))
    with pytest.raises(RuntimeError, match="columns"):
        reordered([table.pk])
