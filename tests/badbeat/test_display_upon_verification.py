"""Accounting adjusts and verifies the displays immediately upon a poker shift supervisor's verification of a bad beat
(N.J.A.C. 13:69F-14.19(k), requirement 14.19(k)-upon-verification): the verification's notice asks for it, the floor,
the claims' notices and accounting's display adjustment page ask for it until accounting has adjusted each display
the payout moves (its own; for a secondary funded from the primary, the primary's too) in a poker supervisor's
presence after the verification — an adjustment before the verification does not answer it — and the gaming day's
close names a bad beat verified that day whose display was not adjusted since, and is not in order.

The clock is frozen (14:00 on Wednesday 12 March 2025 in Atlantic City) and moved by hand, so that "before" and
"after" the verification are minutes apart."""
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone

from apps.badbeat.models import (
    Claim,
    ClaimStatus,
    DisplayAdjustment,
    DisplayReason,
    Funding,
    PayoutNotification,
    QualifyingHand,
)
from apps.badbeat.selectors import displays_to_adjust_upon_verification, payable_amount
from apps.badbeat.services import (
    adjust_display,
    create_secondary_jackpot,
    record_payout,
    reject_claim,
    verify_claim,
)
from apps.casinos.selectors import current_gaming_day
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.counts.models import CountMethod, WitnessKind
from apps.counts.services import close_gaming_day, record_count
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.floor.selectors import floor_summary
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
NEW_YORK = ZoneInfo("America/New_York")
DAY = date(2025, 3, 12)
PAGE = "/jackpot/display/adjust/"
#: Both sign the page's adjustment in person, each with their own password (tests.factories.StaffFactory's).
SIGNED = {"accounting_password": "pw-for-tests-1", "supervisor_password": "pw-for-tests-1"}
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock():
    """14:00 local on gaming day 2025-03-12 (it starts at 06:00), frozen; `clock.shift(...)` moves it."""
    with time_machine.travel(datetime(2025, 3, 12, 14, 0, tzinfo=NEW_YORK), tick=False) as traveller:
        yield traveller


def bad_beat(table):
    """Quads (nines) beaten by a straight flush, heads-up, $50 each: $1 to the jackpot's fund, a claim opened."""
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, name="Ana", contributed=D("50"), hole_cards="9s 9c"),
        PlayerIn(seat=2, name="Dee", contributed=D("50"), hole_cards="5s 4s")]))


def plain_round(table):
    return record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="2h 7d 9c Js Kd", players=[
        PlayerIn(seat=1, name="Ana", contributed=D("50"), hole_cards="As Ac"),
        PlayerIn(seat=2, name="Dee", contributed=D("50"), hole_cards="Qh Qd")]))


def adjust(jackpot, *, clerk, supervisor, reason=DisplayReason.DAILY):
    """Accounting sets `jackpot`'s display to its record in `supervisor`'s presence."""
    jackpot.refresh_from_db()
    return adjust_display(jackpot=jackpot, displayed_amount=payable_amount(jackpot=jackpot), adjusted_by=clerk,
                          supervisor_present=supervisor, reason=reason)


def awaited(casino) -> list[tuple[int, int]]:
    """(claim, display's jackpot) of each display accounting is still to adjust upon a verification."""
    return [(a.claim.pk, a.jackpot.pk) for a in displays_to_adjust_upon_verification(casino=casino)]


@pytest.fixture
def room(clock, casino, staff, supervisor):
    """Table 3 offers the Bad Beat Jackpot (quads or better, $1 of each pot). At 14:00 a bad beat there opens a claim;
    at 14:05 accounting adjusts the display for the day, in the supervisor's presence; it is then 14:10."""
    jackpot = JackpotFactory(casino=casino, name="Bad Beat Jackpot", minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino, number=3)
    claim = Claim.objects.get(round_of_play=bad_beat(table), jackpot=jackpot)
    clerk = staff(Role.ACCOUNTING)
    clock.shift(timedelta(minutes=5))
    adjust(jackpot, clerk=clerk, supervisor=supervisor)
    clock.shift(timedelta(minutes=5))
    return {"jackpot": jackpot, "table": table, "claim": claim, "clerk": clerk, "supervisor": supervisor}


def needs_a_person(client) -> str:
    page = client.get("/").content.decode()
    start = page.index('data-testid="needs-attention"')
    return page[start:page.index("</section>", start)]


@pytest.mark.proves("14.19(k)-upon-verification")
def test_14_19_k_the_request_comes_with_the_verification_and_not_before(client, room, casino, supervisor):
    """Before the verification — the claim pending, another claim rejected, a verification rolled back — nothing
    asks accounting to adjust the display. The verification's notice asks accounting to adjust and verify the
    display now, and the request stands (selector, the floor's line of the payout, accounting's page) from the
    verification's commit."""
    jackpot, claim, clerk = room["jackpot"], room["claim"], room["clerk"]
    other = Claim.objects.get(round_of_play=bad_beat(room["table"]))
    reject_claim(claim=other, supervisor=supervisor, note="Misdeal called before the showdown.")
    with pytest.raises(RuntimeError), transaction.atomic():  # verified, then rolled back (e.g. the figures changed)
        verify_claim(claim=claim, supervisor=supervisor)
        raise RuntimeError
    assert awaited(casino) == [] and not PayoutNotification.objects.exists()
    summary = floor_summary(casino=casino, gaming_day=DAY)
    assert summary.payouts_pending_with_displays == [] and summary.displays_to_adjust_upon_verification == []
    client.force_login(clerk)
    assert "adjust-upon-verification" not in needs_a_person(client)
    assert 'data-testid="awaiting-upon-verification"' not in client.get(PAGE).content.decode()

    claim = verify_claim(claim=claim, supervisor=supervisor)
    [item] = displays_to_adjust_upon_verification(casino=casino)
    assert (item.claim, item.jackpot, item.verified_at, item.claim.decided_by) == (
        claim, jackpot, claim.decided_at, supervisor)
    notice = PayoutNotification.objects.get(claim=claim).message
    assert notice.startswith("Deliver the Bad Beat Jackpot payout of $2.00 to table 3")
    assert notice.endswith("Accounting: adjust and verify the Bad Beat Jackpot display now, in a poker supervisor's "
                           "presence (14.19(k)).")
    summary = floor_summary(casino=casino, gaming_day=DAY)
    assert summary.payouts_pending_with_displays == [(claim, [jackpot])]
    strip = needs_a_person(client)
    assert f'data-testid="adjust-upon-verification-{claim.pk}"' in strip
    assert ("accounting to adjust the Bad Beat Jackpot display now, upon the verification, in a poker supervisor's "
            "presence (14.19(k))") in strip
    assert f'data-testid="upon-verification-{claim.pk}-{jackpot.pk}"' in client.get(PAGE).content.decode()


@pytest.mark.proves("14.19(k)-upon-verification")
@pytest.mark.parametrize("reason", DisplayReason.values)
def test_14_19_k_an_adjustment_after_the_verification_answers_it_one_before_does_not(
        client, room, casino, staff, supervisor, clock, reason):
    """The day's adjustment at 14:05, and another at 14:07 even labelled "after a verified bad beat", came before the
    verification at 14:10: the request stands. An adjustment without a poker supervisor present is refused and
    answers nothing; the payout delivered answers nothing. Accounting's adjustment in a supervisor's presence after
    the verification answers it, whatever reason it is recorded with (each one sets the display to the record)."""
    jackpot, claim, clerk = room["jackpot"], room["claim"], room["clerk"]
    clock.shift(timedelta(minutes=-3))
    adjust(jackpot, clerk=clerk, supervisor=supervisor, reason=DisplayReason.AFTER_VERIFICATION)  # 14:07
    clock.shift(timedelta(minutes=3))
    claim = verify_claim(claim=claim, supervisor=supervisor)  # 14:10
    assert awaited(casino) == [(claim.pk, jackpot.pk)]

    clock.shift(timedelta(minutes=2))
    written = DisplayAdjustment.objects.count()
    with pytest.raises(DomainError) as refused:  # another accounting representative is no poker supervisor
        adjust(jackpot, clerk=clerk, supervisor=staff(Role.ACCOUNTING), reason=reason)
    assert refused.value.field == "supervisor_present"
    with pytest.raises(DomainError) as alone:
        adjust(jackpot, clerk=clerk, supervisor=clerk, reason=reason)
    assert alone.value.field == "supervisor_present"
    assert DisplayAdjustment.objects.count() == written and awaited(casino) == [(claim.pk, jackpot.pk)]

    record_payout(claim=claim, method="cash", location="table", delivered_by=staff(Role.SECURITY),
                  recorded_by=supervisor)
    assert awaited(casino) == [(claim.pk, jackpot.pk)]  # paid, and still not adjusted since the verification

    clock.shift(timedelta(minutes=3))
    adjustment = adjust(jackpot, clerk=clerk, supervisor=supervisor, reason=reason)
    assert adjustment.created_at > claim.decided_at and awaited(casino) == []
    client.force_login(clerk)
    assert "adjust-upon-verification" not in needs_a_person(client)
    assert 'data-testid="awaiting-upon-verification"' not in client.get(PAGE).content.decode()


@pytest.mark.proves("14.19(k)-upon-verification")
def test_14_19_k_m_2_a_secondary_funded_from_the_primary_asks_for_its_display_and_the_primarys(
        client, clock, casino, staff, supervisor):
    """A Mini funded from 10 % of the primary is drawn from the primary when paid: its verification asks for the
    Mini's display and the primary's, each answered only by an adjustment of that display."""
    primary = JackpotFactory(casino=casino, name="Bad Beat Jackpot", minimum_pot=D("0"),
                             qualifying_hand=QualifyingHand.STRAIGHT_FLUSH)
    mini = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand=QualifyingHand.FOUR_OF_A_KIND,
                                    funding=Funding.PRIMARY_PORTION, primary_portion_percentage=D("10"))
    table = PokerTableFactory(casino=casino, number=3)
    for _ in range(9):
        plain_round(table)
    claim = Claim.objects.get(round_of_play=bad_beat(table))  # quads lose: the Mini's, not the primary's
    assert claim.jackpot == mini
    clerk = staff(Role.ACCOUNTING)
    clock.shift(timedelta(minutes=5))
    adjust(primary, clerk=clerk, supervisor=supervisor)
    adjust(mini, clerk=clerk, supervisor=supervisor)
    clock.shift(timedelta(minutes=5))
    assert awaited(casino) == []

    claim = verify_claim(claim=claim, supervisor=supervisor)
    assert claim.payout_amount == D("1.00")  # 10 % of the primary's $10.00
    assert awaited(casino) == [(claim.pk, mini.pk), (claim.pk, primary.pk)]
    assert PayoutNotification.objects.get(claim=claim).message.endswith(
        "Accounting: adjust and verify the Mini and the Bad Beat Jackpot displays now, in a poker supervisor's "
        "presence (14.19(k)).")
    assert floor_summary(casino=casino, gaming_day=DAY).payouts_pending_with_displays == [(claim, [mini, primary])]
    client.force_login(clerk)
    assert "accounting to adjust the Mini and the Bad Beat Jackpot displays now" in needs_a_person(client)

    clock.shift(timedelta(minutes=1))
    adjust(mini, clerk=clerk, supervisor=supervisor, reason=DisplayReason.AFTER_VERIFICATION)
    assert awaited(casino) == [(claim.pk, primary.pk)]
    adjust(primary, clerk=clerk, supervisor=supervisor, reason=DisplayReason.AFTER_VERIFICATION)
    assert awaited(casino) == []


@pytest.mark.proves("14.19(k)-upon-verification")
def test_14_19_k_accountings_page_lists_them_first_and_sets_the_form_to_after_a_verified_bad_beat(
        client, room, casino, supervisor, clock):
    """Accounting's display adjustment page lists first the display to adjust: which payout, which claim, verified
    when and by whom, how long ago; the form is pre-set to that display and "after a verified bad beat". A POST
    whose supervisor's signature is wrong writes nothing and the request stands; signed by both, it is answered."""
    jackpot, claim, clerk = room["jackpot"], room["claim"], room["clerk"]
    supervisor.first_name, supervisor.last_name = "Sam", "Reyes"
    supervisor.save(update_fields=["first_name", "last_name"])
    claim = verify_claim(claim=claim, supervisor=supervisor)
    clock.shift(timedelta(minutes=10))
    client.force_login(clerk)
    response = client.get(PAGE)
    page = response.content.decode()
    assert page.index('data-testid="awaiting-upon-verification"') < page.index('data-testid="display-check"')
    start = page.index(f'data-testid="upon-verification-{claim.pk}-{jackpot.pk}"')
    row = page[start:page.index("</tr>", start)]
    assert "Bad Beat Jackpot" in row and f"table 3, round #{claim.round_of_play_id}" in row
    assert f'href="/jackpot/claims/{claim.pk}/"' in row and "Sam Reyes" in row and "10\xa0minutes" in row
    form = response.context["form"]
    assert form["reason"].value() == DisplayReason.AFTER_VERIFICATION and form["jackpot"].value() == jackpot.pk

    posted = {"jackpot": jackpot.pk, "displayed_amount": f"{payable_amount(jackpot=jackpot):.2f}",
              "reason": DisplayReason.AFTER_VERIFICATION, "supervisor_present": supervisor.pk}
    wrong = client.post(PAGE, {**posted, **SIGNED, "supervisor_password": "not-theirs"})
    assert wrong.status_code == 400 and "supervisor_password" in wrong.context["form"].errors
    assert not DisplayAdjustment.objects.filter(created_at__gte=claim.decided_at).exists()
    assert awaited(casino) == [(claim.pk, jackpot.pk)]

    assert client.post(PAGE, {**posted, **SIGNED}).status_code == 302
    made = DisplayAdjustment.objects.get(created_at__gte=claim.decided_at)
    assert (made.jackpot, made.reason, made.adjusted_by, made.supervisor_present) == (
        jackpot, DisplayReason.AFTER_VERIFICATION, clerk, supervisor)
    assert awaited(casino) == []
    after = client.get(PAGE)
    assert 'data-testid="awaiting-upon-verification"' not in after.content.decode()
    assert after.context["form"].initial == {}  # nothing awaits: the form as it is (its first reason, daily)


def counted(table, staff, supervisor):
    """The table's container counted: the $1.00 of the bad beat's pot (14.19(f)), no variance."""
    return record_count(table=table, method=CountMethod.TABLE_INVENTORY, chips={"1": 1}, counted_by=staff(Role.DEALER),
                        witness=supervisor, witness_kind=WitnessKind.SUPERVISOR, surveillance_recorded=True,
                        recorded_by=supervisor)


@pytest.mark.proves("14.19(k)-upon-verification")
def test_14_19_k_the_days_close_names_a_verified_bad_beat_whose_display_was_not_adjusted_since(
        client, room, casino, staff, supervisor, clock):
    """Day 2025-03-12: counted, its display adjusted for the day at 14:05 — before the verification at 14:10 — and
    not since. Its close names that claim's display, and that alone makes the day not in order; a bad beat verified
    the next morning, before the close, is the next day's."""
    jackpot, claim, clerk = room["jackpot"], room["claim"], room["clerk"]
    counted(room["table"], staff, supervisor)
    claim = verify_claim(claim=claim, supervisor=supervisor)
    clock.shift(timedelta(minutes=5))
    record_payout(claim=claim, method="cash", location="table", delivered_by=staff(Role.SECURITY),
                  recorded_by=supervisor)
    clock.move_to(datetime(2025, 3, 13, 6, 30, tzinfo=NEW_YORK))
    assert current_gaming_day(casino=casino) == date(2025, 3, 13)
    tomorrows = Claim.objects.get(round_of_play=bad_beat(room["table"]))
    verify_claim(claim=tomorrows, supervisor=supervisor)
    clock.shift(timedelta(minutes=30))

    close = close_gaming_day(casino=casino, gaming_day=DAY)
    assert close.summary["displays_not_adjusted_upon_verification"] == [{
        "claim": claim.pk, "jackpot": "Bad Beat Jackpot", "table": 3, "round": claim.round_of_play_id,
        "verified_at": claim.decided_at.isoformat(), "verified_by": supervisor.username}]
    assert close.summary["displays_not_adjusted"] == []  # the day's adjustment was made, at 14:05
    assert not (close.summary["uncounted_tables"] or close.summary["count_variances"]
                or close.summary["ledger_problems"])
    assert close.summary["in_order"] is False
    client.force_login(clerk)
    page = client.get(f"/counts/?day={DAY}").content.decode()
    assert "displays not adjusted upon a verified bad beat 1" in page
    # still asked for, newest first: this morning's bad beat and yesterday's (the floor reads the day before too)
    assert awaited(casino) == [(tomorrows.pk, jackpot.pk), (claim.pk, jackpot.pk)]


@pytest.mark.proves("14.19(k)-upon-verification")
def test_14_19_k_the_days_close_is_in_order_once_the_display_is_adjusted_after_the_verification(
        room, casino, staff, supervisor, clock):
    """The same day with the display adjusted by accounting, in the supervisor's presence, at 14:20 — after the
    verification at 14:10: nothing is named and the day closes in order."""
    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    counted(room["table"], staff, supervisor)
    clock.shift(timedelta(minutes=10))
    adjust(room["jackpot"], clerk=room["clerk"], supervisor=supervisor, reason=DisplayReason.AFTER_VERIFICATION)
    clock.move_to(datetime(2025, 3, 13, 7, 0, tzinfo=NEW_YORK))

    close = close_gaming_day(casino=casino, gaming_day=DAY)
    assert claim.status == ClaimStatus.VERIFIED
    assert close.summary["displays_not_adjusted_upon_verification"] == []
    assert close.summary["in_order"] is True


@pytest.mark.proves("14.19(k)-upon-verification")
@pytest.mark.parametrize("role", [r for r in Role if r != Role.ACCOUNTING])
def test_14_19_k_only_accounting_adjusts_upon_a_verification(client, api, room, casino, staff, supervisor, role):
    """Only a casino accounting department representative adjusts the display: any other role's POST to the page or
    the API is refused (403) and writes nothing, the request standing; the page offers them no form (a dealer may
    not read it at all). Accounting's adjustment by the API answers it."""
    jackpot = room["jackpot"]
    claim = verify_claim(claim=room["claim"], supervisor=supervisor)
    written = DisplayAdjustment.objects.count()
    person = staff(role)
    present = staff(Role.POKER_SHIFT_SUPERVISOR)
    client.force_login(person)
    page = client.get(PAGE)
    assert page.status_code == (403 if role == Role.DEALER else 200)
    if role != Role.DEALER:
        assert 'data-testid="adjust-form"' not in page.content.decode()
        assert "Adjust this display" not in page.content.decode()
    amount = f"{payable_amount(jackpot=jackpot):.2f}"
    assert client.post(PAGE, {"jackpot": jackpot.pk, "displayed_amount": amount, "reason": "after_verification",
                              "supervisor_present": present.pk, **SIGNED}).status_code == 403
    api.force_authenticate(person)
    assert api.post(f"/api/jackpots/{jackpot.pk}/display-adjustments/",
                    {"displayed_amount": amount, "supervisor_present": present.pk,
                     "reason": "after_verification"}).status_code == 403
    assert DisplayAdjustment.objects.count() == written and awaited(casino) == [(claim.pk, jackpot.pk)]

    api.force_authenticate(room["clerk"])
    done = api.post(f"/api/jackpots/{jackpot.pk}/display-adjustments/",
                    {"displayed_amount": amount, "supervisor_present": present.pk, "reason": "after_verification"})
    assert done.status_code == 201 and awaited(casino) == []
