"""The jackpot API: its posted rules and balance, read by every role of the casino."""
from decimal import Decimal

import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [role for role in Role if role != Role.DEALER])
def test_every_role_reads_its_casino_jackpot(api, staff, casino, role):
    JackpotFactory(casino=casino, balance=Decimal("0.00"))
    api.force_authenticate(staff(role))
    response = api.get("/api/jackpot/")
    assert response.status_code == 200
    assert response.json()["balance"] == "0.00" == response.json()["contributions_total"]


def test_a_dealer_reads_the_jackpot_without_its_balance(api, staff, casino):
    """Dealers see no balances (issue 13: the pages refuse them the same data): the payout's posted rules and its
    displayed amount (14.19(k), shown to every player), not the balance nor the contributions."""
    JackpotFactory(casino=casino, balance=Decimal("1234.00"))
    api.force_authenticate(staff(Role.DEALER))
    response = api.get("/api/jackpot/")
    assert response.status_code == 200
    assert response.json()["balance"] is None and response.json()["contributions_total"] is None
    assert "1234" not in response.content.decode()


def test_anonymous_cannot_read_the_jackpot(api, casino):
    JackpotFactory(casino=casino)
    assert api.get("/api/jackpot/").status_code in (401, 403)


def test_no_jackpot_is_a_404(api, supervisor):
    api.force_authenticate(supervisor)
    assert api.get("/api/jackpot/").status_code == 404


@pytest.mark.proves("14.19(b)-rules-posted", "14.19(b)-current-amount")
def test_14_19_b_the_api_gives_every_payouts_posted_rules_and_accountings_record_only_to_who_may_read_it(
        api, staff, casino):
    """Every bad beat payout the casino offers comes with its posted rules and the amount its display shows, the same
    to every role (as the rules page and the display post them); accounting's record of it (balance, payable amount, reset reserve, contributions of all time) only
    to a role that may read it, null to a dealer and to a reading without a user. The published schema says the
    record is read-only and may be null."""
    from drf_spectacular.generators import SchemaGenerator

    from apps.badbeat.apis import BALANCE_FIELDS, JackpotOutput
    from apps.badbeat.models import Funding
    from apps.badbeat.services import create_secondary_jackpot

    primary = JackpotFactory(casino=casino, balance=Decimal("1234.56"), reset_reserve=Decimal("100.00"),
                             minimum_pot=Decimal("25.00"), reset_percentage=Decimal("12.5"),
                             displayed_amount=Decimal("1200.00"))
    secondary = create_secondary_jackpot(primary=primary, name="Mini", qualifying_hand="full_house",
                                         funding=Funding.CONTRIBUTIONS, contribution_amount=Decimal("0.50"),
                                         maximum_contribution=Decimal("0.50"), minimum_pot=Decimal("10.00"))
    rules = {}
    for role in (Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING, Role.DEALER):
        api.force_authenticate(staff(role))
        listed = {j["id"]: j for j in api.get("/api/jackpots/").json()}
        assert set(listed) == {primary.pk, secondary.pk}
        rules[role] = {pk: {k: v for k, v in j.items() if k not in BALANCE_FIELDS} for pk, j in listed.items()}
        record = {k: listed[primary.pk][k] for k in BALANCE_FIELDS}
        if role == Role.DEALER:
            assert record == dict.fromkeys(BALANCE_FIELDS)
        else:
            assert record["balance"] == "1234.56" and record["reset_reserve"] == "100.00"
            assert record["payable_amount"] is not None and record["contributions_total"] == "0.00"
    assert rules[Role.DEALER] == rules[Role.POKER_SHIFT_SUPERVISOR] == rules[Role.ACCOUNTING]
    posted = rules[Role.DEALER][primary.pk]
    assert posted["displayed_amount"] == "1200.00"  # the amount the display shows, to every role (14.19(b))
    assert (posted["minimum_pot"], posted["reset_percentage"], posted["contribution_amount"]) == (
        "25.00", "12.50", "1.00")
    assert posted["qualifying"] == "losing hand four of a kind or better, at least 2 players dealt in"
    assert rules[Role.DEALER][secondary.pk]["minimum_pot"] == "10.00"
    assert rules[Role.DEALER][secondary.pk]["funding"] == Funding.CONTRIBUTIONS
    assert {k: JackpotOutput(primary).data[k] for k in BALANCE_FIELDS} == dict.fromkeys(BALANCE_FIELDS)
    schema = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]["JackpotOutput"]
    for name in ("balance", "reset_reserve"):
        assert schema["properties"][name].get("readOnly") is True and schema["properties"][name].get("nullable")
