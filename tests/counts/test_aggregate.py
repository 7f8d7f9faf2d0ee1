"""Contents of bad beat payout boxes counted at closed poker tables, combined by poker room personnel in one locked
container carried to the cashiers' cage by security, and the cashier's verification there of the aggregate count
(N.J.A.C. 13:69F-14.19(d)1, (e); requirement 14.19(e)-aggregate): the services, the reads, the day's close, the API
and the pages."""
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import adjust_display
from apps.casinos.models import Department, LicenseType
from apps.casinos.selectors import gaming_day_of
from apps.core.database_roles import append_only_tables
from apps.core.exceptions import AlreadyRecorded, DomainError
from apps.core.roles import Role
from apps.counts import services
from apps.counts.models import (
    AggregateCountVerification,
    CombinedContainer,
    CombinedCount,
    CountMethod,
    WitnessKind,
)
from apps.counts.selectors import container_of, containers_awaiting_verification, counts_to_combine
from apps.counts.services import (
    AggregateVarianceToConfirm,
    close_gaming_day,
    combine_counts,
    record_count,
    verify_aggregate_count,
)
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.core.test_history_queries import seq_scans
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

D = Decimal
pytestmark = pytest.mark.django_db


# --- the room: two closed tables whose boxes were counted there (14.19(d)1) -------------------------------------------

def pot(table):
    """A round of play at `table` whose bad beat contribution is $1.00 (14.19(c))."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("15.00"), hole_cards="As Ac"),
        PlayerIn(seat=2, contributed=D("15.00"), hole_cards="Qh Qd")]))


@pytest.fixture
def people(staff):
    return {"dealer": staff(Role.DEALER), "supervisor": staff(Role.POKER_SHIFT_SUPERVISOR),
            "floor": staff(Role.FLOORPERSON), "clerk": staff(Role.ACCOUNTING), "watcher": staff(Role.SURVEILLANCE),
            "guard": staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_KEY_EMPLOYEE)}


def closed_table(casino, number, rounds):
    """A table of `casino` that dealt `rounds` rounds ($1.00 of contributions each), then closed."""
    table = PokerTableFactory(casino=casino, number=number)
    for _ in range(rounds):
        pot(table)
    table.is_open = False
    table.save()
    return table


def box_count(table, people, amount, **changes):
    """The count of `table`'s box at the closed table by a dealer before a poker supervisor, under surveillance
    (14.19(d)1)."""
    kwargs = {"table": table, "method": CountMethod.CLOSED_TABLE, "amount": D(amount), "counted_by": people["dealer"],
              "witness": people["supervisor"], "witness_kind": WitnessKind.SUPERVISOR, "surveillance_recorded": True,
              "recorded_by": people["supervisor"]}
    return record_count(**(kwargs | changes))


@pytest.fixture
def boxes(casino, people):
    """Two boxes counted at closed tables, each as its contributions: $3.00 at table 4 and $2.00 at table 7."""
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    return [box_count(closed_table(casino, 4, 3), people, "3.00"), box_count(closed_table(casino, 7, 2), people, "2.00")]


def combine(boxes, people, **changes):
    kwargs = {"casino": boxes[0].casino, "count_ids": [b.pk for b in boxes], "combined_by": people["supervisor"],
              "transported_by": people["guard"]}
    return combine_counts(**(kwargs | changes))


def nothing_written():
    return not (CombinedContainer.objects.exists() or CombinedCount.objects.exists()
                or AggregateCountVerification.objects.exists())


# --- the services ------------------------------------------------------------------------------------------------------

class TestCombineCounts:
    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_container_holds_the_counts_and_their_aggregate(self, boxes, people):
        """The container records each count it holds, who combined them (poker room personnel), the security
        representative who carries it, when it was sealed and its gaming day, and the aggregate: the sum of the
        counts, to the cent, equal to the sum over its rows."""
        container = combine(boxes, people)
        assert container.aggregate == D("5.00")
        assert {e.count_id for e in container.entries.all()} == {b.pk for b in boxes}
        rows = CombinedCount.objects.filter(container=container).aggregate(t=Sum("count__amount"))["t"]
        assert rows == container.aggregate
        assert (container.combined_by, container.transported_by) == (people["supervisor"], people["guard"])
        assert container.gaming_day == gaming_day_of(casino=container.casino, moment=container.sealed_at)
        assert container.gaming_day == boxes[0].gaming_day
        assert not hasattr(container, "verification")  # awaiting the cashier

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_floorperson_may_combine_and_odd_cents_add_exactly(self, casino, boxes, people):
        third = box_count(closed_table(casino, 9, 0), people, "0.35")
        container = combine([*boxes, third], people, combined_by=people["floor"])
        assert container.aggregate == D("5.35") and container.combined_by == people["floor"]

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_each_refusal_names_its_field_and_writes_nothing(self, casino, boxes, people):
        other = CasinoFactory()
        both = StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY])
        cage = record_count(table=boxes[0].table, method=CountMethod.CAGE, amount=D("1.00"),
                            counted_by=people["clerk"], witness=people["supervisor"],
                            witness_kind=WitnessKind.SUPERVISOR, recorded_by=people["clerk"])
        now = timezone.now()
        refusals = [
            ({"combined_by": people["dealer"]}, "combined_by"),
            ({"combined_by": people["clerk"]}, "combined_by"),
            ({"combined_by": StaffFactory(casino=other, roles=[Role.POKER_SHIFT_SUPERVISOR])}, "combined_by"),
            ({"transported_by": people["dealer"]}, "transported_by"),
            ({"transported_by": StaffFactory(casino=other, roles=[Role.SECURITY])}, "transported_by"),
            ({"combined_by": both, "transported_by": both}, "transported_by"),
            ({"count_ids": []}, "counts"),
            ({"count_ids": list(range(1, services.MAX_COUNTS_PER_CONTAINER + 2))}, "counts"),
            ({"count_ids": [boxes[0].pk, 10**9]}, "counts"),
            ({"count_ids": [boxes[0].pk, cage.pk]}, "counts"),
            ({"sealed_at": now.replace(tzinfo=None)}, "sealed_at"),
            ({"sealed_at": now + timedelta(minutes=5)}, "sealed_at"),
            ({"sealed_at": now - timedelta(days=3)}, "sealed_at"),
            ({"sealed_at": boxes[0].counted_at - timedelta(seconds=1)}, "counts"),
        ]
        for changes, field in refusals:
            with pytest.raises(DomainError) as refused:
                combine(boxes, people, **changes)
            assert refused.value.field == field, (changes, refused.value.message)
            assert refused.value.status_code == 400
        assert nothing_written()

    @pytest.mark.proves("14.19(d)1-transport")
    def test_14_19_d_1_a_representative_of_security_carries_the_container(self, casino, boxes, people):
        """N.J.A.C. 13:69F-14.19(d)1: the locked container goes to the cage with a representative of the casino's
        security department: a dealer, a security officer of another casino, and the person who combined the
        container (even one who also holds the security role) are each refused on `transported_by`, writing nothing;
        the casino's guard is recorded as carrying it, whichever of the two people was added first."""
        both = StaffFactory(id=100_000, casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR, Role.SECURITY])
        newer = CasinoFactory()  # a casino whose id is above this one's
        for changes in ({"transported_by": people["dealer"]},
                        {"transported_by": StaffFactory(casino=newer, roles=[Role.SECURITY])},
                        {"combined_by": both, "transported_by": both},
                        {"combined_by": both, "transported_by": type(both).objects.get(pk=both.pk)},  # read again
                        {"casino": newer, "combined_by": StaffFactory(casino=newer, roles=[Role.FLOORPERSON])}):
            with pytest.raises(DomainError) as refused:  # the last: this casino's guard for the newer one's container
                combine(boxes, people, **changes)
            assert refused.value.field == "transported_by" and "security" in refused.value.message
        assert nothing_written()
        container = combine(boxes, people)  # combined by the supervisor, carried by the guard (added after)
        assert (container.combined_by, container.transported_by) == (people["supervisor"], people["guard"])
        third = box_count(closed_table(casino, 9, 0), people, "0.35")  # combined by one added after the guard
        assert people["guard"].pk < both.pk
        later = combine([third], people, combined_by=both)
        assert (later.combined_by, later.transported_by) == (both, people["guard"])
        far = CasinoFactory(id=100_001)  # ids past CPython's cached small ints: the casinos compared by value
        JackpotFactory(casino=far, minimum_pot=D("0"))
        theirs = {"dealer": StaffFactory(casino=far, roles=[Role.DEALER]),
                  "supervisor": StaffFactory(casino=far, roles=[Role.POKER_SHIFT_SUPERVISOR]),
                  "guard": StaffFactory(casino=far, roles=[Role.SECURITY], department=Department.SECURITY)}
        assert combine([box_count(closed_table(far, 1, 0), theirs, "0.00")], theirs).transported_by == theirs["guard"]

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_count_of_another_casino_is_refused(self, boxes, people):
        elsewhere = CasinoFactory()
        guest = {"dealer": StaffFactory(casino=elsewhere, roles=[Role.DEALER]),
                 "supervisor": StaffFactory(casino=elsewhere, roles=[Role.POKER_SHIFT_SUPERVISOR])}
        foreign = box_count(closed_table(elsewhere, 4, 0), guest, "1.00")
        with pytest.raises(DomainError, match=str(foreign.pk)) as refused:
            combine([boxes[0], foreign], people)
        assert refused.value.field == "counts" and nothing_written()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_count_goes_into_one_container_only(self, boxes, people):
        """A box's contents cannot be in two containers: the second is refused (409, naming the container that holds
        it) and nothing of it is written, not even the counts it would have taken besides."""
        first = combine(boxes[:1], people)
        with pytest.raises(AlreadyRecorded) as refused:
            combine(boxes, people)
        assert refused.value.status_code == 409 and refused.value.field == "counts"
        assert refused.value.existing_id == first.pk
        assert CombinedContainer.objects.count() == 1
        assert not CombinedCount.objects.filter(count=boxes[1]).exists()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_unique_count_stands_behind_the_check(self, boxes, people, monkeypatch):
        """Were the check read before another request's container committed, the unique key of the count refuses
        the second container all the same, as a 409 naming the first, not a server error."""
        first = combine(boxes[:1], people)
        real, calls = services._already_combined, []

        def stale_then_real(ids):
            calls.append(ids)
            return None if len(calls) == 1 else real(ids)  # the check, read too early; then the backstop's

        monkeypatch.setattr(services, "_already_combined", stale_then_real)
        with pytest.raises(AlreadyRecorded) as refused:
            combine(boxes, people)
        assert refused.value.existing_id == first.pk and len(calls) == 2
        assert list(CombinedContainer.objects.all()) == [first]

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_count_of_a_gaming_day_no_longer_open_is_refused(self, boxes, people):
        with time_machine.travel(timezone.now() + timedelta(days=2)):
            with pytest.raises(DomainError, match="not open") as refused:
                combine(boxes, people)
        assert refused.value.field == "counts" and nothing_written()


@pytest.mark.django_db(transaction=True)
@pytest.mark.proves("14.19(e)-aggregate")
def test_14_19_e_two_requests_at_once_put_a_count_in_one_container():
    """Two supervisors combine the same box's count at the same moment: one container takes it, the other request is
    refused with a 409 (it waits for the first, then sees its container); never two containers."""
    casino = CasinoFactory()
    people = {"dealer": StaffFactory(casino=casino, roles=[Role.DEALER]),
              "supervisor": StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR]),
              "other": StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR]),
              "guard": StaffFactory(casino=casino, roles=[Role.SECURITY])}
    count = box_count(closed_table(casino, 2, 0), people, "4.00")
    start, results = threading.Barrier(2), []

    def run(who):
        try:
            start.wait()
            results.append(combine_counts(casino=casino, count_ids=[count.pk], combined_by=people[who],
                                          transported_by=people["guard"]))
        except BaseException as exc:  # noqa: BLE001 - reported below
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(who,)) for who in ("supervisor", "other")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made = [r for r in results if isinstance(r, CombinedContainer)]
    refused = [r for r in results if isinstance(r, AlreadyRecorded)]
    assert len(made) == 1 and len(refused) == 1, results
    assert refused[0].existing_id == made[0].pk
    assert CombinedContainer.objects.count() == CombinedCount.objects.count() == 1


class TestVerifyAggregateCount:
    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_cashier_verifies_the_aggregate_count(self, boxes, people):
        container = combine(boxes, people)
        verification = verify_aggregate_count(container=container, amount=D("5.00"), verified_by=people["clerk"])
        assert (verification.amount, verification.variance) == (D("5.00"), D("0.00"))
        assert verification.verified_by == people["clerk"]
        assert verification.gaming_day == gaming_day_of(casino=container.casino, moment=verification.verified_at)
        assert container_of(casino=container.casino, pk=container.pk).verification == verification

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_only_accounting_of_the_casino_verifies(self, boxes, people):
        container = combine(boxes, people)
        for who in (people["supervisor"], people["floor"], people["dealer"], people["guard"], people["watcher"],
                    StaffFactory(casino=CasinoFactory(), roles=[Role.ACCOUNTING])):
            with pytest.raises(DomainError, match="accounting") as refused:
                verify_aggregate_count(container=container, amount=D("5.00"), verified_by=who)
            assert refused.value.field == "verified_by"
        assert not AggregateCountVerification.objects.exists()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_an_amount_that_is_not_dollars_and_cents_is_refused(self, boxes, people):
        container = combine(boxes, people)
        for amount in (D("-0.01"), D("1000000000000"), "five", None, D("NaN")):
            with pytest.raises(DomainError) as refused:
                verify_aggregate_count(container=container, amount=amount, verified_by=people["clerk"])
            assert refused.value.field == "amount", amount
        assert not AggregateCountVerification.objects.exists()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_container_is_verified_once(self, boxes, people, staff):
        container = combine(boxes, people)
        first = verify_aggregate_count(container=container, amount=D("5.00"), verified_by=people["clerk"])
        with pytest.raises(AlreadyRecorded) as refused:
            verify_aggregate_count(container=container, amount=D("5.00"), verified_by=staff(Role.ACCOUNTING))
        assert refused.value.status_code == 409 and refused.value.field == "container"
        assert refused.value.existing_id == first.pk
        assert AggregateCountVerification.objects.count() == 1

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_count_that_differs_from_the_aggregate_is_recorded_only_once_confirmed(self, boxes, people):
        """$4.75 counted at the cage against an aggregate of $5.00: refused, with the figures, until the cashier
        confirms that very variance (-$0.25); confirmed, it is recorded with it."""
        container = combine(boxes, people)
        for confirmed in (D("0"), D("-0.50"), D("0.25")):
            with pytest.raises(AggregateVarianceToConfirm) as asked:
                verify_aggregate_count(container=container, amount=D("4.75"), verified_by=people["clerk"],
                                       variance_confirmed=confirmed)
            assert asked.value.field == "variance_confirmed"
            assert (asked.value.amount, asked.value.aggregate, asked.value.variance) == (
                D("4.75"), D("5.00"), D("-0.25"))
        assert not AggregateCountVerification.objects.exists()
        verification = verify_aggregate_count(container=container, amount=D("4.75"), verified_by=people["clerk"],
                                              variance_confirmed=D("-0.25"))
        assert (verification.amount, verification.variance) == (D("4.75"), D("-0.25"))


# --- the reads -----------------------------------------------------------------------------------------------------------

def test_counts_to_combine_are_closed_table_counts_of_open_days_in_no_container_newest_first(casino, boxes, people):
    cage = record_count(table=boxes[0].table, method=CountMethod.CAGE, amount=D("1.00"), counted_by=people["clerk"],
                        witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR, recorded_by=people["clerk"])
    elsewhere = CasinoFactory()
    guest = {"dealer": StaffFactory(casino=elsewhere, roles=[Role.DEALER]),
             "supervisor": StaffFactory(casino=elsewhere, roles=[Role.POKER_SHIFT_SUPERVISOR])}
    box_count(closed_table(elsewhere, 4, 0), guest, "1.00")
    assert list(counts_to_combine(casino=casino)) == [boxes[1], boxes[0]]
    assert cage not in counts_to_combine(casino=casino)
    assert len(counts_to_combine(casino=casino, limit=1)) == 1
    combine(boxes[:1], people)
    assert list(counts_to_combine(casino=casino)) == [boxes[1]]
    with time_machine.travel(timezone.now() + timedelta(days=2)):  # their gaming day is no longer open
        assert list(counts_to_combine(casino=casino)) == []


def test_containers_awaiting_verification_leave_out_the_verified(casino, boxes, people):
    first, second = combine(boxes[:1], people), combine(boxes[1:], people)
    assert list(containers_awaiting_verification(casino=casino)) == [second, first]
    verify_aggregate_count(container=first, amount=D("3.00"), verified_by=people["clerk"])
    assert list(containers_awaiting_verification(casino=casino)) == [second]
    assert container_of(casino=CasinoFactory(), pk=second.pk) is None


# --- the day's close ---------------------------------------------------------------------------------------------------

@pytest.fixture
def day_in_order(casino, boxes, people):
    """The boxes' gaming day with everything else in order: each count equals its table's contributions and
    accounting adjusted the display (14.19(k))."""
    jackpot = boxes[0].table.casino.jackpots.get()
    adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=people["clerk"],
                   supervisor_present=people["supervisor"])
    return boxes[0].gaming_day


def close(casino, day):
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        return close_gaming_day(casino=casino, gaming_day=day).summary


class TestDayClose:
    def test_a_day_whose_container_was_verified_without_variance_is_in_order(self, casino, boxes, people,
                                                                             day_in_order):
        verify_aggregate_count(container=combine(boxes, people), amount=D("5.00"), verified_by=people["clerk"])
        summary = close(casino, day_in_order)
        assert summary["containers_not_verified"] == [] and summary["container_variances"] == []
        assert summary["in_order"] is True

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_close_names_a_container_no_cashier_verified(self, casino, boxes, people, day_in_order):
        container = combine(boxes, people)
        summary = close(casino, day_in_order)
        assert summary["containers_not_verified"] == [{"container": container.pk, "aggregate": "5.00",
                                                       "sealed_at": container.sealed_at.isoformat()}]
        assert summary["in_order"] is False
        assert summary["uncounted_tables"] == summary["count_variances"] == summary["displays_not_adjusted"] == []

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_close_names_a_verification_with_a_variance(self, casino, boxes, people, day_in_order):
        container = combine(boxes, people)
        verify_aggregate_count(container=container, amount=D("5.50"), verified_by=people["clerk"],
                               variance_confirmed=D("0.50"))
        summary = close(casino, day_in_order)
        assert summary["container_variances"] == [{"container": container.pk, "aggregate": "5.00", "amount": "5.50",
                                                   "variance": "0.50"}]
        assert summary["containers_not_verified"] == [] and summary["in_order"] is False

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_verified_after_its_day_closed_the_variance_is_the_next_days(self, casino, boxes, people,
                                                                              day_in_order):
        """Sealed on a day and verified only after that day closed: that day's close names it not verified; the
        verification goes into the next gaming day, whose close names its variance."""
        container = combine(boxes, people)
        assert close(casino, day_in_order)["containers_not_verified"][0]["container"] == container.pk
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            verification = verify_aggregate_count(container=container, amount=D("4.00"), verified_by=people["clerk"],
                                                  variance_confirmed=D("-1.00"))
        assert verification.gaming_day == day_in_order + timedelta(days=1)
        with time_machine.travel(timezone.now() + timedelta(days=2)):
            summary = close_gaming_day(casino=casino, gaming_day=verification.gaming_day).summary
        assert [v["container"] for v in summary["container_variances"]] == [container.pk]


# --- the API -------------------------------------------------------------------------------------------------------------

CONTAINERS = "/api/counts/containers/"


def verify_url(container):
    return f"{CONTAINERS}{container.pk}/verify/"


class TestApi:
    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_supervisor_combines_and_accounting_verifies(self, api, boxes, people):
        api.force_authenticate(people["supervisor"])
        made = api.post(CONTAINERS, {"counts": [b.pk for b in boxes], "transported_by": people["guard"].pk},
                        format="json")
        assert made.status_code == 201, made.json()
        body = made.json()
        assert body["aggregate"] == "5.00" and body["verification"] is None
        assert (body["combined_by"], body["transported_by"]) == (people["supervisor"].pk, people["guard"].pk)
        assert sorted((c["id"], c["table"], c["amount"]) for c in body["counts"]) == [
            (boxes[0].pk, 4, "3.00"), (boxes[1].pk, 7, "2.00")]
        container = CombinedContainer.objects.get(pk=body["id"])
        assert body["gaming_day"] == container.gaming_day.isoformat()
        api.force_authenticate(people["clerk"])
        differs = api.post(verify_url(container), {"amount": "4.90"}, format="json")
        assert differs.status_code == 400 and list(differs.json()) == ["variance_confirmed"]
        assert "-$0.10" in differs.json()["variance_confirmed"][0].replace("\u2212", "-")
        assert not AggregateCountVerification.objects.exists()
        verified = api.post(verify_url(container), {"amount": "4.90", "variance_confirmed": "-0.10"}, format="json")
        assert verified.status_code == 201
        assert {k: verified.json()["verification"][k] for k in ("amount", "variance", "verified_by")} == {
            "amount": "4.90", "variance": "-0.10", "verified_by": people["clerk"].pk}
        again = api.post(verify_url(container), {"amount": "4.90", "variance_confirmed": "-0.10"}, format="json")
        assert again.status_code == 409 and again.json()["existing_id"] == container.verification.pk

    @pytest.mark.parametrize("body,field", [
        ({"counts": [], "transported_by": "guard"}, "counts"),
        ({"counts": "all", "transported_by": "guard"}, "counts"),
        ({"counts": ["box"], "transported_by": "dealer"}, "transported_by"),
        ({"counts": ["box"], "transported_by": 10**9}, "transported_by"),
        ({"counts": ["box"]}, "transported_by"),
        ({"counts": ["box"], "transported_by": "guard", "sealed_at": "2026-01-01T10:00:00"}, "sealed_at"),
        ({"counts": ["cage"], "transported_by": "guard"}, "counts"),
    ])
    def test_14_19_e_bad_input_is_a_400_naming_the_field(self, api, boxes, people, body, field):
        cage = record_count(table=boxes[0].table, method=CountMethod.CAGE, amount=D("1.00"),
                            counted_by=people["clerk"], witness=people["supervisor"],
                            witness_kind=WitnessKind.SUPERVISOR, recorded_by=people["clerk"])
        ids = {"box": boxes[0].pk, "cage": cage.pk}
        sent = {k: ([ids.get(x, x) for x in v] if isinstance(v, list) else people[v].pk if v in people else v)
                for k, v in body.items()}
        api.force_authenticate(people["supervisor"])
        answer = api.post(CONTAINERS, sent, format="json")
        assert answer.status_code == 400 and field in answer.json(), answer.json()
        assert nothing_written()

    def test_14_19_e_a_count_combined_already_is_a_409(self, api, boxes, people):
        first = combine(boxes[:1], people)
        api.force_authenticate(people["supervisor"])
        answer = api.post(CONTAINERS, {"counts": [b.pk for b in boxes], "transported_by": people["guard"].pk},
                          format="json")
        assert answer.status_code == 409 and answer.json()["existing_id"] == first.pk and "counts" in answer.json()

    @pytest.mark.parametrize("amount", ["-1.00", "1.001", "1e13", "five", None])
    def test_an_amount_no_verification_holds_is_a_400(self, api, boxes, people, amount):
        container = combine(boxes, people)
        api.force_authenticate(people["clerk"])
        answer = api.post(verify_url(container), {"amount": amount}, format="json")
        assert answer.status_code == 400 and "amount" in answer.json()
        assert not AggregateCountVerification.objects.exists()

    @pytest.mark.proves("14.19(e)-aggregate")
    @pytest.mark.parametrize("role,combines,verifies", [
        (Role.POKER_SHIFT_SUPERVISOR, 201, 403), (Role.ACCOUNTING, 403, 201), (Role.FLOORPERSON, 403, 403),
        (Role.DEALER, 403, 403), (Role.SECURITY, 403, 403), (Role.SURVEILLANCE, 403, 403), (Role.ADMIN, 403, 403)])
    def test_14_19_e_who_combines_and_who_verifies(self, api, boxes, people, staff, role, combines, verifies):
        container = combine(boxes[:1], people)
        api.force_authenticate(staff(role))
        answer = api.post(CONTAINERS, {"counts": [boxes[1].pk], "transported_by": people["guard"].pk}, format="json")
        assert answer.status_code == combines
        assert CombinedContainer.objects.count() == (2 if combines == 201 else 1)
        answer = api.post(verify_url(container), {"amount": "3.00"}, format="json")
        assert answer.status_code == verifies
        assert AggregateCountVerification.objects.count() == (1 if verifies == 201 else 0)

    def test_anonymous_is_refused(self, api, boxes, people):
        container = combine(boxes, people)
        assert api.get(CONTAINERS).status_code in (401, 403)
        assert api.post(CONTAINERS, {"counts": [boxes[0].pk], "transported_by": people["guard"].pk},
                        format="json").status_code in (401, 403)
        assert api.post(verify_url(container), {"amount": "5.00"}, format="json").status_code in (401, 403)
        assert not AggregateCountVerification.objects.exists()

    def test_a_container_of_another_casino_is_a_404(self, api, boxes, people):
        container = combine(boxes, people)
        api.force_authenticate(StaffFactory(casino=CasinoFactory(), roles=[Role.ACCOUNTING]))
        assert api.post(verify_url(container), {"amount": "5.00"}, format="json").status_code == 404
        assert api.get(CONTAINERS).json()["results"] == []

    @pytest.mark.parametrize("role,code", [(Role.POKER_SHIFT_SUPERVISOR, 200), (Role.ACCOUNTING, 200),
                                           (Role.SURVEILLANCE, 200), (Role.DEALER, 403), (Role.FLOORPERSON, 403)])
    def test_the_list_is_newest_first_in_keyset_pages(self, api, boxes, people, staff, role, code):
        first, second = combine(boxes[:1], people), combine(boxes[1:], people)
        verify_aggregate_count(container=first, amount=D("3.00"), verified_by=people["clerk"])
        api.force_authenticate(staff(role))
        page = api.get(CONTAINERS, {"limit": 1})
        assert page.status_code == code
        if code != 200:
            return
        assert [c["id"] for c in page.json()["results"]] == [second.pk]
        older = api.get(page.json()["next"]).json()
        assert [c["id"] for c in older["results"]] == [first.pk] and older["next"] is None
        assert older["results"][0]["verification"]["amount"] == "3.00"


# --- the pages ------------------------------------------------------------------------------------------------------------

PAGE = "/counts/containers/"


class TestPages:
    def test_the_counts_page_links_to_the_containers(self, client, people):
        client.force_login(people["supervisor"])
        assert f'href="{PAGE}"' in client.get("/counts/").content.decode()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_a_supervisor_combines_counts_from_the_page(self, client, boxes, people):
        client.force_login(people["supervisor"])
        page = client.get(PAGE)
        html = page.content.decode()
        assert page.status_code == 200 and 'data-testid="combine-form"' in html
        assert f'value="{boxes[0].pk}"' in html and "Table 4" in html and people["guard"].username in html
        refused = client.post(PAGE, {"counts": [boxes[0].pk], "transported_by": people["dealer"].pk})
        assert refused.status_code == 400 and "A representative of security" in refused.content.decode()
        assert nothing_written()
        done = client.post(PAGE, {"counts": [b.pk for b in boxes], "transported_by": people["guard"].pk})
        container = CombinedContainer.objects.get()
        assert done.status_code == 302 and done["Location"] == f"{PAGE}{container.pk}/"
        assert container.aggregate == D("5.00") and container.combined_by == people["supervisor"]
        shown = client.get(done["Location"]).content.decode()
        assert "$5.00" in shown and "not verified" in shown and 'data-testid="verify-form"' not in shown

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_accounting_records_the_cages_count_from_the_page(self, client, boxes, people):
        container = combine(boxes, people)
        client.force_login(people["clerk"])
        listed = client.get(PAGE).content.decode()
        assert f'data-testid="awaiting-{container.pk}"' in listed and 'data-testid="combine-form"' not in listed
        url = f"{PAGE}{container.pk}/"
        assert 'data-testid="verify-form"' in client.get(url).content.decode()
        bad = client.post(url, {"amount": "-1"})
        assert bad.status_code == 400 and not AggregateCountVerification.objects.exists()
        asked = client.post(url, {"amount": "5.25"})
        assert asked.status_code == 400 and "Variance $0.25" in asked.content.decode()
        assert not AggregateCountVerification.objects.exists()
        done = client.post(url, {"amount": "5.25", "confirmed_variance": "0.25", "confirm_variance": "on"})
        assert done.status_code == 302
        verification = AggregateCountVerification.objects.get()
        assert (verification.amount, verification.variance, verification.verified_by) == (
            D("5.25"), D("0.25"), people["clerk"])
        page = client.get(url).content.decode()
        assert "counted at the cage by" in page and 'data-testid="verify-form"' not in page
        assert f'data-testid="awaiting-{container.pk}"' not in client.get(PAGE).content.decode()

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_what_a_role_may_not_do_is_not_offered_and_refused(self, client, boxes, people):
        container = combine(boxes[:1], people)
        url = f"{PAGE}{container.pk}/"
        client.force_login(people["clerk"])  # accounting verifies, never combines
        assert client.post(PAGE, {"counts": [boxes[1].pk], "transported_by": people["guard"].pk}).status_code == 403
        client.force_login(people["supervisor"])  # the supervisor combines, never verifies
        assert 'data-testid="verify-form"' not in client.get(url).content.decode()
        assert client.post(url, {"amount": "3.00"}).status_code == 403
        client.force_login(people["watcher"])  # surveillance reads only
        for page in (client.get(PAGE), client.get(url)):
            assert page.status_code == 200 and "combine-form" not in page.content.decode()
            assert "verify-form" not in page.content.decode()
        assert client.post(url, {"amount": "3.00"}).status_code == 403
        client.force_login(people["dealer"])
        assert client.get(PAGE).status_code == 403 and client.get(url).status_code == 403
        assert CombinedContainer.objects.count() == 1 and not AggregateCountVerification.objects.exists()

    def test_htmx_polls_the_containers_awaiting_verification_alone(self, client, boxes, people):
        container = combine(boxes, people)
        client.force_login(people["clerk"])
        part = client.get(PAGE, HTTP_HX_REQUEST="true")
        html = part.content.decode()
        assert part.status_code == 200 and "<html" not in html and f'data-testid="awaiting-{container.pk}"' in html
        assert "HX-Request" in part["Vary"]

    def test_a_container_of_another_casino_is_not_found(self, client, boxes, people):
        container = combine(boxes, people)
        client.force_login(StaffFactory(casino=CasinoFactory(), roles=[Role.ACCOUNTING]))
        assert client.get(f"{PAGE}{container.pk}/").status_code == 404

    @pytest.mark.proves("14.19(e)-aggregate")
    def test_14_19_e_the_counts_page_shows_the_closes_container_findings(self, client, casino, boxes, people,
                                                                       day_in_order):
        container = combine(boxes, people)
        close(casino, day_in_order)
        client.force_login(people["clerk"])
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            page = client.get(f"/counts/?day={day_in_order.isoformat()}").content.decode()
        assert "containers not verified 1" in page and f"{PAGE}{container.pk}/" in page

    def test_the_pages_and_the_list_read_no_history_table_by_a_scan(self, client, api, boxes, people):
        """As every history list (tests/core/test_history_queries.py): each query is served by an index."""
        container = combine(boxes[:1], people)
        verify_aggregate_count(container=container, amount=D("3.00"), verified_by=people["clerk"])
        combine(boxes[1:], people)
        client.force_login(people["supervisor"])
        history = set(append_only_tables())
        with CaptureQueriesContext(connection) as captured:
            for url in (PAGE, f"{PAGE}{container.pk}/", f"{CONTAINERS}?limit=1"):
                assert client.get(url).status_code == 200
        selects = [q["sql"].split(";", 1)[-1].strip() if q["sql"].startswith("SELECT set_config") else q["sql"]
                   for q in captured.captured_queries]
        scanned = [(sql[:200], name) for sql in selects if sql.upper().startswith("SELECT")
                   for name in seq_scans(sql, history)]
        assert scanned == []
        assert any('"counts_combinedcontainer"' in sql for sql in selects)
