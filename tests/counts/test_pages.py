"""Count and reconciliation pages, PDF and CSV; who may reconcile (N.J.A.C. 13:69F-14.19(f), (h))."""
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format

from apps.core.roles import Role
from apps.counts.models import BadBeatCount, CountMethod, WitnessKind
from apps.counts.services import receive_form_part, record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def day_with_form(casino, staff, supervisor):
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino)
    RakeStructureFactory(table=table)
    record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))
    form = record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1}, counted_by=staff(Role.DEALER),
                        witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                        recorded_by=supervisor)
    return form


@pytest.mark.parametrize("role,code", [(Role.ACCOUNTING, 200), (Role.SURVEILLANCE, 200), (Role.DEALER, 403),
                                       (Role.FLOORPERSON, 403)])
def test_who_reads_the_reconciliation(client, staff, day_with_form, role, code):
    client.force_login(staff(role))
    assert client.get("/accounting/reconciliation/").status_code == code
    assert client.get(f"/accounting/master-game-report/{day_with_form.gaming_day}/").status_code == code


@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE, Role.ADMIN])
def test_14_19_h_only_accounting_reconciles(client, staff, day_with_form, role):
    client.force_login(staff(role))
    url = f"/accounting/reconciliation/{day_with_form.gaming_day}/"
    assert client.post(url, {"action": "reconcile"}).status_code == 403
    assert client.post(url, {"action": "receive", "part": "original",
                             "serial_numbers": str(day_with_form.serial_number)}).status_code == 403


def test_14_19_h_accounting_receives_and_reconciles_by_page(client, staff, day_with_form):
    client.force_login(staff(Role.ACCOUNTING))
    url = f"/accounting/reconciliation/{day_with_form.gaming_day}/"
    bad = client.post(url, {"action": "receive", "part": "original", "serial_numbers": "12 x"})
    assert bad.status_code == 400
    unknown = client.post(url, {"action": "receive", "part": "original", "serial_numbers": "7"})
    assert unknown.status_code == 400 and "No Bad Beat Payout Contribution Form numbered 7" in unknown.content.decode()
    assert client.post(url, {"action": "receive", "part": "duplicate",
                             "serial_numbers": str(day_with_form.serial_number)}).status_code == 302
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert client.post(url, {"action": "reconcile"}).status_code == 302
        page = client.get(url).content.decode()
    assert "Variances" in page and "added to poker revenue" in page


@pytest.mark.proves("14.19(h)-reconcile")
def test_14_19_h_the_days_page_receives_each_part_and_reconciles_once_the_day_has_ended(client, staff, day_with_form):
    """14.19(h) on accounting's page of the day: the form listed with both parts missing; serials that are not numbers,
    or of no form, refused beside the field (400, nothing received); the original received (its message, the redirect
    to the day, the part shown received, the receipt recorded); an action the page does not offer refused (400);
    reconciling refused while the day is open (400, the reason shown, no button offered, nothing recorded); the next
    day the button is there and the day reconciled, with its variance (the duplicate missing) said and shown."""
    from apps.counts.models import FormReceipt, Reconciliation

    clerk = staff(Role.ACCOUNTING)
    client.force_login(clerk)
    day, serial = day_with_form.gaming_day, day_with_form.serial_number
    url = f"/accounting/reconciliation/{day}/"
    page = client.get(url)
    forms = page.content.decode().split('data-testid="forms"')[1].split("</table>")[0]
    assert page.status_code == 200 and f"<td>{serial}</td>" in forms and forms.count("missing") == 2
    assert 'data-testid="reconcile"' not in page.content.decode()
    assert "The gaming day is reconciled once it has ended." in page.content.decode()

    for serials, message in (("12 x", "Serial numbers are whole numbers."), ("7", "No Bad Beat Payout Contribution Form numbered 7")):
        refused = client.post(url, {"action": "receive", "part": "original", "serial_numbers": serials})
        assert refused.status_code == 400 and message in refused.content.decode(), refused.content.decode()
        assert refused.context["form"].errors and not FormReceipt.objects.exists()

    received = client.post(url, {"action": "receive", "part": "original", "serial_numbers": str(serial)})
    assert received.status_code == 302 and received["Location"] == url
    assert [(r.part, r.received_by) for r in FormReceipt.objects.all()] == [("original", clerk)]
    shown = client.get(url)
    assert [str(m) for m in shown.context["messages"]] == ["1 original(s) received."]
    forms = shown.content.decode().split('data-testid="forms"')[1].split("</table>")[0]
    assert forms.count("received") == 1 and forms.count("missing") == 1

    unknown_action = client.post(url, {"action": "delete"})
    assert unknown_action.status_code == 400 and not Reconciliation.objects.exists()
    too_soon = client.post(url, {"action": "reconcile"})
    assert too_soon.status_code == 400 and "A gaming day is reconciled once it has ended." in too_soon.content.decode()
    assert 'data-testid="reconcile-error"' in too_soon.content.decode() and not Reconciliation.objects.exists()
    assert not too_soon.context["form"].is_bound  # the receipt form is not the one posted: no error of its own
    tomorrow = client.get(f"/accounting/reconciliation/{day + timedelta(days=1)}/").content.decode()
    assert 'data-testid="reconcile"' not in tomorrow  # a day to come is not offered either

    with time_machine.travel(timezone.now() + timedelta(days=1)):
        assert 'data-testid="reconcile"' in client.get(url).content.decode()
        for action in ("delete", "withdraw", ""):  # not the page's: refused, the ended day not reconciled by them
            assert client.post(url, {"action": action}).status_code == 400
        assert not Reconciliation.objects.exists()
        done = client.post(url, {"action": "reconcile"})
        assert done.status_code == 302 and done["Location"] == url
        page = client.get(url)
    assert [str(m) for m in page.context["messages"]] == [f"Gaming day {date_format(day)}: variances."]
    status = page.content.decode().split('data-testid="reconciliation-status"')[1].split("</section>")[0]
    assert "Variances" in status and f"Originals without a duplicate</dt><dd>{serial}</dd>" in status
    assert Reconciliation.objects.get().missing_duplicates == [serial]


def test_master_game_report_and_forms_print_as_pdf_and_csv(client, staff, day_with_form):
    client.force_login(staff(Role.ACCOUNTING))
    receive_form_part(casino=day_with_form.casino, serial_number=day_with_form.serial_number, part="original",
                      received_by=staff(Role.ACCOUNTING))
    day = day_with_form.gaming_day
    pdf = client.get(f"/accounting/master-game-report/{day}/report.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf" and pdf.content[:5] == b"%PDF-"
    csv_lines = client.get(f"/accounting/master-game-report/{day}/report.csv").content.decode().splitlines()
    assert csv_lines[0].startswith("gaming_day,table") and csv_lines[-1].split(",")[1] == "total"
    forms_pdf = client.get(f"/accounting/forms/{day}/forms.pdf")
    assert forms_pdf.content[:5] == b"%PDF-"
    forms_csv = client.get(f"/accounting/forms/{day}/forms.csv").content.decode().splitlines()
    assert forms_csv[1].startswith(str(day_with_form.serial_number)) and forms_csv[1].endswith("True,False")


@pytest.mark.proves("14.19(f)3-contents")
def test_count_page_records_a_form_and_refuses_an_ineligible_witness(client, staff, supervisor, day_with_form):
    """14.19(f)3: the form is signed by the dealer and the witness, each with their own password: a witness who may
    not witness, or a wrong password, is refused (400, nothing recorded); signed by both, the count is recorded as
    signed in person."""
    client.force_login(supervisor)
    dealer = staff(Role.DEALER)
    watcher = staff(Role.SURVEILLANCE)
    base = {"table": day_with_form.table_id, "method": "table_inventory", "reason": "daily", "counted_by": dealer.pk,
            "chips_1.00": 2, "counter_password": "pw-for-tests-1", "witness_password": "pw-for-tests-1"}
    counts = BadBeatCount.objects.count()
    refused = client.post("/counts/", {**base, "witness": watcher.pk, "witness_kind": "second_department"})
    assert refused.status_code == 400 and "may not witness" in refused.content.decode()
    unsigned = client.post("/counts/", {**base, "witness": supervisor.pk, "witness_kind": "supervisor",
                                        "surveillance_recorded": "on", "witness_password": "wrong"})
    assert unsigned.status_code == 400 and "the count is not signed" in unsigned.content.decode()
    assert BadBeatCount.objects.count() == counts
    signed = {**base, "witness": supervisor.pk, "witness_kind": "supervisor", "surveillance_recorded": "on"}
    asked = client.post("/counts/", signed)  # $2.00 counted, nothing recorded since the last form: confirm it first
    assert asked.status_code == 400 and "Variance $2.00" in asked.content.decode()
    ok = client.post("/counts/", {**signed, "confirmed_variance": "2.00", "confirm_variance": "on"})
    assert ok.status_code == 302
    assert BadBeatCount.objects.order_by("-pk").first().signed_in_person


@pytest.mark.proves("14.19(d)1-signed", "14.19(f)3-contents")
def test_14_19_d_1_a_counter_s_signature_locks_after_wrong_passwords(client, staff, supervisor, day_with_form):
    """Each wrong counter's password counts toward the dealer's lockout (apps.core.signatures); once locked out, the
    right password signs nothing either, the page stays the count form with the reason beside the field, and no
    count is written."""
    client.force_login(supervisor)
    dealer = staff(Role.DEALER)
    base = {"table": day_with_form.table_id, "method": "table_inventory", "reason": "daily", "counted_by": dealer.pk,
            "chips_1.00": 2, "witness": supervisor.pk, "witness_kind": "supervisor", "surveillance_recorded": "on",
            "counter_password": "guess", "witness_password": "pw-for-tests-1"}
    counts = BadBeatCount.objects.count()
    unsigned = client.post("/counts/", {**base, "counted_by": "", "counter_password": "pw-for-tests-1"})
    assert unsigned.status_code == 400 and 'name="counter_password"' in unsigned.content.decode()  # nobody to sign
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert "This is not" in client.post("/counts/", base).content.decode()
    for password in ("guess", "pw-for-tests-1"):  # the failure that reaches the limit, then the right password
        locked = client.post("/counts/", {**base, "counter_password": password})
        page = locked.content.decode()
        assert locked.status_code == 400 and 'name="counter_password"' in page
        assert f"Signatures of {dealer.username} (or from this terminal) are locked" in page
    assert BadBeatCount.objects.count() == counts


def test_a_dealer_cannot_record_counts_by_api(api, staff, day_with_form):
    api.force_authenticate(staff(Role.DEALER))
    assert api.post("/api/counts/", {}).status_code == 403


def test_14_19_h_the_reconciliation_screen_reads_its_fourteen_days_at_once(client, staff, day_with_form):
    """The forms and parts received of the fourteen days come in one query and one prefetch, not one per day; each
    day shows its forms and the parts received (14.19(h))."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    receive_form_part(casino=day_with_form.casino, serial_number=day_with_form.serial_number, part="original",
                      received_by=staff(Role.ACCOUNTING))
    client.force_login(staff(Role.ACCOUNTING))
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/accounting/reconciliation/")
    assert page.status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    counts = [q for q in sql if 'FROM "counts_badbeatcount"' in q]
    assert len([q for q in counts if '"serial_number" IS NOT NULL' in q]) == 1  # the forms of the fourteen days
    assert len(counts) == 2  # and the chart's counts of its span, in one grouped query (tests/counts/test_charts.py)
    assert len([q for q in sql if 'FROM "counts_formreceipt"' in q]) == 1  # and the parts received of them
    row = next(r for r in page.context["rows"] if r["gaming_day"] == day_with_form.gaming_day)
    assert (row["forms"], row["originals"], row["duplicates"]) == (1, 1, 0)
