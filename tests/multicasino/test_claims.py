"""Claims, notices and payouts of the multi-casino system (N.J.A.C. 13:69F-14.20(e)4 with 14.19(i)): the host
orders claims by arrival, freezes the pool for the first and answers a second by the agreement's rule, tells every
casino at once; a site verifies with the engine, is told, delivers and documents the payout; nothing is paid
twice; a suspended casino opens no claim and its undelivered notices are recorded for other means."""
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.badbeat import services as badbeat
from apps.badbeat.models import Claim, ClaimStatus, PayoutNotification
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from apps.multicasino.models import (
    BadBeatSystem,
    Notice,
    NoticeKind,
    OutboxMessage,
    PoolMovement,
    Site,
    SystemClaim,
    SystemClaimStatus,
    TwoClaimsRule,
    UndeliveredNotice,
)
from apps.multicasino.services.claims import record_notice_delivered
from apps.multicasino.services.contributions import apply_contribution
from apps.multicasino.services.heartbeats import apply_heartbeat, refresh_status, send_heartbeats
from apps.multicasino.services.setup import add_site, set_up_system
from apps.multicasino.signing import canonical, sign
from tests.factories import JackpotFactory, PokerTableFactory
from tests.multicasino.support import receive
from tests.multicasino.test_inbox import RULES
from tests.support.pdf import page_sizes

D = Decimal
pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)
A_TO_HOST = "whsec_" + "c2l0ZS1hLXRvLWhvc3Qtc2VjcmV0LTEyMzQ1Njc4"
B_TO_HOST = "whsec_" + "c2l0ZS1iLXRvLWhvc3Qtc2VjcmV0LTEyMzQ1Njc4"
HOST_TO_SITE = "whsec_" + "aG9zdC10by1zaXRlLXNlY3JldC0xMjM0NTY3OA=="


def signed(kind, seq, body, *, sender, secret, at=None, mid=None):
    text = canonical({"kind": kind, "sequence": seq, "system": "nj", "sender": sender, "body": body})
    headers = sign(message_id=mid or f"msg_{sender}_{kind}_{seq}", text=text, secrets=[secret], at=at)
    headers.update({"x-pokerroom-system": "nj", "x-pokerroom-site": sender})
    return headers, text.encode()


def claim_body(reference, *, verified_at, table=4):
    return {"reference": str(reference), "table_number": table, "round_reference": f"r{reference}",
            "losing_hand": "Four of a kind", "losing_cards": "9s 9c 9h 9d 8s", "winning_hand": "Straight flush",
            "winning_cards": "8s 7s 6s 5s 4s", "verified_by": "Sam Supervisor", "verified_at": verified_at.isoformat()}


@pytest.fixture
def host_system(settings, casino):
    """This deployment is the host (Boardwalk); Borgata and Tropicana are sites; the pool holds $10,000."""
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC",
                           host_address="1 Boardwalk, Atlantic City", rules=RULES,
                           jackpot=JackpotFactory(casino=casino, minimum_pot=D("0")))
    me = add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    a = add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/",
                 inbound_secrets=[A_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    b = add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://b.test/",
                 inbound_secrets=[B_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    for i in range(100):
        apply_contribution(site=a if i % 2 else b, body={"reference": str(i), "amount": "100.00", "to_reset": "10.00",
                                                        "gaming_day": "2026-11-23"})
    system.refresh_from_db()
    assert system.pool == D("9000.00") and system.reset_reserve == D("1000.00")
    return system, me, a, b


def refuse_transport(url, text, headers):
    raise ConnectionError("not in this test")


def notices_to(site, kind):
    return [m.body for m in OutboxMessage.objects.filter(link=site.link, kind="notice").order_by("sequence")
            if m.body["kind"] == kind]


@pytest.mark.proves("14.19(p)-reset")
def test_14_19_p_the_hosts_pool_takes_each_contribution_less_its_reset_part(host_system):
    """14.19(p), at the host of a multi-casino system: each site's contribution goes to the pool but for its reset
    part, which goes to the reset reserve (the fixture's hundred: $9,000.00 and $1,000.00); a message applied twice
    is applied once; the site's running total is kept when the message carries one, and left as it was when not."""
    from apps.multicasino.models import Site

    system, _, a, b = host_system
    body = {"reference": "x1", "amount": "3.50", "to_reset": "0.35", "gaming_day": "2026-11-23", "site_total": "5003.50"}
    entry = apply_contribution(site=a, body=body)
    assert (entry.site, entry.amount, entry.to_reset) == (a, D("3.50"), D("0.35"))
    assert apply_contribution(site=a, body=body) is None
    system.refresh_from_db()
    assert (system.pool, system.reset_reserve) == (D("9003.15"), D("1000.35"))
    assert Site.objects.get(pk=a.pk).reported_total == D("5003.50")
    before = Site.objects.get(pk=b.pk).reported_total
    apply_contribution(site=b, body={"reference": "x2", "amount": "1.00", "gaming_day": "2026-11-23"})  # no part
    system.refresh_from_db()
    assert (system.pool, system.reset_reserve) == (D("9004.15"), D("1000.35"))
    assert Site.objects.get(pk=b.pk).reported_total == before


@pytest.mark.proves("14.19(p)-reset")
def test_14_19_p_the_hosts_reserve_seeds_the_next_payout_once_no_claim_is_pending(host_system):
    """14.19(p), at the host: the reset reserve seeds the next payout only once no claim of the system is pending. A
    payout while another claim waits moves nothing; the last pending one paid, the whole reserve (here under a
    dollar) moves to the pool as one reset-seed movement of that claim; a payout with the reserve empty moves none."""
    from apps.multicasino.models import PoolMovementKind
    from apps.multicasino.services.claims import apply_payout

    system, _, a, b = host_system
    BadBeatSystem.objects.filter(pk=system.pk).update(reset_reserve=D("0.60"))

    def pending(site, reference, amount):
        return SystemClaim.objects.create(system=system, site=site, status=SystemClaimStatus.PENDING,
                                          amount=D(amount), **{**claim_body(reference, verified_at=T0),
                                                               "verified_at": T0})

    def pay(site, claim):
        apply_payout(site=site, now=T0, body={
            "reference": claim.reference, "amount": f"{claim.amount:.2f}", "paid_at": T0.isoformat(),
            "payout_method": "cash", "payout_location": "table", "delivered_by": "Gail", "authorised_by": "Ada"})
        system.refresh_from_db()
        return list(PoolMovement.objects.filter(kind=PoolMovementKind.RESET_SEED).values_list("claim_id", "amount"))

    first, second = pending(a, 1, "100.00"), pending(b, 2, "50.00")
    assert pay(a, first) == [] and (system.pool, system.reset_reserve) == (D("8900.00"), D("0.60"))
    assert pay(b, second) == [(second.pk, D("0.60"))] and (system.pool, system.reset_reserve) == (D("8850.60"), 0)
    assert pay(a, pending(a, 3, "10.00")) == [(second.pk, D("0.60"))] and system.pool == D("8840.60")


class TestHostOrdersClaims:
    @pytest.mark.proves("14.20(e)4-two-claims", "14.20(e)4-notify")
    def test_14_20_e_4_first_received_is_frozen_second_is_answered_not_dropped(self, host_system):
        system, _, a, b = host_system
        with time_machine.travel(T0, tick=False):
            # Tropicana's clock says its claim was verified first; the host goes by arrival, never by site clocks.
            from_b = signed("claim", 1, claim_body(7, verified_at=T0 - timedelta(seconds=5)), sender="tropicana",
                            secret=B_TO_HOST)
            from_a = signed("claim", 1, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
            assert receive(headers=from_a[0], raw=from_a[1])[0] == 200
            assert receive(headers=from_b[0], raw=from_b[1], now=T0 + timedelta(milliseconds=100))[0] == 200
        first, second = SystemClaim.objects.get(site=a), SystemClaim.objects.get(site=b)
        assert (first.arrival, first.status, first.amount) == (1, SystemClaimStatus.PENDING, D("9000.00"))
        assert (second.arrival, second.status, second.amount) == (2, SystemClaimStatus.REFUSED, None)
        assert "Borgata" in second.answer and "first received" in second.answer
        # every casino is told at once: the pending payout and the answer, each to both sites
        for site in (a, b):
            assert [n["claim"]["site"] for n in notices_to(site, NoticeKind.PENDING)] == ["borgata"]
            assert [n["claim"]["site"] for n in notices_to(site, NoticeKind.REFUSED)] == ["tropicana"]
        assert Notice.objects.filter(system=system).count() == 2

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_c_1_split_rule_shares_the_frozen_amount_equally_to_the_cent(self, host_system):
        system, _, a, b = host_system
        BadBeatSystem.objects.filter(pk=system.pk).update(two_claims_rule=TwoClaimsRule.SPLIT)
        apply_contribution(site=a, body={"reference": "odd", "amount": "0.01", "gaming_day": "2026-11-23"})
        for sender, secret, ref in (("borgata", A_TO_HOST, 3), ("tropicana", B_TO_HOST, 7)):
            headers, raw = signed("claim", 1, claim_body(ref, verified_at=T0), sender=sender, secret=secret)
            assert receive(headers=headers, raw=raw)[0] == 200
        amounts = {c.site.code: c.amount for c in SystemClaim.objects.all()}
        assert amounts == {"borgata": D("4500.01"), "tropicana": D("4500.00")}
        assert all(c.status == SystemClaimStatus.PENDING for c in SystemClaim.objects.all())

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_after_the_rule_changes_to_first_received_a_claim_is_answered_with_the_first(self, host_system):
        """Two claims share the frozen pool under the split rule; the agreement then changes to first received
        (14.20(c)1): a third claim is not paid, and its answer names the casino whose claim the host received
        first."""
        system, _, a, b = host_system
        BadBeatSystem.objects.filter(pk=system.pk).update(two_claims_rule=TwoClaimsRule.SPLIT)
        for seq, (sender, secret, ref) in enumerate((("borgata", A_TO_HOST, 3), ("tropicana", B_TO_HOST, 7),
                                                     ("borgata", A_TO_HOST, 4)), start=1):
            if seq == 3:
                BadBeatSystem.objects.filter(pk=system.pk).update(two_claims_rule=TwoClaimsRule.FIRST_RECEIVED)
            headers, raw = signed("claim", 1 if seq < 3 else 2, claim_body(ref, verified_at=T0), sender=sender,
                                  secret=secret)
            assert receive(headers=headers, raw=raw)[0] == 200
        third = SystemClaim.objects.get(site=a, reference="4")
        assert third.status == SystemClaimStatus.REFUSED and third.answer.startswith("Not paid: a claim at Borgata")
        assert [c.amount for c in SystemClaim.objects.filter(status=SystemClaimStatus.PENDING).order_by("arrival")] \
            == [D("4500.00"), D("4500.00")]

    @pytest.mark.proves("14.20(e)4-two-claims")
    @pytest.mark.parametrize(("pool", "claims", "parts"), [
        ("9000.00", 2, ["4500.00", "4500.00"]),                  # no odd cent
        ("100.00", 3, ["33.34", "33.33", "33.33"]),               # one, to the first received
        ("0.05", 3, ["0.02", "0.02", "0.01"]),                    # two
    ])
    def test_14_20_c_1_split_rule_gives_the_odd_cents_to_the_first_received(self, host_system, pool, claims, parts):
        system, _, a, b = host_system
        BadBeatSystem.objects.filter(pk=system.pk).update(two_claims_rule=TwoClaimsRule.SPLIT, pool=D(pool))
        for ref in range(claims):
            sender, secret = (("borgata", A_TO_HOST), ("tropicana", B_TO_HOST))[ref % 2]
            headers, raw = signed("claim", ref // 2 + 1, claim_body(ref + 1, verified_at=T0), sender=sender,
                                  secret=secret)
            assert receive(headers=headers, raw=raw)[0] == 200
        assert [str(c.amount) for c in SystemClaim.objects.order_by("arrival")] == parts

    @pytest.mark.proves("14.20(e)4-two-claims")
    @pytest.mark.parametrize(("pool", "status", "amount"), [("0.00", SystemClaimStatus.REFUSED, None),
                                                            ("-1.00", SystemClaimStatus.REFUSED, None),  # a ledger fault
                                                            ("0.50", SystemClaimStatus.PENDING, D("0.50"))])
    def test_14_20_e_4_a_claim_on_an_empty_pool_is_answered_and_any_cent_is_frozen(self, host_system, pool, status,
                                                                                    amount):
        system, _, a, b = host_system
        BadBeatSystem.objects.filter(pk=system.pk).update(pool=D(pool))
        headers, raw = signed("claim", 1, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
        assert receive(headers=headers, raw=raw)[0] == 200
        claim = SystemClaim.objects.get()
        assert (claim.status, claim.amount) == (status, amount)
        assert ("holds $0.00" in claim.answer) is (status == SystemClaimStatus.REFUSED)

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_the_answer_to_a_second_claim_is_cut_to_its_300_characters(self, host_system):
        """A first casino with a name of 200 characters: the answer naming it is kept whole up to the record's 300."""
        system, _, a, b = host_system
        Site.objects.filter(pk=a.pk).update(name="B" * 200)
        for sender, secret, ref in (("borgata", A_TO_HOST, 3), ("tropicana", B_TO_HOST, 7)):
            headers, raw = signed("claim", 1, claim_body(ref, verified_at=T0), sender=sender, secret=secret)
            assert receive(headers=headers, raw=raw)[0] == 200
        second = SystemClaim.objects.get(site=b)
        assert second.status == SystemClaimStatus.REFUSED and len(second.answer) == 300
        assert second.answer.startswith("Not paid: a claim at " + "B" * 200)

    def test_a_repeated_claim_message_changes_nothing(self, host_system):
        system, _, a, _ = host_system
        headers, raw = signed("claim", 1, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
        receive(headers=headers, raw=raw)
        assert receive(headers=headers, raw=raw)[0] == 409
        again = signed("claim", 2, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
        assert receive(headers=again[0], raw=again[1])[0] == 200
        assert SystemClaim.objects.get().arrival == 1 and Notice.objects.count() == 1

    @pytest.mark.proves("14.20(e)4-document", "14.20(e)4-notify", "14.19(p)-reset")
    def test_14_20_e_4_iii_payout_leaves_the_pool_once_reset_seeds_and_every_casino_is_told(self, host_system):
        system, _, a, b = host_system
        headers, raw = signed("claim", 1, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
        assert receive(headers=headers, raw=raw)[0] == 200
        apply_contribution(site=b, body={"reference": "late", "amount": "5.00", "to_reset": "0.50",
                                         "gaming_day": "2026-11-23"})
        payout = {"reference": "3", "amount": "9000.00", "paid_at": T0.isoformat(), "payout_method": "cash",
                  "payout_location": "table", "delivered_by": "Gail Guard", "authorised_by": "Ada Accounts"}
        for seq, mid in ((2, "p1"), (3, "p2")):  # the same payout reported twice under two ids
            headers, raw = signed("payout", seq, payout, sender="borgata", secret=A_TO_HOST, mid=mid)
            assert receive(headers=headers, raw=raw)[0] == 200
        system.refresh_from_db()
        # $9,000 frozen and paid; the $4.50 contributed since stays; the $1,000.50 reserve seeds the next payout
        assert system.pool == D("4.50") + D("1000.50") and system.reset_reserve == 0
        assert PoolMovement.objects.filter(kind="payout").count() == 1
        claim = SystemClaim.objects.get()
        assert (claim.status, claim.delivered_by, claim.authorised_by, claim.payout_location) == (
            SystemClaimStatus.PAID, "Gail Guard", "Ada Accounts", "table")
        for site in (a, b):
            assert len(notices_to(site, NoticeKind.PAID)) == 1

    @pytest.mark.proves("14.20(e)4-notify")
    def test_14_20_e_4_i_a_notice_to_a_suspended_casino_is_recorded_for_other_means(self, host_system, staff):
        system, _, a, b = host_system
        with time_machine.travel(T0, tick=False):
            apply_heartbeat(peer=a, body={"rules_hash": system.rules_hash}, now=T0)
            refresh_status(system=system, now=T0)  # Tropicana never heard: suspended
            headers, raw = signed("claim", 1, claim_body(3, verified_at=T0), sender="borgata", secret=A_TO_HOST)
            receive(headers=headers, raw=raw)
        undelivered = UndeliveredNotice.objects.get()
        assert undelivered.site == b and undelivered.notice.kind == NoticeKind.PENDING
        with pytest.raises(DomainError):
            record_notice_delivered(undelivered=undelivered, user=staff(Role.POKER_SHIFT_SUPERVISOR), means=" ")
        done = record_notice_delivered(undelivered=undelivered, user=staff(Role.POKER_SHIFT_SUPERVISOR),
                                       means="telephone to the Tropicana poker room")
        assert done.delivered_at and done.delivered_by.has_role(Role.POKER_SHIFT_SUPERVISOR)

    def test_a_claim_at_the_host_casino_itself_is_decided_frozen_and_paid(self, host_system, casino, supervisor,
                                                                           staff):
        system, me, a, b = host_system
        with time_machine.travel(T0, tick=False):
            for peer in (a, b):
                apply_heartbeat(peer=peer, body={"rules_hash": system.rules_hash}, now=T0)
            claim = qualifying_claim(casino)
            system.refresh_from_db()
            pool = system.pool
            badbeat.verify_claim(claim=claim, supervisor=supervisor)
            claim.refresh_from_db()
            assert claim.payout_amount == pool and SystemClaim.objects.get(site=me).arrival == 1
            guard = staff(Role.SECURITY)
            badbeat.record_payout(claim=claim, method="chips", location="cage", delivered_by=guard, recorded_by=guard)
        system.refresh_from_db()
        assert PoolMovement.objects.get(kind="payout").amount == pool
        assert system.pool == D("1000.00") and system.reset_reserve == 0
        for site in (a, b):
            assert [n["claim"]["site"] for n in notices_to(site, NoticeKind.PAID)] == ["boardwalk"]

    def test_host_report_balances_to_the_cent_as_page_csv_and_pdf(self, host_system, client, staff):
        system, *_ = host_system
        client.force_login(staff(Role.ACCOUNTING))
        page = client.get("/multicasino/nj/report/")
        assert page.status_code == 200 and b"agree to the cent" in page.content
        csv = client.get("/multicasino/nj/report.csv").content.decode()
        assert "contributions,2026-11-23,borgata,5000.00" in csv
        pdf = client.get("/multicasino/nj/report.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert set(page_sizes(pdf.content)) == {(792.0, 612.0)}  # US Letter, landscape (settings.PDF_PAGE_SIZE)


def qualifying_claim(casino):
    """A round at table 4 where four nines lose to a straight flush (both hole cards playing)."""
    table = PokerTableFactory(casino=casino, number=4)
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s",
                                                               players=[
        PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name="Ann"),
        PlayerIn(seat=2, contributed=D("50"), hole_cards="5s 4s", name="Ben")]))
    return Claim.objects.get(round_of_play=round_of_play)


@pytest.fixture
def at_site(settings, casino):
    """This deployment is the site Borgata; the host is Boardwalk and was heard from just now."""
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    me = add_site(system=system, code="borgata", name="Borgata", is_self=True)
    host = add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
                    outbound_secrets=[A_TO_HOST], inbound_secrets=[HOST_TO_SITE])
    return system, me, host, qualifying_claim(casino)


def hear_host(system, host, at):
    apply_heartbeat(peer=host, body={"rules_hash": system.rules_hash, "pool": "9000.00"}, now=at)


def notice_from_host(seq, *, claim, kind, status, amount=None, answer="", site="borgata", site_name="Borgata"):
    doc = {"site": site, "site_name": site_name, "site_address": "", "reference": str(claim), "arrival": 1,
           "status": status, "amount": amount, "table_number": 4, "round_reference": "r", "losing_hand": "Four of a kind",
           "losing_cards": "9s 9c 9h 9d 8s", "winning_hand": "Straight flush", "winning_cards": "8s 7s 6s 5s 4s",
           "verified_by": "Sam", "verified_at": T0.isoformat(), "received_at": T0.isoformat(),
           "decided_at": T0.isoformat(), "answer": answer, "paid_at": None, "payout_method": "",
           "payout_location": "", "delivered_by": "", "authorised_by": ""}
    body = {"notice": f"ntc_{seq}", "kind": kind, "text": f"{kind} at {site_name}", "issued_at": T0.isoformat(),
            "claim": doc, "pool": "9000.00"}
    return signed("notice", seq, body, sender="boardwalk", secret=HOST_TO_SITE)


class TestSiteClaims:
    @pytest.mark.proves("14.20(e)4-notify", "14.20(e)4-two-claims")
    def test_14_20_e_4_i_no_claim_is_opened_while_suspended(self, at_site, supervisor):
        system, me, host, claim = at_site
        with pytest.raises(DomainError, match="suspended"):
            badbeat.verify_claim(claim=claim, supervisor=supervisor)  # the host was never heard
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.PENDING and not SystemClaim.objects.exists()
        assert not OutboxMessage.objects.filter(kind="claim").exists()

    @pytest.mark.proves("14.20(e)4-notify", "14.20(e)4-document")
    def test_14_20_e_4_verified_here_sent_to_host_told_pending_paid_and_reported(self, at_site, supervisor, staff,
                                                                                 client):
        system, me, host, claim = at_site
        hear_host(system, host, timezone.now())
        badbeat.verify_claim(claim=claim, supervisor=supervisor)
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.VERIFIED and claim.payout_amount is None
        sent = OutboxMessage.objects.get(kind="claim")
        assert sent.body["reference"] == str(claim.pk) and sent.body["losing_hand"] == "Four of a kind"
        guard = staff(Role.SECURITY)
        with pytest.raises(DomainError, match="pending"):  # the host has not frozen it yet
            badbeat.record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=guard)
        headers, raw = notice_from_host(1, claim=claim.pk, kind="pending", status="pending", amount="9000.00")
        assert receive(headers=headers, raw=raw)[0] == 200
        claim.refresh_from_db()
        assert claim.payout_amount == D("9000.00")
        assert "9,000.00" in PayoutNotification.objects.get(claim=claim).message
        client.force_login(staff(Role.DEALER))
        display = client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
        assert "PAYOUT PENDING — $9,000.00 at Borgata, table 4" in display
        accountant = staff(Role.ACCOUNTING)
        badbeat.record_payout(claim=claim, method="cash", location="table", delivered_by=guard, recorded_by=accountant)
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.PAID and sum(s.amount for s in claim.shares.all()) == D("9000.00")
        reported = OutboxMessage.objects.get(kind="payout").body
        assert reported["amount"] == "9000.00" and reported["delivered_by"] == (guard.get_full_name() or guard.username)
        with pytest.raises(DomainError):  # never paid twice
            badbeat.record_payout(claim=claim, method="cash", location="table", delivered_by=guard,
                                  recorded_by=accountant)
        assert OutboxMessage.objects.filter(kind="payout").count() == 1

    @pytest.mark.proves("14.20(e)4-document")
    def test_14_20_e_4_a_payout_is_documented_only_for_a_claim_the_host_holds_pending(self, at_site, staff):
        """The system's payout leaves the pool once, for a claim the host confirmed as pending: a claim not sent to
        the host, sent and not answered yet, answered "not paid", or already paid, is refused, says which it is,
        and nothing is documented or reported."""
        from apps.multicasino.services.claims import record_system_payout

        system, me, host, claim = at_site
        guard, accountant = staff(Role.SECURITY), staff(Role.ACCOUNTING)

        def deliver():
            return record_system_payout(claim=claim, method="cash", location="table", delivered_by=guard,
                                        recorded_by=accountant, now=T0)

        with pytest.raises(DomainError, match="This claim is not sent to the host") as exc:
            deliver()
        assert exc.value.field == "claim"
        mine = SystemClaim.objects.create(
            system=system, site=me, reference=str(claim.pk), amount=D("9000.00"), table_number=4,
            round_reference="r", losing_hand="Four of a kind", losing_cards="", winning_hand="Straight flush",
            winning_cards="", verified_by="v", verified_at=T0)
        for status in (SystemClaimStatus.SENT, SystemClaimStatus.REFUSED, SystemClaimStatus.PAID):
            SystemClaim.objects.filter(pk=mine.pk).update(status=status)
            with pytest.raises(DomainError, match=f"This claim is {status.label.lower()}: only a payout"):
                deliver()
            mine.refresh_from_db()
            assert mine.status == status and mine.paid_at is None and mine.delivered_by == ""
        assert not OutboxMessage.objects.filter(kind="payout").exists()
        SystemClaim.objects.filter(pk=mine.pk).update(status=SystemClaimStatus.PENDING)
        paid = deliver()
        assert (paid.status, paid.paid_at, paid.amount) == (SystemClaimStatus.PAID, T0, D("9000.00"))
        assert OutboxMessage.objects.get(kind="payout").body["amount"] == "9000.00"

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_only_a_claim_verified_here_goes_to_the_host_however_it_was_read(self, at_site, supervisor):
        """A claim still pending here is not sent; the same claim verified and read back from the database (its
        status the text the column holds) is, once, with its reference."""
        from apps.multicasino.services.claims import submit_claim

        system, me, host, claim = at_site
        hear_host(system, host, timezone.now())
        with pytest.raises(DomainError, match="Only a claim verified here") as refused:
            submit_claim(claim=claim, supervisor=supervisor)
        assert refused.value.field == "claim" and not SystemClaim.objects.exists()
        Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.VERIFIED.value)
        sent = submit_claim(claim=Claim.objects.get(pk=claim.pk), supervisor=supervisor)
        assert (sent.reference, sent.site) == (str(claim.pk), me)
        assert OutboxMessage.objects.filter(kind="claim").count() == 1

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_a_claim_answered_by_the_host_is_rejected_here_with_the_answer(self, at_site, supervisor):
        system, me, host, claim = at_site
        hear_host(system, host, timezone.now())
        badbeat.verify_claim(claim=claim, supervisor=supervisor)
        headers, raw = notice_from_host(1, claim=claim.pk, kind="refused", status="refused",
                                        answer="Not paid: a claim at Tropicana was received first.")
        receive(headers=headers, raw=raw)
        claim.refresh_from_db()
        assert claim.status == ClaimStatus.REJECTED and "Tropicana" in claim.decision_note

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_a_claim_verified_here_keeps_the_engines_reading_and_is_verified_once(self, at_site,
                                                                                           supervisor):
        """The claim sent to the host is the engine's reading of the round, stored on the claim here with who
        verified it and when; verifying it again is refused by its status, and nothing more is sent."""
        system, me, host, claim = at_site
        hear_host(system, host, timezone.now())
        Claim.objects.filter(pk=claim.pk).update(seat=0, losing_hand="", losing_cards="", winning_hand="",
                                                 winning_cards="", evaluation={})  # as a claim opened before
        before = timezone.now()
        badbeat.verify_claim(claim=Claim.objects.get(pk=claim.pk), supervisor=supervisor)
        claim.refresh_from_db()
        assert (claim.seat, claim.losing_hand, claim.winning_hand) == (1, "Four of a kind", "Straight flush")
        assert sorted(claim.losing_cards.split()) == sorted("9s 9c 9h 9d 8s".split())
        assert sorted(claim.winning_cards.split()) == sorted("8s 7s 6s 5s 4s".split())
        assert claim.evaluation["qualifies"] is True and claim.evaluation["checks"]
        assert (claim.status, claim.decided_by, claim.payout_amount) == (ClaimStatus.VERIFIED, supervisor, None)
        assert before <= claim.decided_at <= timezone.now() and "sent to the host" in claim.decision_note
        for again in (claim, Claim.objects.get(pk=claim.pk)):
            with pytest.raises(DomainError, match="This claim is already verified") as refused:
                badbeat.verify_claim(claim=again, supervisor=supervisor)
            assert refused.value.field == "status"
        for decided in (ClaimStatus.PAID, ClaimStatus.REJECTED):  # decided here: never verified and sent again
            Claim.objects.filter(pk=claim.pk).update(status=decided)
            with pytest.raises(DomainError, match=f"This claim is already {decided.label.lower()}"):
                badbeat.verify_claim(claim=claim, supervisor=supervisor)
            assert Claim.objects.get(pk=claim.pk).status == decided
        assert OutboxMessage.objects.filter(kind="claim").count() == 1

    @pytest.mark.proves("14.20(e)4-two-claims")
    def test_14_20_e_4_with_two_qualifying_losers_the_claim_sent_names_the_highest(self, at_site, supervisor, casino):
        """Four nines (seat 1) and four eights (seat 2) both lose to a straight flush (seat 3): the claim verified
        here and sent to the host is the four nines'."""
        system, me, host, _ = at_site
        hear_host(system, host, timezone.now())
        table = PokerTableFactory(casino=casino, number=5)
        round_of_play = record_round_of_play(table=table, round_in=RoundIn(
            started_at=timezone.now(), board="9h 9d 8h 8d Th", players=[
                PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name="Ann"),
                PlayerIn(seat=2, contributed=D("50"), hole_cards="8s 8c", name="Ben"),
                PlayerIn(seat=3, contributed=D("50"), hole_cards="7h 6h", name="Cy")]))
        claim = Claim.objects.get(round_of_play=round_of_play)
        badbeat.verify_claim(claim=claim, supervisor=supervisor)
        claim.refresh_from_db()
        assert (claim.seat, claim.status, sorted(claim.losing_cards.split())) == (
            1, ClaimStatus.VERIFIED, sorted("9s 9c 9h 9d Th".split()))
        assert OutboxMessage.objects.get(kind="claim").body["losing_cards"] == claim.losing_cards

    @pytest.mark.proves("14.20(e)4-two-claims")
    @pytest.mark.parametrize(("status", "answered"), [(ClaimStatus.PENDING, True), (ClaimStatus.VERIFIED, True),
                                                      (ClaimStatus.REJECTED, False), (ClaimStatus.PAID, False)])
    def test_14_20_e_4_the_hosts_not_paid_rejects_only_a_claim_still_open_here(self, at_site, supervisor, status,
                                                                             answered):
        """The host's answer rejects a claim pending or verified here, with the answer cut to the claim's 300
        characters, and withdraws its notices not yet acknowledged; a claim already decided here (rejected by a
        supervisor, or paid) keeps its status, note and notices."""
        system, me, host, claim = at_site
        Claim.objects.filter(pk=claim.pk).update(status=status, decision_note="as decided here")
        seen = PayoutNotification.objects.create(claim=claim, casino=claim.jackpot.casino, message="seen",
                                                 acknowledged_by=supervisor, acknowledged_at=timezone.now())
        PayoutNotification.objects.create(claim=claim, casino=claim.jackpot.casino, message="not yet seen")
        answer = "Not paid: a claim at " + "T" * 400
        refused = badbeat.refuse_shared_claim(claim=Claim.objects.get(pk=claim.pk), answer=answer)
        claim.refresh_from_db()
        assert (refused.status, refused.decision_note) == (claim.status, claim.decision_note)
        if answered:
            assert (claim.status, claim.decision_note) == (ClaimStatus.REJECTED, answer[:300])
            assert list(claim.notifications.all()) == [seen]
        else:
            assert (claim.status, claim.decision_note) == (status, "as decided here")
            assert claim.notifications.count() == 2

    def test_a_notice_of_another_casinos_claim_shows_pending_here(self, at_site, client, staff):
        system, me, host, _ = at_site
        headers, raw = notice_from_host(1, claim=55, kind="pending", status="pending", amount="9000.00",
                                        site="tropicana", site_name="Tropicana")
        receive(headers=headers, raw=raw)
        assert SystemClaim.objects.get().site.name == "Tropicana"  # a participant it did not know is added
        hear_host(system, host, timezone.now())  # it has no link with Tropicana: heartbeats and status ignore it
        assert refresh_status(system=system) == "active" and send_heartbeats() == 0
        client.force_login(staff(Role.SURVEILLANCE))
        assert "at Tropicana, table 4" in client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
        assert "Tropicana" in client.get("/multicasino/").content.decode()


class TestAccess:
    @pytest.mark.parametrize("role", [Role.SURVEILLANCE, Role.DEALER, Role.ACCOUNTING])
    def test_only_supervisors_and_admins_record_a_notice_delivered_by_other_means(self, host_system, client, staff,
                                                                                  role):
        system, _, _, b = host_system
        headers, raw = signed("claim", 1, claim_body(3, verified_at=timezone.now()), sender="borgata",
                              secret=A_TO_HOST)
        receive(headers=headers, raw=raw)
        undelivered = UndeliveredNotice.objects.create(notice=Notice.objects.get(), site=b)
        client.force_login(staff(role))
        assert client.get("/multicasino/").status_code == 200  # every role reads
        response = client.post(f"/multicasino/notices/{undelivered.pk}/delivered/", {"means": "phone"})
        assert response.status_code == 403
        client.force_login(staff(Role.ADMIN))
        client.post(f"/multicasino/notices/{undelivered.pk}/delivered/", {"means": "phone"})
        undelivered.refresh_from_db()
        assert undelivered.means == "phone"

    def test_a_supervisor_cannot_change_links_or_keys(self, host_system, client, supervisor):
        client.force_login(supervisor)
        _, _, a, _ = host_system
        assert client.get(f"/admin/multicasino/link/{a.link.pk}/change/").status_code in (302, 403)
        client.post(f"/admin/multicasino/link/{a.link.pk}/change/", {"outbound_secrets": '["whsec_x"]'})
        a.link.refresh_from_db()
        assert a.link.outbound_secrets == [HOST_TO_SITE]

