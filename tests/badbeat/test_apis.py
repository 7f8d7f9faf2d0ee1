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
