"""The jackpot API: its posted rules and balance, read by every role of the casino."""
from decimal import Decimal

import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", list(Role))
def test_every_role_reads_its_casino_jackpot(api, staff, casino, role):
    JackpotFactory(casino=casino, balance=Decimal("0.00"))
    api.force_authenticate(staff(role))
    response = api.get("/api/jackpot/")
    assert response.status_code == 200
    assert response.json()["balance"] == "0.00" == response.json()["contributions_total"]


def test_anonymous_cannot_read_the_jackpot(api, casino):
    JackpotFactory(casino=casino)
    assert api.get("/api/jackpot/").status_code in (401, 403)


def test_no_jackpot_is_a_404(api, supervisor):
    api.force_authenticate(supervisor)
    assert api.get("/api/jackpot/").status_code == 404
