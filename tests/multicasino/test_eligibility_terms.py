"""Which pots can be a bad beat (N.J.A.C. 13:69F-14.19(b)3: straddled pots, bomb pots, hands run more than once) are
terms of a multi-casino system's one rule set (14.20(a), (c)1): proposed, sent, compared by the rules hash, adopted
by each casino's payout and posted. A rule set or message without them — stored, or sent by a casino whose software
predates them — reads each as its default, and hashes the same."""
import hashlib
import html
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from apps.badbeat.models import Jackpot
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.multicasino.forms import SystemRulesForm
from apps.multicasino.models import ELIGIBILITY_DEFAULTS, OutboxMessage, SystemRuleChange
from apps.multicasino.services.rules import apply_due_system_rules, approve_system_rules, propose_system_rules
from apps.multicasino.services.setup import RULE_KEYS, add_site, rules_hash, set_up_system
from apps.multicasino.signing import canonical
from tests.factories import JackpotFactory
from tests.multicasino.support import receive
from tests.multicasino.test_claims import A_TO_HOST, B_TO_HOST, HOST_TO_SITE, signed
from tests.multicasino.test_inbox import RULES
from tests.multicasino.test_rule_changes import approve_from

D = Decimal
pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)
TERMS = ("straddled_pots_qualify", "bomb_pots_qualify", "multiple_runs_qualify")


def old_hash(rules: dict) -> str:
    """The rules hash as a casino whose software predates the terms computes it."""
    return hashlib.sha256(canonical({"rules": rules, "two_claims_rule": "first_received",
                                     "contributions_while_suspended": False}).encode()).hexdigest()


def new_hash(rules: dict) -> str:
    return rules_hash(rules=rules, two_claims_rule="first_received", contributions_while_suspended=False)


@pytest.fixture
def key_employee(staff):
    return staff(Role.ADMIN)


@pytest.fixture
def host(settings, casino):
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("20.00"), minimum_players_dealt=4)
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/",
             inbound_secrets=[A_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://b.test/",
             inbound_secrets=[B_TO_HOST], outbound_secrets=[HOST_TO_SITE])
    return system


@pytest.fixture
def at_site(settings, casino):
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("20.00"), minimum_players_dealt=4, bomb_pots_qualify=False)
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=RULES,
                           jackpot=jackpot)
    add_site(system=system, code="borgata", name="Borgata", is_self=True)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/",
             outbound_secrets=[A_TO_HOST], inbound_secrets=[HOST_TO_SITE])
    return system


def test_the_terms_are_rules_of_the_system_with_the_payouts_defaults():
    assert set(TERMS) <= set(RULE_KEYS)
    assert ELIGIBILITY_DEFAULTS == {name: Jackpot._meta.get_field(name).default for name in TERMS}


def test_14_20_a_a_rule_set_without_the_terms_hashes_as_with_them_at_their_defaults_and_otherwise_not():
    """14.20(a): every casino holds the same rules, checked by their hash. A casino whose rule set leaves the terms
    out holds their defaults: its hash is the one a casino holding them at their defaults computes — and the hash an
    older casino computes — so neither is suspended; a term set otherwise is another rule set."""
    assert new_hash(RULES) == new_hash({**RULES, **ELIGIBILITY_DEFAULTS}) == old_hash(RULES)
    for term, default in ELIGIBILITY_DEFAULTS.items():
        assert new_hash({**RULES, term: not default}) != new_hash(RULES)


def test_a_system_set_up_without_the_terms_keeps_its_hash_and_posts_the_defaults(host):
    assert host.rules == RULES and host.rules_hash == old_hash(RULES)
    assert {k: host.posted_rules[k] for k in TERMS} == {"straddled_pots_qualify": True, "bomb_pots_qualify": True,
                                                       "multiple_runs_qualify": False}
    with pytest.raises(DomainError) as error:
        set_up_system(code="x", name="X", host_name="H", host_address="A", rules={**RULES, "bomb_pots": True})
    assert error.value.field == "bomb_pots"


def test_14_20_c_1_a_term_changed_at_the_host_is_sent_and_adopted_by_the_payout(host, key_employee):
    """14.20(c)1: hands run more than once made to qualify (easier: allowed at any time, 14.19(q)) is proposed with its
    notice, sent to every casino with the whole rule set, and once every casino approves, the host's payout judges by
    it."""
    with time_machine.travel(T0, tick=False):
        change = propose_system_rules(system=host, rules={**RULES, "multiple_runs_qualify": True},
                                      effective_at=T0 + timedelta(days=7), proposed_by=key_employee)
        assert not change.makes_qualifying_harder
        assert change.summary == "multiple runs qualify: False → True"
        assert change.rules_hash == new_hash({**RULES, "multiple_runs_qualify": True}) != host.rules_hash
        sent = OutboxMessage.objects.filter(kind="rules").first().body["rules"]
        assert {k: sent[k] for k in TERMS} == {"straddled_pots_qualify": True, "bomb_pots_qualify": True,
                                               "multiple_runs_qualify": True}
        approve_system_rules(change=change, user=key_employee)
        approve_from("borgata", A_TO_HOST, change)
        approve_from("tropicana", B_TO_HOST, change, seq=1)
    with time_machine.travel(T0 + timedelta(days=8), tick=False):
        assert apply_due_system_rules() == 1
    host.refresh_from_db()
    host.jackpot.refresh_from_db()
    assert host.rules["multiple_runs_qualify"] is True and host.jackpot.multiple_runs_qualify is True


@pytest.mark.parametrize("term", ["straddled_pots_qualify", "bomb_pots_qualify"])
def test_14_19_q_a_kind_of_pot_that_no_longer_qualifies_waits_for_the_payout_to_be_won(host, key_employee, term):
    """14.19(q): straddled pots or bomb pots taken out of the bad beat make qualifying harder: refused before the
    payout is won (the system took contributions under its rules and paid nothing), like a higher qualifying hand."""
    from apps.multicasino.services.contributions import apply_contribution

    borgata = host.sites.get(code="borgata")
    with time_machine.travel(T0, tick=False):
        host.rules_effective_at = T0 - timedelta(days=30)
        host.save()
        apply_contribution(site=borgata, body={"reference": "1", "amount": "1.00", "gaming_day": "2026-11-23"})
        with pytest.raises(DomainError, match="won"):
            propose_system_rules(system=host, rules={**RULES, term: False}, effective_at=T0 + timedelta(days=7),
                                 proposed_by=key_employee)
    assert not SystemRuleChange.objects.exists()


def test_a_term_that_is_not_true_or_false_is_refused_by_name(host, key_employee):
    with time_machine.travel(T0, tick=False), pytest.raises(DomainError) as error:
        propose_system_rules(system=host, rules={**RULES, "bomb_pots_qualify": "yes"},
                             effective_at=T0 + timedelta(days=7), proposed_by=key_employee)
    assert error.value.field == "bomb_pots_qualify"


def rules_message(seq, *, rules, status, rules_hash):
    body = {"reference": "rc_1", "rules": rules, "two_claims_rule": "first_received", "rules_hash": rules_hash,
            "summary": "qualifying hand: four_of_a_kind → full_house", "makes_qualifying_harder": False,
            "effective_at": (T0 + timedelta(days=7)).isoformat(), "proposed_by": "Host key employee",
            "proposed_at": T0.isoformat(), "status": status, "applied_at": None, "approvals": []}
    return signed("rules", seq, body, sender="boardwalk", secret=HOST_TO_SITE)


def test_14_20_c_1_an_older_hosts_message_without_the_terms_reads_as_their_defaults(at_site):
    """14.20(c)1: a host whose software predates the terms sends a rule set without them and its hash; once in
    effect, this casino holds that hash (the heartbeats agree: no suspension) and its payout the defaults — here bomb
    pots, which it had posted as not qualifying, qualify again as the system's rules say."""
    easier = {**RULES, "qualifying_hand": "full_house", "qualifying_minimum_rank": 14}
    headers, raw = rules_message(1, rules=easier, status="in_effect", rules_hash=old_hash(easier))
    assert receive(headers=headers, raw=raw)[0] == 200
    at_site.refresh_from_db()
    at_site.jackpot.refresh_from_db()
    assert at_site.rules == easier and at_site.rules_hash == old_hash(easier) == new_hash(easier)
    assert at_site.jackpot.bomb_pots_qualify is True and at_site.jackpot.qualifying_hand == "full_house"


def test_a_newer_hosts_message_with_a_term_set_is_adopted(at_site):
    rules = {**RULES, **ELIGIBILITY_DEFAULTS, "straddled_pots_qualify": False}
    headers, raw = rules_message(1, rules=rules, status="in_effect", rules_hash=new_hash(rules))
    assert receive(headers=headers, raw=raw)[0] == 200
    at_site.jackpot.refresh_from_db()
    assert (at_site.jackpot.straddled_pots_qualify, at_site.jackpot.bomb_pots_qualify) == (False, True)


def test_14_20_d_1_the_posting_says_which_pots_qualify(client, staff, host):
    """14.20(d)1: the posting gives the payout's rules, the kinds of pot that qualify among them."""
    client.force_login(staff(Role.DEALER))
    posting = html.unescape(client.get("/multicasino/posting/").content.decode())
    terms = posting.split('<dt>Pots that qualify</dt><dd data-testid="eligible-pots">')[1].split("</dd>")[0]
    assert terms == ("straddled pots qualify; bomb pots qualify; a hand run more than once does not qualify")
    host.rules = {**RULES, "straddled_pots_qualify": False, "multiple_runs_qualify": True}
    host.save()
    posting = html.unescape(client.get("/multicasino/posting/").content.decode())
    assert ("straddled pots do not qualify; bomb pots qualify; a hand run more than once qualifies when any run's "
            "showdown does") in posting


def test_the_proposal_form_offers_the_terms_prefilled_and_posts_them(host, client, key_employee):
    form = SystemRulesForm(initial={**host.posted_rules, "two_claims_rule": host.two_claims_rule})
    assert {name: form[name].initial for name in TERMS} == ELIGIBILITY_DEFAULTS
    client.force_login(key_employee)
    page = client.get("/multicasino/").content.decode()
    assert all(f'name="nj-{name}"' in page for name in TERMS)
    posted = {"nj-qualifying_hand": "four_of_a_kind", "nj-both_hole_cards_must_play": "on",
              "nj-minimum_players_dealt": "4", "nj-minimum_pot": "20", "nj-maximum_contribution": "1",
              "nj-contribution_amount": "1", "nj-reset_percentage": "10", "nj-losing_share": "50",
              "nj-winning_share": "25", "nj-table_share": "25", "nj-two_claims_rule": "first_received",
              "nj-straddled_pots_qualify": "on", "nj-bomb_pots_qualify": "on", "nj-multiple_runs_qualify": "on",
              "nj-effective_at": "2099-01-01T10:00"}
    assert client.post("/multicasino/nj/rules/", posted).status_code == 302
    change = SystemRuleChange.objects.get()
    assert {k: change.rules[k] for k in TERMS} == {"straddled_pots_qualify": True, "bomb_pots_qualify": True,
                                                   "multiple_runs_qualify": True}
