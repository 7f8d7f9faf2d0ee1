"""A full gaming day of the bad beat payout in real Chromium (N.J.A.C. 13:69F-14.19): rounds in, contributions,
a claim verified by the supervisor with the engine's verdict, the room's display showing "payout pending" by
itself, the payout delivered by security, accounting's display adjustment, a contribution form, the scheduled
close of the day, accounting's reconciliation and the Master Game Report as PDF."""
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.badbeat.models import Claim, DisplayAdjustment
from apps.badbeat.selectors import payable_amount
from apps.casinos.models import Department, GamingDayClose, LicenseType
from apps.core.roles import Role
from apps.counts.models import BadBeatCount
from apps.counts.services import close_due_gaming_days
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory, RakeStructureFactory, StaffFactory

D = Decimal
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(browser, live_server, username):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw-for-tests-1")
    page.click("button[type=submit]")
    # signed in: wherever the role's first page is (the dashboard, or the role's home page)
    page.wait_for_url(lambda url: url.startswith(live_server.url) and "/accounts/login/" not in url)
    return page


def test_a_gaming_day_of_the_bad_beat_payout_end_to_end(live_server, browser):
    table = RakeStructureFactory(table__number=3).table
    casino = table.casino
    jackpot = JackpotFactory(casino=casino, minimum_players_dealt=4, both_hole_cards_must_play=True,
                             reset_percentage=D("10"), minimum_pot=D("20"))
    for username, role, extra in (("sup", Role.POKER_SHIFT_SUPERVISOR, {}), ("dealer", Role.DEALER, {}),
                                  ("guard", Role.SECURITY, {"department": Department.SECURITY}),
                                  ("clerk", Role.ACCOUNTING, {"department": Department.ACCOUNTING,
                                                              "license_type": LicenseType.CASINO_KEY_EMPLOYEE}),
                                  ("eye", Role.SURVEILLANCE, {"department": Department.SURVEILLANCE})):
        StaffFactory(username=username, casino=casino, roles=[role], **extra)
    PokerTableFactory(casino=casino, number=4, bad_beat_participation=False)
    # Rounds in: nine pots of $40 contribute $1 each; then four nines lose to a straight flush, four dealt in.
    for _ in range(9):
        record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
            PlayerIn(seat=1, contributed=D("20"), hole_cards="As Ac"), PlayerIn(seat=2, contributed=D("20"), hole_cards="Qh Qd")]))
    bad_beat = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, name="Ana", contributed=D("200"), hole_cards="9s 9c"),
        PlayerIn(seat=4, name="Dee", contributed=D("200"), hole_cards="5s 4s"),
        PlayerIn(seat=6, name="Fay", contributed=D("2"), hole_cards="Kd 2c", folded=True),
        PlayerIn(seat=8, name="Hal", contributed=D("2"), hole_cards="Qc Jd", folded=True)]))
    claim = Claim.objects.get(round_of_play=bad_beat)

    # The room's screen, logged in as surveillance (read-only), stays open all along.
    screen = log_in(browser, live_server, "eye")
    screen.goto(f"{live_server.url}/jackpot/display/")
    assert screen.inner_text(f"[data-testid=amount-{jackpot.pk}]") == "$0.00"
    assert screen.locator("[data-testid=pending]").count() == 0

    # Accounting's morning adjustment, a supervisor present; both sign with their own passwords (14.19(k)).
    clerk = log_in(browser, live_server, "clerk")
    clerk.goto(f"{live_server.url}/jackpot/display/adjust/")

    def adjust(amount, *, supervisor_password="pw-for-tests-1", reason=None):
        clerk.select_option("#id_jackpot", str(jackpot.pk))
        clerk.fill("#id_displayed_amount", amount)
        if reason:
            clerk.select_option("#id_reason", reason)
        clerk.fill("#id_accounting_password", "pw-for-tests-1")
        clerk.select_option("#id_supervisor_present", label="sup")
        clerk.fill("#id_supervisor_password", supervisor_password)
        clerk.click("[data-testid=adjust-form] button[type=submit]")

    jackpot.refresh_from_db()
    assert (jackpot.balance, jackpot.reset_reserve) == (D("9.00"), D("1.00"))  # 10 % of the day funds the reset
    adjust(f"{jackpot.balance:.2f}", supervisor_password="not-sups-password")  # not signed by the supervisor
    clerk.wait_for_selector("[data-testid=adjust-errors] >> text=This is not sup's password")
    assert not DisplayAdjustment.objects.exists()
    adjust("10.00")  # what the contributions add to, not accounting's record: refused
    clerk.wait_for_selector("text=The display must show accounting's record, $9.00")
    adjust(f"{jackpot.balance:.2f}")
    clerk.wait_for_selector("text=Display adjusted")
    assert DisplayAdjustment.objects.get().supervisor_present.username == "sup"
    screen.wait_for_function(f"() => document.querySelector('[data-testid=amount-{jackpot.pk}]').innerText === '${jackpot.balance:.2f}'")

    # The supervisor reviews the claim: the engine's verdict, then verifies (14.19(i)).
    sup = log_in(browser, live_server, "sup")
    sup.goto(f"{live_server.url}/jackpot/claims/")
    sup.click(f"text=#{bad_beat.pk}")
    verdict = sup.inner_text("[data-testid=verdict]")
    assert "qualifies" in verdict and "Four of a kind" in verdict and "Straight flush" in verdict
    assert "4 dealt in; at least 4 required" in verdict and "2 hole cards played (9s 9c)" in verdict
    # Before verifying: the amount it freezes and each player's share; nothing is verified until confirmed.
    jackpot.refresh_from_db()
    to_pay = payable_amount(jackpot=jackpot)
    assert sup.inner_text("[data-testid=verify-amount]") == f"${to_pay:.2f}"
    shares = sup.inner_text("[data-testid=verify-shares]")
    assert "Ana" in shares and "Losing player" in shares and "Dee" in shares and "Winning player" in shares
    assert "danger" in sup.get_attribute("[data-testid=reject]", "class")
    sup.click("[data-testid=verify]")  # unconfirmed: the browser keeps the form
    assert sup.evaluate("() => document.querySelector('[data-testid=verify-confirm]').validity.valueMissing")
    claim.refresh_from_db()
    assert claim.status == "pending"
    sup.check("[data-testid=verify-confirm]")
    sup.click("[data-testid=verify]")
    sup.wait_for_selector("[data-testid=shares]")
    assert sup.inner_text("[data-testid=claim-status]") == "Verified — payout pending"
    claim.refresh_from_db()
    assert claim.payout_amount == to_pay  # what was shown
    # The display picks the pending payout up by itself (htmx, every 2 s; 14.19(i)1).
    screen.wait_for_selector("[data-testid=pending]", timeout=6000)

    # Security delivers and records the payout (14.19(i)2, (j)).
    guard = log_in(browser, live_server, "guard")
    guard.goto(f"{live_server.url}/jackpot/claims/{claim.pk}/")
    guard.select_option("#id_method", "chips")
    guard.select_option("#id_location", "table")
    guard.select_option("#id_delivered_by", label="guard")
    assert guard.inner_text("[data-testid=payout-amount]") == f"${to_pay:.2f}"
    guard.check("[data-testid=payout-confirm]")
    guard.click("[data-testid=payout-form] button[type=submit]")
    guard.wait_for_selector("[data-testid=payout]")
    assert "delivered by guard" in guard.inner_text("[data-testid=payout]")

    # Accounting adjusts the display down to the new amount: allowed, a payout was made (14.19(o)).
    jackpot.refresh_from_db()
    clerk.goto(f"{live_server.url}/jackpot/display/adjust/")
    adjust(f"{jackpot.balance:.2f}", reason="after_payout")
    clerk.wait_for_selector("text=Display adjusted")
    screen.wait_for_function(f"() => document.querySelector('[data-testid=amount-{jackpot.pk}]').innerText === '${jackpot.balance:.2f}'")
    assert screen.locator("[data-testid=pending]").count() == 0

    # The supervisor records the table's contribution form: the chips are returned to the table inventory.
    sup.goto(f"{live_server.url}/counts/")
    sup.select_option("#id_table", str(table.pk))
    sup.select_option("#id_method", "table_inventory")
    sup.select_option("#id_counted_by", label="dealer")
    sup.select_option("#id_witness", label="sup")
    sup.select_option("#id_witness_kind", "supervisor")
    sup.check("#id_surveillance_recorded")
    sup.fill("[name='chips_5.00']", "2")
    sup.fill("#id_counter_password", "pw-for-tests-1")
    sup.fill("#id_witness_password", "pw-for-tests-1")
    sup.click("[data-testid=count-form] button[type=submit]")
    sup.wait_for_selector("text=variance $0.00")
    form = BadBeatCount.objects.get(table=table)

    # The next morning: the scheduled job closes the day; accounting reconciles the forms (14.19(h)).
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        close_due_gaming_days()
        assert GamingDayClose.objects.get(casino=casino, gaming_day=form.gaming_day).summary["uncounted_tables"] == []
        clerk.goto(f"{live_server.url}/accounting/reconciliation/")
        clerk.click(f"text={form.gaming_day:%a %b} {form.gaming_day.day}, {form.gaming_day.year}")
        clerk.select_option("#id_part", "duplicate")
        clerk.fill("#id_serial_numbers", str(form.serial_number))
        clerk.click("[data-testid=receive-form] button[type=submit]")
        clerk.wait_for_selector("text=1 duplicate(s) received")
        clerk.click("[data-testid=reconcile]")
        clerk.wait_for_selector("[data-testid=reconciliation-status] >> text=Variances")
        assert "$10.00 added to poker revenue" in clerk.inner_text("[data-testid=reconciliation-status]")
        clerk.select_option("#id_part", "original")
        clerk.fill("#id_serial_numbers", str(form.serial_number))
        clerk.click("[data-testid=receive-form] button[type=submit]")
        clerk.click("[data-testid=reconcile]")
        clerk.wait_for_selector("[data-testid=reconciliation-status] >> text=Reconciled")
        clerk.click("text=Master Game Report")
        clerk.wait_for_selector("[data-testid=mgr]")
        rake = sum(r.amount for r in table.rake_records.all())
        assert clerk.inner_text("[data-testid=mgr-revenue]") == f"${rake + D('10.00'):.2f}"
        pdf = clerk.request.get(f"{live_server.url}/accounting/master-game-report/{form.gaming_day}/report.pdf")
        assert pdf.ok and pdf.body()[:5] == b"%PDF-"
    for page in (screen, clerk, sup, guard):
        page.context.close()
