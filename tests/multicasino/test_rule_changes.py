"""Rule changes of the multi-casino system (N.J.A.C. 13:69F-14.20(c)1 with 14.19(q)): proposed at the host by a
designated key employee with the notice first, in effect only once every participating casino has approved it,
a harder qualifying hand refused until the payout is won, and every casino then holding the same rules (hash)."""
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from apps.badbeat.models import RuleChange
from apps.casinos.models import LicenseType
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.multicasino.models import (
    BadBeatSystem,
    OutboxMessage,
    PoolMovement,
    RuleApproval,
    RuleChangeStatus,
    SystemClaim,
    SystemRuleChange,
)
from apps.multicasino.services.contributions import apply_contribution
from apps.multicasino.services.rules import apply_due_system_rules, approve_system_rules, propose_system_rules
from apps.multicasino.services.setup import add_site, set_up_system
from tests.factories import JackpotFactory
from tests.multicasino.support import receive
from tests.multicasino.test_claims import A_TO_HOST, B_TO_HOST, HOST_TO_SITE, signed
from tests.multicasino.test_inbox import RULES

D = Decimal
pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)
EASIER = {**RULES, "qualifying_hand": "full_house", "qualifying_minimum_rank": 14}
HARDER = {**RULES, "qualifying_hand": "straight_flush"}


@pytest.fixture
def key_employee(staff):
    return staff(Role.POKER_SHIFT_SUPERVISOR, license_type=LicenseType.CASINO_KEY_EMPLOYEE)


@pytest.fixture
def host(settings, casino):
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("20.00"), minimum_players_dealt=4,
                             both_hole_cards_must_play=True, reset_percentage=D("10"), losing_share=D("50"),
                             winning_share=D("25"), table_share=D("25"))
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    a = add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/",
                 inbound_secrets=[A_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    b = add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://b.test/",
                 inbound_secrets=[B_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    return system, a, b


def approve_from(site_code, secret, change, seq=1):
    body = {"reference": change.reference, "approved_by": f"Key employee of {site_code}",
            "approved_at": T0.isoformat()}
    headers, raw = signed("approval", seq, body, sender=site_code, secret=secret)
    assert receive(headers=headers, raw=raw)[0] == 200


class TestProposing:
    @pytest.mark.parametrize("role,license_type,allowed", [
        (Role.POKER_SHIFT_SUPERVISOR, LicenseType.CASINO_EMPLOYEE, False),
        (Role.POKER_SHIFT_SUPERVISOR, LicenseType.NONE, False), (Role.POKER_SHIFT_SUPERVISOR, LicenseType.CASINO, False),
        (Role.POKER_SHIFT_SUPERVISOR, LicenseType.CASINO_KEY_EMPLOYEE, True),
        (Role.ADMIN, LicenseType.CASINO_EMPLOYEE, True), (Role.ACCOUNTING, LicenseType.CASINO_KEY_EMPLOYEE, False)])
    @pytest.mark.proves("14.20(c)1", "14.20(f)")
    def test_14_20_c_1_only_a_designated_key_employee_proposes(self, host, staff, role, license_type, allowed):
        """14.20(c)1 with 14.20(f): the casino's designated key employees (an administrator, or a poker shift
        supervisor holding a casino key employee license) act for it in the system; others are refused."""
        system, *_ = host
        user = staff(role, license_type=license_type)
        with time_machine.travel(T0, tick=False):
            if allowed:
                propose_system_rules(system=system, rules=EASIER, effective_at=T0 + timedelta(days=7), proposed_by=user)
            else:
                with pytest.raises(DomainError) as error:
                    propose_system_rules(system=system, rules=EASIER, effective_at=T0 + timedelta(days=7),
                                         proposed_by=user)
                assert error.value.field == "proposed_by"
        assert SystemRuleChange.objects.count() == int(allowed)

    @pytest.mark.parametrize("rules,effective,field", [
        (EASIER, timedelta(0), "effective_at"),
        ({**RULES, "losing_share": "60.00"}, timedelta(days=1), "losing_share"),
        ({**RULES, "minimum_players_dealt": "many"}, timedelta(days=1), "minimum_players_dealt"),
        ({**RULES, "jackpot_colour": "red"}, timedelta(days=1), "jackpot_colour"),
        (RULES, timedelta(days=1), "rules"),
    ])
    def test_bad_proposals_are_refused_by_field_and_write_nothing(self, host, key_employee, rules, effective, field):
        system, *_ = host
        with time_machine.travel(T0, tick=False), pytest.raises(DomainError) as error:
            propose_system_rules(system=system, rules=rules, effective_at=T0 + effective, proposed_by=key_employee)
        assert error.value.field == field
        assert not SystemRuleChange.objects.exists() and not OutboxMessage.objects.filter(kind="rules").exists()

    @pytest.mark.proves("14.19(q)-harder-after-won")
    def test_14_19_q_harder_qualifying_hand_refused_until_the_payout_is_won(self, host, key_employee):
        system, a, _ = host
        with time_machine.travel(T0, tick=False):
            system.rules_effective_at = T0 - timedelta(days=30)
            system.save()
            apply_contribution(site=a, body={"reference": "1", "amount": "1.00", "gaming_day": "2026-11-23"})
            with pytest.raises(DomainError, match="won"):
                propose_system_rules(system=system, rules=HARDER, effective_at=T0 + timedelta(days=7),
                                     proposed_by=key_employee)
            claim = SystemClaim.objects.create(system=system, site=a, reference="9", status="paid", amount=D("1.00"),
                                               table_number=1, round_reference="r", losing_hand="x", losing_cards="",
                                               winning_hand="y", winning_cards="", verified_by="v", verified_at=T0,
                                               paid_at=T0)
            PoolMovement.objects.create(system=system, claim=claim, kind="payout", amount=D("1.00"))
            change = propose_system_rules(system=system, rules=HARDER, effective_at=T0 + timedelta(days=7),
                                          proposed_by=key_employee)
        assert change.makes_qualifying_harder

    @pytest.mark.proves("14.19(q)-harder-after-won")
    def test_14_19_q_only_a_win_under_the_current_requirements_counts_and_fewer_players_is_easier(self, host,
                                                                                                  key_employee):
        """Requirements that never changed count every win; once they took effect after a win, that win no longer
        lets them be made harder while contributions came in under them. Needing fewer players dealt is easier, not
        harder (accepted and not marked harder, the payout unwon). Stored rules that name no qualifying hand, or one
        that does not exist, are refused by field, not a crash."""
        system, a, _ = host
        with time_machine.travel(T0, tick=False):
            system.rules_effective_at = None
            system.save()
            claim = SystemClaim.objects.create(system=system, site=a, reference="8", status="paid", amount=D("1.00"),
                                               table_number=1, round_reference="r", losing_hand="x", losing_cards="",
                                               winning_hand="y", winning_cards="", verified_by="v",
                                               verified_at=T0 - timedelta(days=40), paid_at=T0 - timedelta(days=40))
            PoolMovement.objects.create(system=system, claim=claim, kind="payout", amount=D("1.00"))
            apply_contribution(site=a, body={"reference": "1", "amount": "1.00", "gaming_day": "2026-11-23"})
            assert propose_system_rules(system=system, rules=HARDER, effective_at=T0 + timedelta(days=7),
                                        proposed_by=key_employee).makes_qualifying_harder
            system.rules_effective_at = T0 - timedelta(days=30)  # after the win, before the contribution
            system.save()
            with pytest.raises(DomainError, match="won") as refused:
                propose_system_rules(system=system, rules=HARDER, effective_at=T0 + timedelta(days=7),
                                     proposed_by=key_employee)
            assert refused.value.field == "rules"
            fewer = propose_system_rules(system=system, rules={**RULES, "minimum_players_dealt": 3},
                                         effective_at=T0 + timedelta(days=7), proposed_by=key_employee)
            assert not fewer.makes_qualifying_harder
            for stored in ({k: v for k, v in RULES.items() if k != "qualifying_hand"},
                           {**RULES, "qualifying_hand": "no_such_hand"}):
                BadBeatSystem.objects.filter(pk=system.pk).update(rules=stored)
                system.refresh_from_db()
                with pytest.raises(DomainError, match="Not a qualifying hand") as refused:
                    propose_system_rules(system=system, rules=EASIER, effective_at=T0 + timedelta(days=7),
                                         proposed_by=key_employee)
                assert refused.value.field == "rules"

    @pytest.mark.proves("14.19(q)-harder-after-won")
    def test_14_19_q_a_system_with_no_payout_here_has_nothing_to_make_harder(self, host, key_employee):
        system, *_ = host
        BadBeatSystem.objects.filter(pk=system.pk).update(jackpot=None)
        system.refresh_from_db()
        with time_machine.travel(T0, tick=False):
            change = propose_system_rules(system=system, rules=HARDER, effective_at=T0 + timedelta(days=7),
                                          proposed_by=key_employee)
        assert not change.makes_qualifying_harder


class TestApproval:
    @pytest.mark.proves("14.20(c)1")
    def test_14_20_c_1_in_effect_only_when_every_casino_approved_then_everyone_holds_it(self, host, key_employee):
        system, a, b = host
        old_hash = system.rules_hash
        with time_machine.travel(T0, tick=False):
            change = propose_system_rules(system=system, rules=EASIER, effective_at=T0 + timedelta(days=7),
                                          proposed_by=key_employee)
            # the notice goes to every casino at once
            assert {m.link.peer.code for m in OutboxMessage.objects.filter(kind="rules")} == {"borgata", "tropicana"}
            approve_system_rules(change=change, user=key_employee)
            approve_from("borgata", A_TO_HOST, change)
        with time_machine.travel(T0 + timedelta(days=8), tick=False):
            assert apply_due_system_rules() == 0  # Tropicana has not approved
            approve_from("tropicana", B_TO_HOST, change)
            assert apply_due_system_rules() == 1
        change.refresh_from_db()
        system.refresh_from_db()
        assert change.status == RuleChangeStatus.IN_EFFECT and RuleApproval.objects.filter(change=change).count() == 3
        assert system.rules_hash == change.rules_hash != old_hash and system.rules["qualifying_hand"] == "full_house"
        system.jackpot.refresh_from_db()
        assert (system.jackpot.qualifying_hand, system.jackpot.qualifying_minimum_rank) == ("full_house", 14)
        assert RuleChange.objects.get(jackpot=system.jackpot).proposed_by is None
        last = OutboxMessage.objects.filter(kind="rules").order_by("-pk").first().body
        assert last["status"] == "in_effect" and len(last["approvals"]) == 3

    def test_not_before_its_time_even_when_approved(self, host, key_employee):
        system, *_ = host
        with time_machine.travel(T0, tick=False):
            change = propose_system_rules(system=system, rules=EASIER, effective_at=T0 + timedelta(days=7),
                                          proposed_by=key_employee)
            approve_system_rules(change=change, user=key_employee)
            approve_from("borgata", A_TO_HOST, change)
            approve_from("tropicana", B_TO_HOST, change)
            assert apply_due_system_rules() == 0
        with pytest.raises(DomainError):
            approve_system_rules(change=change, user=key_employee)  # already approved here


@pytest.fixture
def at_site(settings, casino):
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("20.00"), minimum_players_dealt=4)
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    add_site(system=system, code="borgata", name="Borgata", is_self=True)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
             outbound_secrets=[A_TO_HOST], inbound_secrets=[HOST_TO_SITE])
    return system


def rules_message(seq, *, status, new_hash, approvals=()):
    body = {"reference": "rc_1", "rules": EASIER, "two_claims_rule": "first_received", "rules_hash": new_hash,
            "summary": "qualifying hand: four_of_a_kind → full_house", "makes_qualifying_harder": False,
            "effective_at": (T0 + timedelta(days=7)).isoformat(), "proposed_by": "Host key employee",
            "proposed_at": T0.isoformat(), "status": status, "applied_at": None,
            "approvals": [{"site": code, "site_name": code.title(), "approved_by": "k", "approved_at": T0.isoformat()}
                          for code in approvals]}
    return signed("rules", seq, body, sender="boardwalk", secret=HOST_TO_SITE)


class TestAtASite:
    def test_notice_shown_approved_here_and_adopted_when_in_effect(self, at_site, key_employee, client, staff):
        from apps.multicasino.services.setup import rules_hash

        system = at_site
        new_hash = rules_hash(rules=EASIER, two_claims_rule="first_received", contributions_while_suspended=False)
        headers, raw = rules_message(1, status="proposed", new_hash=new_hash, approvals=["boardwalk"])
        assert receive(headers=headers, raw=raw)[0] == 200
        change = SystemRuleChange.objects.get()
        client.force_login(staff(Role.DEALER))
        assert "four_of_a_kind → full_house" in client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
        assert client.post(f"/multicasino/rule-changes/{change.pk}/approve/").status_code == 403
        client.force_login(key_employee)
        client.post(f"/multicasino/rule-changes/{change.pk}/approve/")
        assert OutboxMessage.objects.get(kind="approval").body["reference"] == "rc_1"
        assert RuleApproval.objects.filter(change=change).count() == 2
        headers, raw = rules_message(2, status="in_effect", new_hash=new_hash,
                                     approvals=["boardwalk", "borgata", "tropicana"])
        receive(headers=headers, raw=raw)
        system.refresh_from_db()
        assert system.rules_hash == new_hash and system.rules == EASIER
        system.jackpot.refresh_from_db()
        assert system.jackpot.qualifying_hand == "full_house"
        assert BadBeatSystem.objects.get().rules_effective_at is not None

    def test_a_proposal_form_with_bad_input_is_a_form_error(self, host, client, key_employee):
        client.force_login(key_employee)
        assert b"Propose a rule change for every casino" in client.get("/multicasino/").content
        response = client.post("/multicasino/nj/rules/", {"nj-qualifying_hand": "four_of_a_kind",
                                                         "nj-minimum_players_dealt": "4", "nj-minimum_pot": "20",
                                                         "nj-maximum_contribution": "1", "nj-contribution_amount": "1",
                                                         "nj-reset_percentage": "10", "nj-losing_share": "50",
                                                         "nj-winning_share": "25", "nj-table_share": "20",
                                                         "nj-two_claims_rule": "first_received",
                                                         "nj-effective_at": "2099-01-01T10:00"})
        assert response.status_code == 400 and b"add up to 100" in response.content
        assert not SystemRuleChange.objects.exists()
