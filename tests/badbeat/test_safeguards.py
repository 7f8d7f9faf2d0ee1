"""Safeguards where money moves, on the pages (N.J.A.C. 13:69F-14.19(i), (j), (k)): verifying, rejecting or paying a
bad beat claim shows the amount and each player's share first and is written only with an explicit confirmation (a
rejection with its reason, as a danger action); a display adjustment is signed in person by the accounting
representative and the poker supervisor present, each with their own password; the claim's history is read-only."""
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from apps.badbeat.models import (
    Claim,
    ClaimShare,
    ClaimStatus,
    DisplayAdjustment,
    Jackpot,
    JackpotStatus,
    Payout,
    PayoutNotification,
)
from apps.badbeat.previews import PayoutPreview, PreviewShare
from apps.badbeat.selectors import payable_amount
from apps.badbeat.services import verify_claim
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory
from tests.multicasino.test_claims import host_system  # noqa: F401 (a fixture)

D = Decimal
pytestmark = pytest.mark.django_db
PASSWORD = "pw-for-tests-1"  # StaffFactory's


def play(table, *, board, hands, folded=(2, 3), names=("Ann", "Ben", "Cy", "Di")):
    """A round at `table`: seats 1..n with `hands`; the seats at the indexes in `folded` fold after putting in $1."""
    players = [PlayerIn(seat=i + 1, name=names[i], hole_cards=h, folded=i in folded,
                        contributed=D("1.00") if i in folded else D("10.00")) for i, h in enumerate(hands)]
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board=board, players=players))


def fund(table, rounds=1):
    for _ in range(rounds):
        play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])


@pytest.fixture
def table(casino):
    return PokerTableFactory(casino=casino)


@pytest.fixture
def claim(casino, table):
    """A pending claim: four nines beaten by a straight flush, four dealt in, on a jackpot of $11.00 (ten $1
    contributions and the bad beat round's own), shared 50/25/25: $5.51, $2.75 and $1.37 twice."""
    JackpotFactory(casino=casino, minimum_players_dealt=4, both_hole_cards_must_play=True, balance=D("0.00"),
                   minimum_pot=D("0"))
    fund(table, rounds=10)
    round_of_play = play(table, board="9h 9d 6s 7s 8s", hands=["9s 9c", "5s 4s", "Ac Kd", "2c 3d"])
    return Claim.objects.get(round_of_play=round_of_play)


SHARES = {1: ("losing", D("5.51")), 2: ("winning", D("2.75")), 3: ("table", D("1.37")), 4: ("table", D("1.37"))}


def url(claim):
    return f"/jackpot/claims/{claim.pk}/"


def form_html(page: str, testid: str) -> str:
    """The HTML of the form marked data-testid=`testid` on `page`."""
    start = page.index(f'data-testid="{testid}"')
    return page[start:page.index("</form>", start)]


def fingerprint(page: str, testid: str) -> str:
    """The fingerprint of the figures a form shows, which it posts back with the confirmation."""
    return re.search(r'name="checked" value="([0-9a-f]+)"', form_html(page, testid)).group(1)


def nothing_written(claim, *, status=ClaimStatus.PENDING):
    claim.refresh_from_db()
    assert claim.status == status
    if status == ClaimStatus.PENDING:
        assert (claim.decided_by, claim.payout_amount, claim.decision_note) == (None, None, "")
        assert not ClaimShare.objects.filter(claim=claim).exists()
        assert not PayoutNotification.objects.filter(claim=claim).exists()
        assert Jackpot.objects.get(pk=claim.jackpot_id).status == JackpotStatus.ACTIVE
    assert not Payout.objects.filter(claim=claim).exists()


# --- verifying (14.19(i)) ---------------------------------------------------------------------------------------------

def test_14_19_i_the_page_shows_the_amount_and_the_shares_before_verifying(client, supervisor, claim):
    client.force_login(supervisor)
    page = client.get(url(claim)).content.decode()
    verify = form_html(page, "verify-form")
    assert payable_amount(jackpot=claim.jackpot) == D("11.00")
    assert 'data-testid="verify-amount">$11.00<' in verify
    shown = re.findall(r"<tr><td>(\d+)</td><td>(\w+)</td><td>([^<]+)</td><td class=\"num\">\$([\d.,]+)</td></tr>",
                       verify)
    assert shown == [("1", "Ann", "Losing player", "5.51"), ("2", "Ben", "Winning player", "2.75"),
                     ("3", "Cy", "Other player dealt in", "1.37"), ("4", "Di", "Other player dealt in", "1.37")]
    assert 'name="confirm"' in verify and "required" in verify and "I have checked the amount" in verify
    nothing_written(claim)  # reading the page writes nothing


def test_14_19_i_verify_without_the_confirmation_writes_nothing_and_says_why_beside_the_box(client, supervisor, claim):
    client.force_login(supervisor)
    checked = fingerprint(client.get(url(claim)).content.decode(), "verify-form")
    response = client.post(url(claim), {"action": "verify", "checked": checked})
    assert response.status_code == 400
    verify = form_html(response.content.decode(), "verify-form")
    box = verify[verify.index('class="confirm-box has-error"'):]
    assert "Tick this box once you have checked the amount and the shares" in box  # beside the box
    assert 'data-testid="verify-errors"' in verify and "Nothing was written" in verify  # and summed up at the top
    nothing_written(claim)


def test_14_19_i_verify_with_the_confirmation_pays_what_was_shown(client, supervisor, claim):
    client.force_login(supervisor)
    page = client.get(url(claim)).content.decode()
    assert 'data-testid="verify-amount">$11.00<' in page
    response = client.post(url(claim), {"action": "verify", "confirm": "on",
                                         "checked": fingerprint(page, "verify-form")})
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.VERIFIED and claim.decided_by == supervisor
    assert claim.payout_amount == D("11.00")
    assert {s.seat: (s.role, s.amount) for s in claim.shares.all()} == SHARES
    assert PayoutNotification.objects.filter(claim=claim).count() == 1


def test_14_19_i_a_confirmation_of_amounts_that_changed_writes_nothing_and_shows_the_new_ones(client, supervisor,
                                                                                              claim, table):
    client.force_login(supervisor)
    stale = fingerprint(client.get(url(claim)).content.decode(), "verify-form")
    fund(table)  # a pot elsewhere in the room adds $1.00 meanwhile
    response = client.post(url(claim), {"action": "verify", "confirm": "on", "checked": stale})
    assert response.status_code == 400
    page = response.content.decode()
    verify = form_html(page, "verify-form")
    assert "The amounts changed since the page was shown: nothing was written" in verify
    assert 'data-testid="verify-amount">$12.00<' in verify and 'checked"' not in verify.split('name="confirm"')[1][:60]
    nothing_written(claim)
    again = client.post(url(claim), {"action": "verify", "confirm": "on", "checked": fingerprint(page, "verify-form")})
    assert again.status_code == 302
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.VERIFIED and claim.payout_amount == D("12.00")


def test_14_19_i_what_is_written_is_checked_against_what_was_confirmed_in_the_same_transaction(
        client, supervisor, claim, monkeypatch):
    """Should the amount change between the check before the service and the service's own lock, the figures written
    are compared with the confirmed ones and the verification is rolled back (no shares, no notice, no status)."""
    client.force_login(supervisor)
    other = PayoutPreview(amount=D("10.00"), shares=(PreviewShare(seat=1, player="Ann", role="losing",
                                                                   amount=D("10.00")),))
    monkeypatch.setattr("apps.badbeat.views.verification_preview", lambda claim: other)
    response = client.post(url(claim), {"action": "verify", "confirm": "on", "checked": other.fingerprint})
    assert response.status_code == 400
    assert "The amounts changed since the page was shown" in response.content.decode()
    nothing_written(claim)


def test_14_19_i_a_tampered_or_missing_fingerprint_is_refused(client, supervisor, claim):
    client.force_login(supervisor)
    for checked in ("", "0" * 24, "x" * 64):
        response = client.post(url(claim), {"action": "verify", "confirm": "on", "checked": checked})
        assert response.status_code == 400 and "The amounts changed" in response.content.decode()
    assert client.post(url(claim), {"action": "verify", "confirm": "on", "checked": "x" * 65}).status_code == 400
    nothing_written(claim)


def test_14_19_i_a_hand_that_does_not_qualify_shows_no_amount_and_is_not_verified(client, supervisor, casino, table,
                                                                                   claim):
    from apps.badbeat.services import open_claim
    no_bad_beat = play(table, board="2h 7d 9c Js Kd", hands=["As Ac", "Qh Qd", "3s 4s", "5c 6c"])
    other = open_claim(jackpot=claim.jackpot, round_of_play=no_bad_beat, opened_by=supervisor)
    client.force_login(supervisor)
    page = client.get(url(other)).content.decode()
    assert "does not qualify: verifying is refused and nothing is paid" in page and "verify-amount\"" not in page
    response = client.post(url(other), {"action": "verify", "confirm": "on",
                                        "checked": fingerprint(page, "verify-form")})
    assert response.status_code == 400 and "The hand does not qualify" in response.content.decode()
    nothing_written(other)


# --- rejecting (14.19(i)) ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("note", ["", "   "])
def test_14_19_i_reject_without_a_reason_is_refused_beside_the_field(client, supervisor, claim, note):
    client.force_login(supervisor)
    response = client.post(url(claim), {"action": "reject", "note": note, "confirm": "on"})
    assert response.status_code == 400
    reject = form_html(response.content.decode(), "reject-form")
    field = reject[reject.index('id="reject-note"'):]
    assert field.index("Say why the claim is rejected") < field.index('class="confirm-box')  # beside the reason
    assert 'href="#reject-note"' in reject  # the summary at the top links to it
    nothing_written(claim)


def test_14_19_i_reject_without_the_confirmation_writes_nothing(client, supervisor, claim):
    client.force_login(supervisor)
    response = client.post(url(claim), {"action": "reject", "note": "Only one hole card played."})
    assert response.status_code == 400
    assert "Tick this box to confirm the rejection" in form_html(response.content.decode(), "reject-form")
    nothing_written(claim)


def test_14_19_i_reject_with_a_reason_and_the_confirmation(client, supervisor, claim):
    client.force_login(supervisor)
    response = client.post(url(claim), {"action": "reject", "note": "  Cards misread by the dealer.  ",
                                        "confirm": "on"})
    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REJECTED and claim.decision_note == "Cards misread by the dealer."
    assert claim.decided_by == supervisor and not claim.shares.exists()
    assert "Cards misread by the dealer." in client.get(url(claim)).content.decode()


def test_14_19_i_reject_is_styled_as_a_danger_action_unlike_verify(client, supervisor, claim):
    client.force_login(supervisor)
    page = client.get(url(claim)).content.decode()
    reject_button = re.search(r'<button[^>]*data-testid="reject"[^>]*>', page).group(0)
    verify_button = re.search(r'<button[^>]*data-testid="verify"[^>]*>', page).group(0)
    assert 'class="danger"' in reject_button and "danger" not in verify_button
    assert 'class="decision danger-zone"' in page.split('data-testid="reject-form"')[0].rsplit("<form", 1)[1]
    css = (Path(settings.BASE_DIR) / "static/css/app.css").read_text()
    rule = re.search(r"\.card button\.danger, button\.danger \{([^}]*)\}", css).group(1)
    assert "background: var(--bad)" in rule  # red, where .card button (verify) is the felt green
    assert "style=" not in page and "<style" not in page  # classes only (Content-Security-Policy)


# --- who may and who may not --------------------------------------------------------------------------------------------

def confirmed(client, claim, action, **data):
    page = client.get(url(claim)).content.decode()
    testid = {"verify": "verify-form", "payout": "payout-form"}.get(action)
    checked = fingerprint(page, testid) if testid and f'data-testid="{testid}"' in page else "0" * 24
    return {"action": action, "confirm": "on", "checked": checked, **data}


@pytest.mark.parametrize("role", [r for r in Role if r != Role.POKER_SHIFT_SUPERVISOR])
def test_14_19_i_only_a_supervisor_verifies_or_rejects_on_the_page(client, staff, claim, role):
    user = staff(role)
    client.force_login(user)
    page = client.get(url(claim)).content.decode()
    assert 'data-testid="verify-form"' not in page and "verify-amount" not in page  # no amounts before the decision
    assert client.post(url(claim), confirmed(client, claim, "verify")).status_code == 403
    assert client.post(url(claim), confirmed(client, claim, "reject", note="No.")).status_code == 403
    nothing_written(claim)


def test_a_supervisor_of_another_casino_finds_no_claim(client, claim):
    client.force_login(StaffFactory(casino=CasinoFactory(), roles=[Role.POKER_SHIFT_SUPERVISOR]))
    assert client.get(url(claim)).status_code == 404
    assert client.post(url(claim), {"action": "verify", "confirm": "on"}).status_code == 404
    nothing_written(claim)


# --- paying (14.19(i)2, (j)) ----------------------------------------------------------------------------------------

@pytest.fixture
def verified(claim, supervisor):
    return verify_claim(claim=claim, supervisor=supervisor)


@pytest.mark.parametrize("role", [Role.SECURITY, Role.ACCOUNTING])
def test_14_19_j_the_payout_form_shows_the_amount_and_shares_and_needs_the_confirmation(client, staff, verified,
                                                                                        role):
    guard = staff(role)
    client.force_login(guard)
    page = client.get(url(verified)).content.decode()
    payout = form_html(page, "payout-form")
    assert 'data-testid="payout-amount">$11.00<' in payout and "Ann" in payout and "$5.51" in payout
    data = {"action": "payout", "method": "chips", "location": "table", "delivered_by": guard.pk,
            "checked": fingerprint(page, "payout-form")}
    refused = client.post(url(verified), data)
    assert refused.status_code == 400
    assert "Tick this box once you have checked the amount and the shares: the payout was not recorded" in \
        form_html(refused.content.decode(), "payout-form")
    nothing_written(verified, status=ClaimStatus.VERIFIED)
    stale = client.post(url(verified), data | {"confirm": "on", "checked": "0" * 24})
    assert stale.status_code == 400
    assert "The amounts changed since the page was shown" in form_html(stale.content.decode(), "payout-form")
    nothing_written(verified, status=ClaimStatus.VERIFIED)
    assert client.post(url(verified), data | {"confirm": "on"}).status_code == 302
    verified.refresh_from_db()
    assert verified.status == ClaimStatus.PAID and verified.payout.amount == D("11.00")
    assert verified.payout.delivered_by == guard and verified.payout.recorded_by == guard


@pytest.mark.parametrize("role", [r for r in Role if r not in (Role.SECURITY, Role.ACCOUNTING)])
@pytest.mark.proves("14.19(i)2")
def test_14_19_i_2_only_security_or_accounting_records_the_payout(client, staff, verified, role):
    client.force_login(staff(role))
    assert "payout-form" not in client.get(url(verified)).content.decode()
    data = {"action": "payout", "method": "cash", "location": "table", "confirm": "on",
            "delivered_by": staff(Role.SECURITY).pk, "checked": "0" * 24}
    assert client.post(url(verified), data).status_code == 403
    nothing_written(verified, status=ClaimStatus.VERIFIED)


@pytest.mark.proves("14.19(m)2-signage", "14.19(m)2-deducted")
def test_14_19_m_2_a_secondary_funded_from_the_primary_shows_its_portion_and_where_it_is_deducted(
        client, casino, table, supervisor, staff):
    from apps.badbeat.models import Funding, QualifyingHand
    from apps.badbeat.services import create_secondary_jackpot
    primary = JackpotFactory(casino=casino, qualifying_hand=QualifyingHand.STRAIGHT_FLUSH, minimum_pot=D("0"),
                             minimum_players_dealt=4, name="Big one")
    create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FOUR_OF_A_KIND,
                             funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))
    fund(table, rounds=20)
    client.force_login(supervisor)
    secondary = Jackpot.objects.get(name="Mini")
    screen = client.get("/jackpot/display/").content.decode()
    assert re.search(rf'data-testid="funding-{secondary.pk}">Funded from the Big one and deducted from it if won',
                     screen)  # the display's signage
    assert f'data-testid="funding-{primary.pk}"' not in screen and screen.count("Funded from") == 1
    # a multi-casino system's panel carries no payout of this casino, and no such signage
    from apps.badbeat.display import Panel, shown_amount
    assert Panel(amount=shown_amount(D("5.40")), system={"pending": False}).funding == ""
    claim = Claim.objects.get(round_of_play=play(table, board="9h 9d 6s 7s 8s",
                                                 hands=["9s 9c", "5s 4s", "Ac Kd", "2c 3d"]))
    page = client.get(url(claim)).content.decode()
    assert 'data-testid="verify-amount">$2.10<' in page and "paid from Big one" in page  # 10 % of $21.00
    assert client.post(url(claim), confirmed(client, claim, "verify")).status_code == 302
    guard = staff(Role.ACCOUNTING)
    client.force_login(guard)
    payout = form_html(client.get(url(claim)).content.decode(), "payout-form")
    assert 'data-testid="payout-amount">$2.10<' in payout and "deducted from Big one" in payout
    paid = client.post(url(claim), confirmed(client, claim, "payout", method="cash", location="cage",
                                             delivered_by=guard.pk))
    assert paid.status_code == 302
    primary.refresh_from_db()
    assert primary.balance == D("18.90")


def test_14_20_e_4_a_multi_casino_claim_at_the_host_is_confirmed_without_an_amount_then_paid_as_shown(
        client, host_system, casino, supervisor, staff):  # noqa: F811 (the fixture imported above)
    """The host of the multi-casino system freezes the amount (here at once, this casino being the host): the
    supervisor confirms the hand without an amount; the payout form then shows the frozen amount and its shares,
    written as shown when the delivery is confirmed."""
    import time_machine

    from tests.multicasino.test_claims import T0, apply_heartbeat, qualifying_claim
    system, me, a, b = host_system
    with time_machine.travel(T0, tick=False):
        for peer in (a, b):
            apply_heartbeat(peer=peer, body={"rules_hash": system.rules_hash}, now=T0)
        claim = qualifying_claim(casino)
        client.force_login(supervisor)
        page = client.get(url(claim)).content.decode()
        assert "freezes the amount once this casino verifies" in page and "verify-amount\"" not in page
        assert client.post(url(claim), confirmed(client, claim, "verify")).status_code == 302
        claim.refresh_from_db()
        system.refresh_from_db()
        assert claim.status == ClaimStatus.VERIFIED and claim.payout_amount == D("9001.00")
        guard = staff(Role.SECURITY)
        client.force_login(guard)
        payout = form_html(client.get(url(claim)).content.decode(), "payout-form")
        assert 'data-testid="payout-amount">$9,001.00<' in payout and "the multi-casino system&#x27;s pool" in payout
        shown = re.findall(r'<td class="num">\$([\d.,]+)</td></tr>', payout)
        assert client.post(url(claim), confirmed(client, claim, "payout", method="chips", location="cage",
                                                 delivered_by=guard.pk)).status_code == 302
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PAID
    assert [f"{s.amount:,.2f}" for s in claim.shares.order_by("seat")] == shown


# --- the display adjustment, signed by both (14.19(k)) ------------------------------------------------------------

@pytest.fixture
def clerk(staff):
    return staff(Role.ACCOUNTING)


def adjustment(claim, supervisor, **overrides):
    return {"jackpot": claim.jackpot_id, "displayed_amount": f"{payable_amount(jackpot=claim.jackpot):.2f}",
            "reason": "daily", "accounting_password": PASSWORD, "supervisor_present": supervisor.pk,
            "supervisor_password": PASSWORD, **overrides}


def test_14_19_k_the_form_asks_both_signatures(client, clerk):
    client.force_login(clerk)
    form = form_html(client.get("/jackpot/display/adjust/").content.decode(), "adjust-form")
    assert 'name="accounting_password"' in form and 'name="supervisor_password"' in form
    assert form.count('type="password"') == 2


def test_14_19_k_a_wrong_supervisor_password_writes_nothing(client, clerk, supervisor, claim):
    client.force_login(clerk)
    response = client.post("/jackpot/display/adjust/", adjustment(claim, supervisor, supervisor_password="guess"))
    assert response.status_code == 400
    form = form_html(response.content.decode(), "adjust-form")
    field = form[form.index('id="id_supervisor_password"'):]
    assert f"This is not {supervisor.username}&#x27;s password: the adjustment is not signed." in field
    assert 'href="#id_supervisor_password"' in form  # summed up at the top
    assert "guess" not in form  # a password is never shown back
    assert not DisplayAdjustment.objects.exists()
    assert Jackpot.objects.get(pk=claim.jackpot_id).displayed_amount == D("0.00")


def test_14_19_k_a_wrong_own_password_writes_nothing(client, clerk, supervisor, claim):
    client.force_login(clerk)
    response = client.post("/jackpot/display/adjust/", adjustment(claim, supervisor, accounting_password="guess"))
    assert response.status_code == 400
    field = response.content.decode().split('id="id_accounting_password"')[1]
    assert field.index("This is not your password: the adjustment is not signed.") < field.index(
        'id="id_supervisor_present"')
    assert not DisplayAdjustment.objects.exists()


def test_14_19_k_the_signatures_are_required_beside_their_fields(client, clerk, supervisor, claim):
    client.force_login(clerk)
    response = client.post("/jackpot/display/adjust/",
                           adjustment(claim, supervisor, accounting_password="", supervisor_password=""))
    assert response.status_code == 400
    form = form_html(response.content.decode(), "adjust-form")
    assert 'href="#id_accounting_password"' in form and 'href="#id_supervisor_password"' in form
    assert not DisplayAdjustment.objects.exists()


@pytest.mark.proves("14.19(k)1")
def test_14_19_k_the_supervisor_signs_as_a_poker_supervisor_not_as_anyone_else(client, clerk, staff, claim):
    """Someone else's own right password does not make them the poker supervisor present; nor does the clerk's."""
    client.force_login(clerk)
    for other in (staff(Role.FLOORPERSON), clerk):
        response = client.post("/jackpot/display/adjust/", adjustment(claim, other))
        assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert not DisplayAdjustment.objects.exists()


@pytest.mark.proves("14.19(k)1", "14.19(k)2")
def test_14_19_k_with_both_signatures_it_is_recorded_with_both_people(client, clerk, supervisor, claim):
    client.force_login(clerk)
    response = client.post("/jackpot/display/adjust/", adjustment(claim, supervisor))
    assert response.status_code == 302
    adjusted = DisplayAdjustment.objects.get()
    assert (adjusted.adjusted_by, adjusted.supervisor_present) == (clerk, supervisor)
    assert adjusted.displayed_amount == adjusted.accounting_amount == D("11.00")
    assert Jackpot.objects.get(pk=claim.jackpot_id).displayed_amount == D("11.00")


@pytest.mark.parametrize("role", [r for r in Role if r != Role.ACCOUNTING])
def test_14_19_k_only_accounting_adjusts_by_page(client, staff, supervisor, claim, role):
    user = staff(role)
    user.set_password(PASSWORD)
    user.save()
    client.force_login(user)
    assert client.post("/jackpot/display/adjust/", adjustment(claim, supervisor)).status_code == 403
    assert not DisplayAdjustment.objects.exists()


# --- the claim's history (read-only) ---------------------------------------------------------------------------------

def test_14_19_i_the_history_tab_shows_who_changed_what_from_what_to_what(client, supervisor, staff, claim):
    client.force_login(supervisor)
    client.post(url(claim), confirmed(client, claim, "verify"))
    guard = staff(Role.SECURITY)
    client.force_login(guard)
    client.post(url(claim), confirmed(client, claim, "payout", method="cash", location="cage", delivered_by=guard.pk))
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PAID
    for reader in (supervisor, staff(Role.SURVEILLANCE)):
        client.force_login(reader)
        response = client.get(f"{url(claim)}?tab=history")
        assert response.status_code == 200
        page = response.content.decode()
        history = page[page.index('data-testid="history"'):]
        rows = history.split("<tr>")[2:]
        # newest first: the opening, by the engine, is the last row
        assert "<td>Opened</td>" in rows[-1] and "the system" in rows[-1]
        verified = next(r for r in rows if "→ Verified — payout pending" in r)
        assert supervisor.username in verified
        assert "Pending supervisor verification → Verified — payout pending" in verified
        assert "<strong>Payout amount</strong>: — → $11.00" in verified
        paid = next(r for r in rows if "→ Paid" in r)
        assert guard.username in paid and "Verified — payout pending → Paid" in paid
        assert "<form" not in history and 'data-testid="verify-form"' not in page  # read-only


def test_14_19_k_1_wrong_supervisor_passwords_lock_the_signature_as_a_sign_in(client, clerk, supervisor, claim):
    """A signature is a sign-in (apps.core.signatures): after AXES_FAILURE_LIMIT wrong passwords for the supervisor,
    the right one is refused too, beside its field, on the form's page (not the lockout page); nothing is written,
    and the supervisor's own sign-in is locked out as after wrong sign-ins."""
    client.force_login(clerk)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = client.post("/jackpot/display/adjust/", adjustment(claim, supervisor, supervisor_password="guess"))
        assert wrong.status_code == 400 and "the adjustment is not signed" in wrong.content.decode()
    for password in ("guess", PASSWORD):  # the failure that reaches the limit, then the right password
        response = client.post("/jackpot/display/adjust/", adjustment(claim, supervisor, supervisor_password=password))
        assert response.status_code == 400
        field = form_html(response.content.decode(), "adjust-form").split('id="id_supervisor_password"')[1]
        assert f"Signatures of {supervisor.username} (or from this terminal) are locked" in field
    assert not DisplayAdjustment.objects.exists()
    sign_in = client.post("/accounts/login/", {"username": supervisor.username, "password": PASSWORD})
    assert sign_in.status_code == 429
