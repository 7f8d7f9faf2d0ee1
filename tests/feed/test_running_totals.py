"""The running totals kept beside the money records equal their re-derivation from the records, on PostgreSQL with
32 writers at once (rounds, rake and contributions by table and gaming day; each jackpot's balance, reset reserve
and contributions; N.J.A.C. 13:69F-14.14, 14.19(c), (k), (p))."""
import random
import threading
from datetime import UTC, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Count, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone

from apps.badbeat.models import Contribution, Jackpot, TableDayContributions
from apps.badbeat.selectors import ledger_problems
from apps.casinos.selectors import current_gaming_day, gaming_day_of
from apps.counts.selectors import ledger_check
from apps.feed.services import PlayerIn, RoundIn, record_batch_of_rounds, record_round_of_play
from apps.rake.models import RakeRecord, TableHourRake
from apps.rounds.models import RoundOfPlay, TableGamingDay
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
WRITERS, ROUNDS_EACH = 32, 12


def a_round(rng: random.Random, started_at, dead: bool = False) -> RoundIn:
    bets = [D(rng.randrange(100, 20000)) / 100 for _ in range(rng.randrange(2, 6))]
    players = [PlayerIn(seat=i + 1, contributed=max(bets), hole_cards=cards)
               for i, cards in enumerate(["As Ks", "Qh Qd", "2c 7d", "Jc Tc", "5h 5s"][:len(bets)])]
    return RoundIn(started_at=started_at, board="Ah Kd 4c 9s 3h", players=players,
                   dead_reason="misdeal" if dead else "")


@pytest.mark.proves("14.19(p)-reset", "14.19(k)-official-record")
@pytest.mark.django_db(transaction=True)
def test_32_writers_keep_every_running_total_equal_to_its_records():
    casino = CasinoFactory()
    JackpotFactory(casino=casino, minimum_pot=D("20"), reset_percentage=D("10"))
    tables = [RakeStructureFactory(table__casino=casino).table for _ in range(4)] + [PokerTableFactory(casino=casino)]
    now = timezone.now()
    yesterday = now - timedelta(days=1)  # two gaming days at once: each table's totals are kept per day
    errors: list[BaseException] = []
    start = threading.Barrier(WRITERS)

    def writer(number: int):
        rng = random.Random(number)
        try:
            start.wait()
            for i in range(ROUNDS_EACH):
                table = tables[rng.randrange(len(tables))]
                when = yesterday if i % 3 == 0 else now
                if i % 4 == 0:  # a batch of rounds at several tables in one transaction, as an import writes them
                    record_batch_of_rounds(rounds=[(t, a_round(rng, when)) for t in rng.sample(tables, 3)])
                else:
                    record_round_of_play(table=table, round_in=a_round(rng, when, dead=i % 7 == 0))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]

    days = {current_gaming_day(casino=casino), gaming_day_of(casino=casino, moment=yesterday)}
    assert len(days) == 2
    assert RoundOfPlay.objects.count() == WRITERS * (ROUNDS_EACH + 2 * 3)  # 3 batches of 3 in each writer's 12
    for day in days:
        assert ledger_check(casino=casino, gaming_day=day) == []
    jackpot = Jackpot.objects.get(casino=casino)
    assert ledger_problems(jackpot=jackpot) == []
    # and the same, summed here in SQL with no help from the selectors
    assert jackpot.contributions_total == Contribution.objects.aggregate(t=Sum("amount"))["t"] > 0
    kept_rounds = {(t.table_id, t.gaming_day): (t.rounds, t.pot_total) for t in TableGamingDay.objects.all()}
    assert kept_rounds == {(r["table_id"], r["gaming_day"]): (r["n"], r["pot"]) for r in RoundOfPlay.objects.values(
        "table_id", "gaming_day").annotate(n=Count("pk"), pot=Sum("pot_total")).order_by()}
    kept_rake = {(t.table_id, t.gaming_day, t.hour, t.game): (t.rounds, t.amount) for t in TableHourRake.objects.all()}
    assert kept_rake == {(r["table_id"], r["gaming_day"], r["hour"], r["round_of_play__game"]): (r["n"], r["t"])
                         for r in RakeRecord.objects.annotate(hour=TruncHour("round_of_play__started_at", tzinfo=UTC))
                         .values("table_id", "gaming_day", "hour", "round_of_play__game")
                         .annotate(n=Count("pk"), t=Sum("amount")).order_by()}
    assert sum(amount for _, amount in kept_rake.values()) > 0
    kept = {(t.table_id, t.gaming_day): t.amount for t in TableDayContributions.objects.all()}
    assert kept == {(r["table_id"], r["gaming_day"]): r["t"] for r in Contribution.objects.values(
        "table_id", "gaming_day").annotate(t=Sum("amount")).order_by()}


@pytest.mark.django_db
def test_a_dead_round_counts_as_a_round_and_takes_nothing(casino):
    table = RakeStructureFactory(table__casino=casino).table
    JackpotFactory(casino=casino)
    rng = random.Random(1)
    record_round_of_play(table=table, round_in=a_round(rng, timezone.now(), dead=True))
    day = TableGamingDay.objects.get(table=table)
    assert (day.rounds, day.dead_rounds, day.pot_total) == (1, 1, D("0.00"))
    assert not TableHourRake.objects.filter(table=table).exists()
    assert not TableDayContributions.objects.exists()
