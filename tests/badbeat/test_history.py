"""The history tabs of the bad beat records (apps.badbeat.history): a claim's with its payout on the claim page, the rule
changes' on the posted rules page — who changed what, when, from what to what, for the roles that read the record
(N.J.A.C. 13:69F-14.19(i), (j), (q)). The claim's own changes are in test_safeguards.py."""
from datetime import timedelta
from decimal import Decimal

import pghistory
import pytest
from django.utils import timezone

from apps.badbeat.models import RuleChange
from apps.badbeat.services import record_payout, verify_claim
from apps.core.roles import Role
from tests.badbeat.test_safeguards import claim, table  # noqa: F401 (fixtures)
from tests.factories import CasinoFactory, JackpotFactory, StaffFactory
from tests.support.history import history_rows

pytestmark = pytest.mark.django_db


def test_the_claim_page_shows_its_payout_recorded_by_whom(client, casino, staff, claim):  # noqa: F811
    supervisor, guard = staff(Role.POKER_SHIFT_SUPERVISOR), staff(Role.SECURITY, first_name="Gus", last_name="Ward")
    with pghistory.context(user=supervisor.pk):
        verify_claim(claim=claim, supervisor=supervisor)
    with pghistory.context(user=guard.pk):
        record_payout(claim=claim, method="cash", location="cage", delivered_by=guard, recorded_by=guard)
    client.force_login(staff(Role.DEALER))  # every role reads a claim (badbeat.view_claim)
    rows = history_rows(client.get(f"/jackpot/claims/{claim.pk}/?tab=history"))
    payout = next(r for r in rows if r[1] == "Payout")
    assert payout[0] == "Gus Ward" and payout[2] == "Recorded"
    for shown in ("Amount: $11.00", "Paid from: Bad Beat Jackpot", "Paid in: Cash",
                  "Where: At the cashiers' cage", "Delivered by: Gus Ward"):
        assert shown in payout[3]
    assert [r[2] for r in rows] == ["Recorded", "Changed", "Changed", "Opened"]  # newest first


def test_a_claim_history_is_read_by_its_casino_only(client, claim):  # noqa: F811
    assert client.get(f"/jackpot/claims/{claim.pk}/?tab=history").status_code == 302  # to sign in
    client.force_login(StaffFactory(casino=CasinoFactory(), roles=list(Role)))
    assert client.get(f"/jackpot/claims/{claim.pk}/?tab=history").status_code == 404


@pytest.fixture
def posted(client, casino, staff):
    """A notice of rule change posted on the rules page by a supervisor, then withdrawn there by an administrator."""
    jackpot = JackpotFactory(casino=casino, minimum_pot=Decimal("20.00"))
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR, first_name="Sue", last_name="Park")
    admin = staff(Role.ADMIN, first_name="Al", last_name="Minh")
    later = timezone.localtime(timezone.now() + timedelta(days=3))
    client.force_login(supervisor)
    for value in ("30.00", "40.00"):
        response = client.post("/jackpot/rules/", {"jackpot": jackpot.pk, "field": "minimum_pot", "value": value,
                                                   "effective_at": f"{later:%Y-%m-%dT%H:%M}",
                                                   "summary": f"Minimum pot ${value}"})
        assert response.status_code == 302, response.content.decode()[:3000]
    change = RuleChange.objects.get(changes={"minimum_pot": "30.00"})
    client.force_login(admin)
    assert client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"}).status_code == 302
    client.logout()
    return change


@pytest.mark.parametrize("role", list(Role), ids=str)
def test_every_reader_of_the_rules_sees_who_posted_and_withdrew_a_notice(client, staff, posted, role):
    client.force_login(staff(role))
    rows = history_rows(client.get(f"/jackpot/rules/?tab=history&change={posted.pk}"))
    assert [(who, what) for who, _, what, _ in rows] == [("Al Minh", "Changed"), ("Sue Park", "Notice posted")]
    withdrawn, notice = rows
    assert withdrawn[1] == f"Rule change #{posted.pk} (Bad Beat Jackpot)"
    assert "Status: Notice posted, takes effect later → Withdrawn" in withdrawn[3]
    assert "Withdrawn by: — → Al Minh" in withdrawn[3]
    assert "Changes: minimum pot: 30.00" in notice[3] and "Proposed by: Sue Park" in notice[3]
    everything = history_rows(client.get("/jackpot/rules/?tab=history"))
    assert len(everything) == 3 and everything[0][2] == "Changed"  # both notices; the withdrawal is the newest


def test_the_rules_history_is_of_its_casino_and_takes_a_record_number(client, posted):
    client.force_login(StaffFactory(casino=CasinoFactory(), roles=[Role.POKER_SHIFT_SUPERVISOR]))
    assert history_rows(client.get(f"/jackpot/rules/?tab=history&change={posted.pk}")) == []
    assert client.get("/jackpot/rules/?tab=history&change=x1").status_code == 400
    assert client.get("/jackpot/rules/?tab=history&history=nonsense").status_code == 400


def test_the_rules_page_answered_from_a_withdrawal_keeps_its_own_tabs(client, staff, posted):
    client.force_login(staff(Role.POKER_SHIFT_SUPERVISOR))
    response = client.post(f"/jackpot/rules/changes/{posted.pk}/withdraw/", {"confirm": "yes"})  # withdrawn already
    assert response.status_code == 400
    page = response.content.decode()
    assert 'href="/jackpot/rules/?tab=history"' in page and 'href="/jackpot/rules/"' in page
    assert f'href="/jackpot/rules/?tab=history&amp;change={posted.pk}"' in page  # the notice's own history
