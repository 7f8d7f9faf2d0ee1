"""Not a cent lost under concurrency, on PostgreSQL (N.J.A.C. 13:69F-14.19(c), (f), (i), (k)): 50 writers add
contributions while counts and a claim run beside them — a bounded sample of 3,000 in the suite
(CONCURRENCY_CONTRIBUTIONS), 10,000 with `make concurrency`."""
import os
import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.db.models import Sum
from django.utils import timezone

from apps.badbeat.models import Claim, Contribution, Jackpot
from apps.badbeat.selectors import day_totals_agree, ledger
from apps.badbeat.services import lock_jackpots, record_payout, take_contributions, verify_claim
from apps.casinos.selectors import current_gaming_day
from apps.core.roles import Role
from apps.core.writer import Writer
from apps.counts.models import BadBeatCount, CountMethod, WitnessKind
from apps.counts.services import record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.rounds.models import RoundOfPlay, RoundSource
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

D = Decimal
WRITERS, CONTRIBUTIONS = 50, int(os.environ.get("CONCURRENCY_CONTRIBUTIONS", "3000"))


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_50_writers_add_contributions_beside_counts_and_a_claim_and_lose_no_cent():
    casino = CasinoFactory()
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"), minimum_players_dealt=2, reset_percentage=D("10"))
    table = PokerTableFactory(casino=casino)
    dealer, boss, guard = (StaffFactory(casino=casino, roles=[r])
                           for r in (Role.DEALER, Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY))
    bad_beat = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, contributed=D("10"), hole_cards="9s 9c"), PlayerIn(seat=2, contributed=D("10"), hole_cards="5s 4s")]))
    claim = Claim.objects.get(round_of_play=bad_beat)
    day = current_gaming_day(casino=casino)
    rounds = RoundOfPlay.objects.bulk_create(
        RoundOfPlay(table=table, game=table.game, started_at=timezone.now(), gaming_day=day, total_bet=D("20"),
                    pot_total=D("20"), source=RoundSource.JSON) for _ in range(CONTRIBUTIONS))
    ids = [r.pk for r in rounds]
    errors: list[BaseException] = []
    start = threading.Barrier(WRITERS + 2)

    def writer(chunk):
        try:
            start.wait()
            for pk in chunk:
                with transaction.atomic():
                    round_of_play = RoundOfPlay.objects.select_related("table").get(pk=pk)
                    writer = Writer()
                    take_contributions(rounds=[round_of_play], after_rake=[D("19")],
                                       jackpots=lock_jackpots(rounds=[round_of_play])).give_to(writer)
                    writer.flush()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    def counter():
        try:
            start.wait()
            for _ in range(20):
                record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 7},
                             counted_by=dealer, witness=boss, witness_kind=WitnessKind.SUPERVISOR,
                             surveillance_recorded=True, recorded_by=boss)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    def claimer():
        try:
            start.wait()
            verified = verify_claim(claim=claim, supervisor=boss)
            record_payout(claim=verified, method="cash", location="table", delivered_by=guard, recorded_by=guard)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(ids[i::WRITERS],)) for i in range(WRITERS)]
    threads += [threading.Thread(target=counter), threading.Thread(target=claimer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]

    jackpot = Jackpot.objects.get(pk=jackpot.pk)
    contributions = Contribution.objects.filter(jackpot=jackpot)
    assert contributions.count() == CONTRIBUTIONS + 1
    total = contributions.aggregate(t=Sum("amount"))["t"]
    assert total == CONTRIBUTIONS + D("1.00")  # a dollar from each round and from the bad beat's
    # The balance kept under the lock equals the records, to the cent.
    derived = ledger(jackpot=jackpot)
    assert (derived.balance, derived.reset_reserve) == (jackpot.balance, jackpot.reset_reserve)
    assert derived.contributions == total
    assert day_totals_agree(jackpot=jackpot) == []  # the gaming day's running total, kept by 50 writers at once
    assert jackpot.balance + jackpot.reset_reserve == total - derived.payouts
    # Every contribution lies in exactly one count's range or after the last: none counted twice, none skipped.
    counts = list(BadBeatCount.objects.filter(table=table).order_by("through_contribution_id", "pk"))
    counted = sum((c.expected for c in counts), D("0"))
    after = contributions.filter(id__gt=counts[-1].through_contribution_id).aggregate(t=Sum("amount"))["t"] or 0
    assert counted + after == total
    assert sum((c.amount for c in counts), D("0")) == D("140.00")
    claim.refresh_from_db()
    assert claim.status == "paid" and claim.payout.amount == claim.payout_amount
