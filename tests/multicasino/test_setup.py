"""Setting up a multi-casino bad beat system: the agreement as the system records it (N.J.A.C. 13:69F-14.20(b), (c))."""
from decimal import Decimal

import pytest

from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.multicasino.models import BadBeatSystem
from apps.multicasino.services.setup import add_site, rules_hash, set_up_system
from tests.factories import JackpotFactory
from tests.multicasino.test_inbox import RULES

pytestmark = pytest.mark.django_db


@pytest.mark.proves("14.20(b)-recorded", "14.20(c)2", "14.20(c)3")
def test_14_20_b_c_2_c_3_the_agreement_is_recorded_with_its_rules_funds_and_record_keeper(settings, casino, client,
                                                                                            staff):
    """14.20(b): the system runs under one written agreement, executed by each participating casino: it is recorded
    once with its one rule set (and that set's hash), a rule set missing a rule or with an unknown one is refused and
    writes nothing, and each participating casino is on it. 14.20(c)2: how funds and fees are kept and paid, and
    14.20(c)3: who keeps the records, are recorded and shown on the host's report."""
    settings.MULTICASINO_TRANSPORT = "tests.multicasino.test_claims.refuse_transport"
    for bad, field in (({k: v for k, v in RULES.items() if k != "losing_share"}, "rules"),
                       ({**RULES, "jackpot_colour": "red"}, "jackpot_colour")):
        with pytest.raises(DomainError) as exc:
            set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk", host_address="AC", rules=bad)
        assert exc.value.field == field
    assert not BadBeatSystem.objects.exists()
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC", host_address="AC",
                           rules=RULES, jackpot=JackpotFactory(casino=casino, minimum_pot=Decimal("0")),
                           funds_and_fees="Each casino pays a $250 monthly fee from its own funds",
                           records_kept_by="Boardwalk accounting department")
    assert system.rules == RULES
    assert system.rules_hash == rules_hash(rules=RULES, two_claims_rule=system.two_claims_rule,
                                           contributions_while_suspended=False)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
    add_site(system=system, code="borgata", name="Borgata", inbox_url="http://a.test/")
    assert sorted(system.sites.values_list("code", flat=True)) == ["boardwalk", "borgata"]
    client.force_login(staff(Role.ACCOUNTING))
    page = client.get("/multicasino/nj/report/").content.decode()
    assert "Each casino pays a $250 monthly fee from its own funds" in page
    assert "Records kept by: Boardwalk accounting department" in page
