"""Counts of the bad beat boxes and containers, the contribution forms and accounting's reconciliation
(N.J.A.C. 13:69F-14.19(d)-(h))."""
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from apps.badbeat.models import Contribution
from apps.casinos.models import Department, GamingDayClose, LicenseType
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import (
    BadBeatCount,
    CountMethod,
    MasterGameReportAdjustment,
    ReconciliationStatus,
    WitnessKind,
)
from apps.counts.selectors import master_game_report
from apps.counts.services import (
    close_due_gaming_days,
    close_gaming_day,
    receive_form_part,
    reconcile_gaming_day,
    record_count,
)
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
NEW_YORK = ZoneInfo("America/New_York")
pytestmark = pytest.mark.django_db


def pot(table, each="15.00", at=None):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=at or timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D(each), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D(each), hole_cards="Qh Qd")]))


@pytest.fixture
def table(casino):
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    return PokerTableFactory(casino=casino)


@pytest.fixture
def people(staff):
    return {"dealer": staff(Role.DEALER), "supervisor": staff(Role.POKER_SHIFT_SUPERVISOR),
            "clerk": staff(Role.ACCOUNTING),
            "guard": staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_KEY_EMPLOYEE,
                           approved_count_witness=True)}


def form(table, people, chips, witness="supervisor", kind=WitnessKind.SUPERVISOR, **kw):
    return record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips=chips, counted_by=people["dealer"],
                        witness=people[witness] if isinstance(witness, str) else witness, witness_kind=kind,
                        surveillance_recorded=True, recorded_by=people["supervisor"], **kw)


class TestForms:
    @pytest.mark.proves("14.19(f)3-serial", "14.19(f)-count-recorded")
    def test_14_19_f_3_forms_are_serial_and_compared_with_contributions(self, table, people):
        for _ in range(3):
            pot(table)
        first = form(table, people, {"1": 3})
        assert (first.amount, first.expected, first.variance) == (D("3.00"), D("3.00"), D("0.00"))
        pot(table)
        second = form(table, people, {"0.25": 2})
        assert second.serial_number == first.serial_number + 1
        assert (second.expected, second.variance) == (D("1.00"), D("-0.50"))  # flagged: $0.50 short

    @pytest.mark.proves("14.19(f)2-witness", "14.19(f)2-second-department")
    def test_14_19_f_2_witness_from_a_second_department(self, table, people, staff):
        pot(table)
        ok = form(table, people, {"1": 1}, witness="guard", kind="second_department")  # as the page and the API send it
        assert ok.witness == people["guard"]
        for kind in (WitnessKind.CASHIER, "visitor"):  # a second department's witness named as another kind
            with pytest.raises(DomainError) as refused:
                form(table, people, {"1": 1}, witness="guard", kind=kind)
            assert refused.value.field == "witness_kind"
        with pytest.raises(DomainError) as refused:  # nor a poker supervisor named as an unknown kind
            form(table, people, {"1": 1}, witness="supervisor", kind="visitor")
        assert refused.value.field == "witness_kind"
        refusals = {
            "surveillance": staff(Role.SURVEILLANCE, department=Department.SURVEILLANCE,
                                  license_type=LicenseType.CASINO_KEY_EMPLOYEE, approved_count_witness=True),
            "internal audit": staff(Role.ACCOUNTING, department=Department.INTERNAL_AUDIT,
                                    license_type=LicenseType.CASINO_KEY_EMPLOYEE, approved_count_witness=True),
            "poker": staff(Role.FLOORPERSON, department=Department.POKER, license_type=LicenseType.CASINO_KEY_EMPLOYEE,
                           approved_count_witness=True),
            "license": staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_EMPLOYEE,
                             approved_count_witness=True),
            "casino floor": staff(Role.SECURITY, department=Department.SECURITY, works_on_casino_floor=False,
                                  license_type=LicenseType.CASINO_KEY_EMPLOYEE, approved_count_witness=True),
            "internal controls": staff(Role.SECURITY, department=Department.SECURITY,
                                       license_type=LicenseType.CASINO_KEY_EMPLOYEE, approved_count_witness=False),
        }
        for words, witness in refusals.items():
            with pytest.raises(DomainError, match=words) as refused:
                form(table, people, {"1": 1}, witness=witness, kind=WitnessKind.SECOND_DEPARTMENT)
            assert refused.value.field == "witness"

    @pytest.mark.proves("14.19(f)2-witness", "14.19(f)2-second-department")
    def test_14_19_f_2_supervisor_witness_needs_surveillance(self, table, people):
        """A poker supervisor witnesses under videotaped surveillance; without it, a second department must."""
        for kind in (WitnessKind.SUPERVISOR, "supervisor"):  # the member, and the string the page and the API send
            with pytest.raises(DomainError) as refused:
                record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1},
                             counted_by=people["dealer"], witness=people["supervisor"], witness_kind=kind,
                             surveillance_recorded=False, recorded_by=people["supervisor"])
            assert refused.value.field == "surveillance_recorded"

    @pytest.mark.proves("14.19(f)2-witness", "14.19(f)2-second-department")
    def test_14_19_f_2_the_witness_is_never_the_one_who_counts(self, people, staff):
        """witness_problems (the count page and record_count ask it): a witness who is the counter is refused,
        however the two were read; any other valid witness passes whichever of the two was created first."""
        from apps.casinos.models import User
        from apps.counts.selectors import witness_problems

        guard = people["guard"]
        later = staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_KEY_EMPLOYEE,
                      approved_count_witness=True)
        assert witness_problems(witness=guard, counter=later) == witness_problems(witness=later, counter=guard) == []
        far = staff(Role.SECURITY, department=Department.SECURITY, license_type=LicenseType.CASINO_KEY_EMPLOYEE,
                    approved_count_witness=True, pk=10**6)  # an id past the small integers Python shares
        assert witness_problems(witness=User.objects.get(pk=far.pk), counter=User.objects.get(pk=far.pk)) == [
            "The witness cannot be the dealer who counts."]

    def test_bad_chips_are_refused_by_field(self, table, people):
        for chips in ({"3": 1}, {"1": -2}, {"1": "two"}):
            with pytest.raises(DomainError) as refused:
                form(table, people, chips)
            assert refused.value.field == "chips"


class TestBoxCounts:
    @pytest.mark.proves("14.19(d)1-closed-table", "14.19(d)-place")
    def test_14_19_d_1_closed_table_count_by_dealer_and_supervisor(self, table, people):
        pot(table)
        with pytest.raises(DomainError, match="closed table"):
            record_count(table=table, method=CountMethod.CLOSED_TABLE, amount=D("1.00"), counted_by=people["dealer"],
                         witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                         surveillance_recorded=True, recorded_by=people["supervisor"])
        table.is_open = False
        table.save()
        count = record_count(table=table, method=CountMethod.CLOSED_TABLE, amount=D("1.00"),
                             counted_by=people["dealer"], witness=people["supervisor"],
                             witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                             transported_by=people["guard"], recorded_by=people["supervisor"])
        assert count.serial_number is None and count.variance == 0

    @pytest.mark.proves("14.19(e)-cashier-counts", "14.19(d)-place")
    def test_14_19_e_cage_count_by_a_cashier(self, table, people):
        pot(table)
        with pytest.raises(DomainError, match="cashier"):
            record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["dealer"],
                         witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                         recorded_by=people["clerk"])
        count = record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                             witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                             recorded_by=people["clerk"])
        assert count.expected == D("1.00")


def day_of(table):
    return Contribution.objects.filter(table=table).first().gaming_day


class TestReconciliation:
    def _day_with_forms(self, table, people, n=3):
        forms = []
        for _ in range(n):
            pot(table)
            forms.append(form(table, people, {"1": 1}))
        return forms

    @pytest.mark.proves("14.19(g)", "14.19(h)-reconcile", "14.19(f)3-two-parts")
    def test_14_19_h_all_parts_match(self, table, people):
        """14.19(g): both parts of each Bad Beat Payout Contribution Form reach accounting, the original from the
        table's drop box and the duplicate from the locked accounting box, each recorded on receipt; (h) then
        reconciles the day."""
        forms = self._day_with_forms(table, people)
        for f in forms:
            for part in ("original", "duplicate"):
                receive_form_part(casino=table.casino, serial_number=f.serial_number, part=part,
                                  received_by=people["clerk"])
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            rec = reconcile_gaming_day(casino=table.casino, gaming_day=forms[0].gaming_day,
                                       reconciled_by=people["clerk"])
        assert rec.status == ReconciliationStatus.RECONCILED and rec.revenue_adjustment == 0

    @pytest.mark.proves("14.19(g)", "14.19(h)-reconcile")
    def test_14_19_g_accounting_records_each_part_through_the_api(self, table, people):
        """14.19(g) through the API accounting uses: each part of a form recorded on receipt (201, with its serial
        number and part, as the schema publishes), twice changes nothing; a body without a valid part or serial
        number is a 400 naming the field, a serial never issued a 400 too, and nothing is recorded."""
        from drf_spectacular.generators import SchemaGenerator
        from rest_framework.test import APIClient

        from apps.counts.models import FormReceipt

        [issued] = self._day_with_forms(table, people, n=1)
        api = APIClient()
        api.force_authenticate(people["clerk"])
        for body, field in (({"serial_number": issued.serial_number, "part": "copy"}, "part"),
                            ({"part": "original"}, "serial_number"),
                            ({"serial_number": issued.serial_number + 99, "part": "original"}, "serial_number")):
            refused = api.post("/api/form-receipts/", body, format="json")
            assert refused.status_code == 400 and field in refused.json(), body
        assert not FormReceipt.objects.exists()
        for part in ("original", "duplicate", "original"):
            answer = api.post("/api/form-receipts/", {"serial_number": issued.serial_number, "part": part},
                              format="json")
            assert answer.status_code == 201 and answer.json() == {"serial_number": issued.serial_number, "part": part}
        assert sorted(FormReceipt.objects.values_list("part", flat=True)) == ["duplicate", "original"]
        responses = SchemaGenerator().get_schema(request=None, public=True)["paths"]["/api/form-receipts/"]["post"][
            "responses"]
        assert "201" in responses and "200" not in responses

    @pytest.mark.proves("14.19(h)-missing", "14.19(h)-revenue", "14.19(h)-reconcile")
    def test_14_19_h_duplicate_without_original_adds_to_poker_revenue(self, table, people):
        RakeStructureFactory(table=table)
        forms = self._day_with_forms(table, people)
        missing = forms[1]
        for f in forms:
            receive_form_part(casino=table.casino, serial_number=f.serial_number, part="duplicate",
                              received_by=people["clerk"])
            if f != missing:
                receive_form_part(casino=table.casino, serial_number=f.serial_number, part="original",
                                  received_by=people["clerk"])
        day = forms[0].gaming_day
        before = master_game_report(casino=table.casino, gaming_day=day).totals["revenue"]
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            rec = reconcile_gaming_day(casino=table.casino, gaming_day=day, reconciled_by=people["clerk"])
            again = reconcile_gaming_day(casino=table.casino, gaming_day=day, reconciled_by=people["clerk"])
        assert rec.missing_originals == [missing.serial_number] and rec.status == ReconciliationStatus.VARIANCE
        assert again.revenue_adjustment == D("1.00")
        assert MasterGameReportAdjustment.objects.count() == 1  # once, however often it is redone
        report = master_game_report(casino=table.casino, gaming_day=day)
        assert report.totals["revenue"] == before + D("1.00")
        assert report.totals["adjustments"] == D("1.00")

    @pytest.mark.proves("14.19(h)-missing")
    def test_14_19_h_original_without_duplicate_is_a_variance_not_revenue(self, table, people):
        forms = self._day_with_forms(table, people, n=2)
        for f in forms:
            receive_form_part(casino=table.casino, serial_number=f.serial_number, part="original",
                              received_by=people["clerk"])
        receive_form_part(casino=table.casino, serial_number=forms[0].serial_number, part="duplicate",
                          received_by=people["clerk"])
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            rec = reconcile_gaming_day(casino=table.casino, gaming_day=forms[0].gaming_day,
                                       reconciled_by=people["clerk"])
        assert rec.missing_duplicates == [forms[1].serial_number]
        assert rec.revenue_adjustment == 0 and rec.status == ReconciliationStatus.VARIANCE

    @pytest.mark.proves("14.19(h)-missing", "14.19(h)-reconcile")
    def test_14_19_h_each_forms_parts_found_missing_by_serial_until_the_day_is_reconciled_once(self, table, people):
        """14.19(h): the day's forms matched part by part, by serial number. Four forms: A with nothing received yet,
        B with its original only, C with its duplicate only, D with both. With only D's parts in, the day is not
        reconciled (three forms not received, though no part is unmatched); with B's original and C's duplicate in,
        C lacks its original (its value added to poker revenue, once), B its duplicate, A both; with every part in
        the day is reconciled, and then refused a second time. Refused too: reconciling today or a day to come
        (not ended), and a day before the casino's records; the day the records start is reconciled."""
        a, b, c, d = self._day_with_forms(table, people, n=4)
        casino, day, clerk = table.casino, a.gaming_day, people["clerk"]
        casino.records_kept_since = day
        casino.save(update_fields=["records_kept_since"])

        def receive(form_, *parts):
            for part in parts:
                receive_form_part(casino=casino, serial_number=form_.serial_number, part=part, received_by=clerk)

        def reconciled(on=day):
            return reconcile_gaming_day(casino=casino, gaming_day=on, reconciled_by=clerk)

        receive(d, "original", "duplicate")
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            for not_ended in (day + timedelta(days=1), day + timedelta(days=2)):
                with pytest.raises(DomainError, match="once it has ended") as refused:
                    reconciled(not_ended)
                assert refused.value.field == "gaming_day"
            with pytest.raises(DomainError, match="keeps records from") as before_records:
                reconciled(day - timedelta(days=1))
            assert before_records.value.field == "gaming_day"
            first = reconciled()
            assert first.status == ReconciliationStatus.VARIANCE
            assert (first.missing_originals, first.missing_duplicates) == ([], [])
            assert first.not_received == sorted([a.serial_number, b.serial_number, c.serial_number])

            receive(b, "original")
            receive(c, "duplicate")
            second = reconciled()
            assert second.status == ReconciliationStatus.VARIANCE
            assert (second.missing_originals, second.missing_duplicates, second.not_received) == (
                [c.serial_number], [b.serial_number], [a.serial_number])
            assert second.revenue_adjustment == D("1.00")

            receive(a, "original", "duplicate")
            receive(b, "duplicate")
            receive(c, "original")
            third = reconciled()
            assert third.status == ReconciliationStatus.RECONCILED
            assert (third.missing_originals, third.missing_duplicates, third.not_received) == ([], [], [])
            with pytest.raises(DomainError, match="already reconciled") as again:
                reconciled()
            assert again.value.field == "gaming_day"

    @pytest.mark.proves("14.19(h)-reconcile")
    def test_14_19_h_accounting_reconciles_a_day_through_the_api(self, table, people):
        """14.19(h) through the API accounting uses: a body without a valid gaming day is a 400 naming the field and
        records nothing; the ended day reconciled answers 200 with the reconciliation (as the schema publishes), its
        form's parts missing said."""
        from drf_spectacular.generators import SchemaGenerator
        from rest_framework.test import APIClient

        from apps.counts.models import Reconciliation

        [issued] = self._day_with_forms(table, people, n=1)
        api = APIClient()
        api.force_authenticate(people["clerk"])
        for body in ({}, {"gaming_day": "not a day"}):
            refused = api.post("/api/reconciliations/", body, format="json")
            assert refused.status_code == 400 and "gaming_day" in refused.json(), refused.json()
        assert not Reconciliation.objects.exists()
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            done = api.post("/api/reconciliations/", {"gaming_day": str(issued.gaming_day)}, format="json")
        assert done.status_code == 200, done.json()
        assert (done.json()["status"], done.json()["not_received"]) == ("variance", [issued.serial_number])
        operation = SchemaGenerator().get_schema(request=None, public=True)["paths"]["/api/reconciliations/"]["post"]
        assert "200" in operation["responses"] and "201" not in operation["responses"]
        assert "Reconciliation" in str(operation["requestBody"]) and "Reconciliation" in str(operation["responses"])

    @pytest.mark.proves("14.19(h)-reconcile")
    def test_14_19_h_only_accounting_reconciles_and_an_unknown_serial_is_refused(self, table, people):
        forms = self._day_with_forms(table, people, n=1)
        with pytest.raises(DomainError, match="accounting"):
            reconcile_gaming_day(casino=table.casino, gaming_day=forms[0].gaming_day,
                                 reconciled_by=people["supervisor"])
        with pytest.raises(DomainError) as unknown:
            receive_form_part(casino=table.casino, serial_number=999, part="original", received_by=people["clerk"])
        assert unknown.value.field == "serial_number"


class TestGamingDayClose:
    @pytest.mark.proves("14.19(d)-daily", "14.19(f)1-daily")
    def test_14_19_d_close_flags_uncounted_tables_and_is_idempotent(self, table, people, supervisor):
        """14.19(d) and (f)1: each container is counted at least once per gaming day; closing the day flags a table
        whose contributions were not all counted (and the day as not in order): here one never counted ($2.00), one
        with a pot after its count ($1.00 of $2.00 left), not one counted whole."""
        pot(table)
        pot(table)
        recounted, counted = (PokerTableFactory(casino=table.casino, number=table.number + n) for n in (1, 2))
        for other in (recounted, counted):
            pot(other)
            form(other, people, {"1": 1})
        pot(recounted)
        day = day_of(table)
        with pytest.raises(DomainError, match="not ended"):
            close_gaming_day(casino=table.casino, gaming_day=day)
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            closed = close_due_gaming_days()
            assert close_due_gaming_days() == []
        close = GamingDayClose.objects.get(casino=table.casino, gaming_day=day)
        assert closed == [close]
        assert close.summary["uncounted_tables"] == [{"table": table.number, "amount": "2.00"},
                                                     {"table": recounted.number, "amount": "1.00"}]
        assert close.summary["in_order"] is False

    @pytest.mark.proves("14.19(d)-daily")
    def test_14_19_d_days_missed_are_closed_oldest_first_each_once_through_the_day_asked(self, table, supervisor):
        """14.19(d): the count's close every gaming day, caught up after the job was down: each ended day since the
        casino went live is closed once, oldest first, with its own record (who closed it, its own figures: a day
        with no rounds closes empty but still flags the table left uncounted), only through the day asked; a day not
        ended is refused and nothing is closed; its books are marked closed."""
        from apps.casinos.models import GamingDay
        from apps.casinos.selectors import current_gaming_day
        from apps.counts.services import close_gaming_days

        with time_machine.travel(timezone.now() - timedelta(days=3)):
            pot(table)
        first = day_of(table)
        today = current_gaming_day(casino=table.casino)
        assert today == first + timedelta(days=3)
        for day in (today, today + timedelta(days=1)):
            with pytest.raises(DomainError, match="not ended"):
                close_gaming_days(casino=table.casino, through=day)
        assert not GamingDayClose.objects.exists()
        closes = close_gaming_days(casino=table.casino, through=first + timedelta(days=1), closed_by=supervisor)
        assert [(c.gaming_day, c.closed_by) for c in closes] == [(first, supervisor),
                                                                 (first + timedelta(days=1), supervisor)]
        assert [c.summary["contributions"] for c in closes] == ["1.00", "0.00"]
        assert [c.summary["uncounted_tables"] for c in closes] == [[{"table": table.number, "amount": "1.00"}]] * 2
        assert GamingDay.objects.get(casino=table.casino, gaming_day=first).closed_at is not None
        rest = close_gaming_days(casino=table.casino)
        assert [(c.gaming_day, c.closed_by) for c in rest] == [(first + timedelta(days=2), None)]
        assert close_gaming_days(casino=table.casino) == []
        assert GamingDayClose.objects.count() == 3

    def test_command_closes_a_day_like_the_job(self, table, people):
        pot(table)
        form(table, people, {"1": 1})
        day = day_of(table)
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            call_command("close_gaming_day", "--casino", table.casino.code, "--date", day.isoformat())
        summary = GamingDayClose.objects.get(gaming_day=day).summary
        assert summary["uncounted_tables"] == [] and summary["count_variances"] == []

    def test_gaming_day_boundary_across_daylight_saving(self, table, people):
        """A round at 05:59 and one at 06:01 local on the day clocks go forward fall on different gaming days."""
        with time_machine.travel(datetime(2026, 3, 8, 5, 59, tzinfo=NEW_YORK), tick=False):
            early = pot(table)
        with time_machine.travel(datetime(2026, 3, 8, 6, 1, tzinfo=NEW_YORK), tick=False):
            late = pot(table)
        assert str(early.gaming_day) == "2026-03-07" and str(late.gaming_day) == "2026-03-08"
        with time_machine.travel(datetime(2026, 3, 9, 6, 0, tzinfo=NEW_YORK), tick=False):
            first = close_gaming_day(casino=table.casino, gaming_day=early.gaming_day)
            second = close_gaming_day(casino=table.casino, gaming_day=late.gaming_day)
        assert first.summary["contributions"] == second.summary["contributions"] == "1.00"


@pytest.mark.proves("14.19(d)2-supervisor-accounts")
def test_14_19_d_2_a_poker_supervisor_accounts_for_the_boxes_counted_at_the_cage(table, people):
    """14.19(d)2: boxes counted in the cashiers' cage are accounted for by a poker supervisor: a cage count witnessed
    by anyone else (a dealer, a guard) is refused naming the witness and writes nothing; with the supervisor it is
    recorded."""
    pot(table)
    for someone in ("dealer", "guard"):
        with pytest.raises(DomainError, match=r"14\.19\(d\)2") as exc:
            record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                         witness=people[someone], witness_kind=WitnessKind.SUPERVISOR, recorded_by=people["clerk"])
        assert exc.value.field == "witness"
    for kind in (WitnessKind.SECOND_DEPARTMENT, WitnessKind.CASHIER, "visitor"):  # the supervisor named as another
        with pytest.raises(DomainError, match=r"14\.19\(d\)2") as exc:
            record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                         witness=people["supervisor"], witness_kind=kind, recorded_by=people["clerk"])
        assert exc.value.field == "witness"
    assert not BadBeatCount.objects.exists()
    count = record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                         witness=people["supervisor"], witness_kind="supervisor",  # as the page and the API send it
                         transported_by=people["guard"], recorded_by=people["clerk"])
    assert count.witness == people["supervisor"] and count.transported_by == people["guard"]


@pytest.mark.proves("14.19(d)2-security-transports")
def test_14_19_d_2_security_transports_the_boxes_to_the_cage(table, people):
    """14.19(d)2: a representative of security transports the boxes to the cage: a cage count that names the dealer
    as the one who carried them is refused naming the field and the boxes, and writes nothing; one carried by the
    guard is recorded with the guard, as is one whose carrier is not recorded. A count returned to the table
    inventory instead (14.19(f)) is transported by no one: naming anyone is refused."""
    pot(table)
    for carrier in (people["dealer"], people["supervisor"]):
        with pytest.raises(DomainError, match=r"transports the boxes to the cage \(14\.19\(d\)2\)") as exc:
            record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                         witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                         transported_by=carrier, recorded_by=people["clerk"])
        assert exc.value.field == "transported_by" and not BadBeatCount.objects.exists()
    from apps.counts.services import verify_transport

    with pytest.raises(DomainError, match=r"transports the container \(14\.19\(d\)1\)"):  # not the cage's boxes
        verify_transport(method="closed_table", transported_by=people["dealer"])
    with pytest.raises(DomainError, match=r"transports the boxes to the cage \(14\.19\(d\)2\)"):
        verify_transport(method="cage", transported_by=people["dealer"])  # as a form sends it: plain text
    for carrier in (people["guard"], None):
        count = record_count(table=table, method=CountMethod.CAGE, amount=D("1"), counted_by=people["clerk"],
                             witness=people["supervisor"], witness_kind=WitnessKind.SUPERVISOR,
                             transported_by=carrier, recorded_by=people["clerk"])
        assert count.transported_by == carrier
    # a count returned to the table inventory (14.19(f), in lieu of (d)) is carried by no one, not even security
    for carrier in (people["guard"], people["dealer"]):
        with pytest.raises(DomainError, match=r"table inventory is not transported \(14\.19\(f\)\)") as exc:
            form(table, people, {"1": 1}, transported_by=carrier)
        assert exc.value.field == "transported_by"
    assert BadBeatCount.objects.filter(method=CountMethod.TABLE_INVENTORY).count() == 0
    assert form(table, people, {"1": 1}).transported_by is None
