"""apps.core.bulk: save_fields writes what save(update_fields=...) writes, in one UPDATE the ORM does not build;
run_together, insert_rows(before=...) and insert_then send several writes in one round trip, in their order;
insert_family writes parents and children (a round's pots and their awards, after its seats) in one round trip."""
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import GamingDayContributions, Jackpot
from apps.casinos.models import User
from apps.core.bulk import (
    Rows,
    insert_family,
    insert_rows,
    insert_then,
    run_together,
    save_fields,
    totals_statement,
    update_statement,
)
from apps.core.models import IdempotencyKey
from apps.rounds.models import Pot, PotAward, RoundOfPlay, RoundPlayer, RoundSource
from apps.rounds.services import SeatRow
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory

pytestmark = pytest.mark.django_db
DAY = date(2026, 3, 1)


def test_the_fields_named_and_auto_now_are_written_and_nothing_else():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    before = Jackpot.objects.get(pk=jackpot.pk).updated_at
    jackpot.balance, jackpot.reset_reserve, jackpot.contributions_total = \
        Decimal("1234.56"), Decimal("7.89"), Decimal("1242.45")
    jackpot.name = "not saved"
    with CaptureQueriesContext(connection) as queries:
        save_fields(jackpot, ["balance", "reset_reserve", "contributions_total", "updated_at"])
    assert [q["sql"].count("UPDATE ") for q in queries.captured_queries] == [1]
    stored = Jackpot.objects.get(pk=jackpot.pk)
    assert (stored.balance, stored.reset_reserve, stored.contributions_total) == \
        (Decimal("1234.56"), Decimal("7.89"), Decimal("1242.45"))
    assert stored.name != "not saved"
    assert stored.updated_at == jackpot.updated_at > before  # auto_now: set on the instance as save() sets it


def test_json_and_times_as_save_adapts_them():
    user = User.objects.create(username="someone", casino=CasinoFactory(code="one"))
    record = IdempotencyKey.objects.create(user=user, key="k", method="POST", path="/api/rounds/", fingerprint="f",
                                           expires_at=timezone.now() + timedelta(hours=24))
    record.completed_at = timezone.now()
    record.response_status = 201
    record.response_data = {"id": 7, "pot_total": "100.00", "players": [{"seat": 1}], "note": "ünïcode"}
    record.response_headers = {"Location": "/api/rounds/7/"}
    save_fields(record, ["completed_at", "response_status", "response_data", "response_headers"])
    stored = IdempotencyKey.objects.get(pk=record.pk)
    assert stored.completed_at == record.completed_at
    assert (stored.response_status, stored.response_data, stored.response_headers) == \
        (201, record.response_data, record.response_headers)


def test_a_broken_constraint_raises_and_writes_nothing():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    balance = Jackpot.objects.get(pk=jackpot.pk).balance
    jackpot.balance = Decimal("-1.00")
    with pytest.raises(IntegrityError), transaction.atomic():
        save_fields(jackpot, ["balance"])
    assert Jackpot.objects.get(pk=jackpot.pk).balance == balance


def keys_for(user, *names):
    return [IdempotencyKey(user=user, key=name, method="POST", path="/api/rounds/", fingerprint="f",
                           expires_at=timezone.now() + timedelta(hours=24)) for name in names]


def day_totals(jackpot, day, amount, count=1):
    return totals_statement(GamingDayContributions, key=("jackpot_id", "gaming_day"), rows=[
        {"jackpot_id": jackpot.pk, "gaming_day": day, "contributions": Decimal(amount), "to_reset": Decimal("0.00"),
         "count": count}])


def test_run_together_sends_its_writes_in_one_round_trip_in_their_order():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    jackpot.balance = Decimal("50.00")
    with CaptureQueriesContext(connection) as queries:
        run_together(Jackpot, [update_statement(jackpot, ["balance"]), None, day_totals(jackpot, DAY, "2.00"),
                               day_totals(jackpot, DAY, "3.00")])
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 3)
    assert Jackpot.objects.get(pk=jackpot.pk).balance == Decimal("50.00")
    assert GamingDayContributions.objects.get(jackpot=jackpot, gaming_day=DAY).contributions == Decimal("5.00")


def test_run_together_an_error_in_any_writes_nothing():
    jackpot = JackpotFactory(casino=CasinoFactory(code="one"))
    jackpot.balance = Decimal("-1.00")  # jackpot_balance_not_negative
    with pytest.raises(IntegrityError), transaction.atomic():
        run_together(Jackpot, [day_totals(jackpot, DAY, "2.00"), update_statement(jackpot, ["balance"])])
    assert not GamingDayContributions.objects.filter(jackpot=jackpot).exists()


def test_insert_rows_runs_its_writes_before_and_gives_the_ids():
    user = User.objects.create(username="someone", casino=CasinoFactory(code="one"))
    jackpot = JackpotFactory(casino=user.casino)
    with CaptureQueriesContext(connection) as queries:
        rows = insert_rows(IdempotencyKey, keys_for(user, "a", "b"), before=[day_totals(jackpot, DAY, "1.50", 2)])
    if connection.vendor == "postgresql":
        assert len(queries.captured_queries) == 1
    assert [r.pk for r in rows] == list(IdempotencyKey.objects.filter(user=user).order_by("key")
                                        .values_list("pk", flat=True))
    total = GamingDayContributions.objects.get(jackpot=jackpot, gaming_day=DAY)
    assert (total.contributions, total.count) == (Decimal("1.50"), 2)
    # many rows (COPY): the writes before run too, and every row gets its id
    many = insert_rows(IdempotencyKey, keys_for(user, *[f"k{n}" for n in range(60)]),
                       before=[day_totals(jackpot, DAY, "1.00")])
    assert all(r.pk for r in many) and IdempotencyKey.objects.filter(user=user).count() == 62
    assert GamingDayContributions.objects.get(jackpot=jackpot, gaming_day=DAY).contributions == Decimal("2.50")


@pytest.mark.parametrize("how_many", [2, 60])
def test_insert_then_writes_the_rows_and_then_its_writes(how_many):
    """A few rows and their writes in one round trip; many by COPY, then the writes: the same rows either way."""
    user = User.objects.create(username="someone", casino=CasinoFactory(code="one"))
    jackpot = JackpotFactory(casino=user.casino)
    names = [f"k{n}" for n in range(how_many)]
    with CaptureQueriesContext(connection) as queries:
        insert_then(IdempotencyKey, keys_for(user, *names), then=[day_totals(jackpot, DAY, "4.00")])
    if connection.vendor == "postgresql" and how_many == 2:
        assert len(queries.captured_queries) == 1
    assert sorted(IdempotencyKey.objects.filter(user=user).values_list("key", flat=True)) == sorted(names)
    assert GamingDayContributions.objects.get(jackpot=jackpot, gaming_day=DAY).contributions == Decimal("4.00")


def rounds_of_play(count):
    table = PokerTableFactory(casino=CasinoFactory(code="one"))
    return [RoundOfPlay.objects.create(table=table, game=table.game, started_at=timezone.now(), gaming_day=DAY,
                                       total_bet=Decimal("10.00"), pot_total=Decimal("10.00"), source=RoundSource.JSON)
            for _ in range(count)]


def seat(round_id, number):
    return SeatRow(round_id, number, f"P{number}", None, Decimal("5.00"), Decimal("0.00"), "As Ks", "", [], False,
                   True, "", "", "", "", Decimal("0.00"))


@pytest.mark.parametrize("pots_each", [1, 30])
def test_insert_family_gives_each_child_its_parents_id(pots_each):
    """A round's seats, its pots and their awards: one round trip for one pot a round (on PostgreSQL), COPY for
    30 (with the sequence read first); either way each award lands on its own pot, and the ids come back in the
    pots' order. A pot without awards, JSON values, a seat's value of None."""
    rounds = rounds_of_play(2)
    pots = [(r.pk, index, Decimal(f"{index + 1}.00"), Decimal("0.00"), Decimal(f"{index + 1}.00"), [1, 2])
            for index in range(pots_each) for r in reversed(rounds)]
    awards = [(round_id, index, seat_number, Decimal(f"{index}.{seat_number}{round_id % 10}"))
              for round_id, index, *_ in pots if index != 0 or round_id == rounds[0].pk for seat_number in (1, 2)]
    seats = [seat(r.pk, n) for r in rounds for n in (1, 2)]
    with CaptureQueriesContext(connection) as queries:
        ids = insert_family(Rows(Pot, ("round_of_play_id", "index", "gross", "deducted", "amount", "eligible_seats"),
                                 pots), key=("round_of_play_id", "index"),
                            children=Rows(PotAward, ("seat", "amount"), awards),
                            first=Rows(RoundPlayer, SeatRow._fields, seats))
    if connection.vendor == "postgresql" and pots_each == 1:
        assert len(queries.captured_queries) == 1
    assert ids == [Pot.objects.get(round_of_play_id=round_id, index=index).pk for round_id, index, *_ in pots]
    assert sorted(PotAward.objects.values_list("pot__round_of_play_id", "pot__index", "seat", "amount")) == \
        sorted(awards)
    assert not PotAward.objects.filter(pot__round_of_play=rounds[1], pot__index=0).exists()
    assert {tuple(seats) for seats in Pot.objects.values_list("eligible_seats", flat=True)} == {(1, 2)}
    assert RoundPlayer.objects.count() == 4 and RoundPlayer.objects.filter(starting_stack=None).count() == 4


def test_insert_family_refuses_an_orphan_or_a_key_twice_and_writes_nothing():
    (round_,) = rounds_of_play(1)
    columns = ("round_of_play_id", "index", "gross", "deducted", "amount", "eligible_seats")
    pot = (round_.pk, 0, Decimal("1.00"), Decimal("0.00"), Decimal("1.00"), [1])
    with pytest.raises(ValueError, match="not among"):
        insert_family(Rows(Pot, columns, [pot]), key=("round_of_play_id", "index"),
                      children=Rows(PotAward, ("seat", "amount"), [(round_.pk, 1, 1, Decimal("1.00"))]))
    with pytest.raises(ValueError, match="not unique"):
        insert_family(Rows(Pot, columns, [pot, pot]), key=("round_of_play_id", "index"),
                      children=Rows(PotAward, ("seat", "amount"), []))
    assert not Pot.objects.exists()


def test_insert_family_a_broken_constraint_writes_nothing():
    """Two awards to one seat of a pot break pot_award_seat_unique: the seats and the pot go with them."""
    (round_,) = rounds_of_play(1)
    pot = (round_.pk, 0, Decimal("1.00"), Decimal("0.00"), Decimal("1.00"), [1])
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_family(Rows(Pot, ("round_of_play_id", "index", "gross", "deducted", "amount", "eligible_seats"), [pot]),
                      key=("round_of_play_id", "index"),
                      children=Rows(PotAward, ("seat", "amount"), [(round_.pk, 0, 1, Decimal("0.50"))] * 2),
                      first=Rows(RoundPlayer, SeatRow._fields, [seat(round_.pk, 1)]))
    assert not Pot.objects.exists() and not RoundPlayer.objects.exists()
