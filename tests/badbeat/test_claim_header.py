"""The claim page's header says who delivered the payout and when (N.J.A.C. 13:69F-14.19(i)2, (j)), not who verified
it (14.19(i)); its amounts and times read as on every page ("$2,675.00", "Nov 24, 2026 09:55")."""
import re
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from apps.badbeat.models import Claim, Payout
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, PokerTableFactory

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(casino):
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino)
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(
        started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
            PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name="Ann"),
            PlayerIn(seat=2, contributed=D("50"), hole_cards="5s 4s", name="Ben")]))
    return Claim.objects.get(round_of_play=round_of_play)


def header(client, claim) -> str:
    page = client.get(f"/jackpot/claims/{claim.pk}/").content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.split("<p>", 1)[1].split("</p>", 1)[0])).strip()


def shown(moment) -> str:
    local = timezone.localtime(moment)
    return f"{local:%b} {local.day}, {local.year} {local:%H:%M}"


def test_14_19_i_2_the_paid_claim_names_who_delivered_the_payout_and_when(client, api, staff, claim):
    supervisor = staff(Role.POKER_SHIFT_SUPERVISOR, first_name="Poker", last_name="Demo")
    guard = staff(Role.SECURITY, first_name="Sam", last_name="Guard")
    verified_at = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=1)
    client.force_login(supervisor)
    with time_machine.travel(verified_at, tick=False):
        api.force_authenticate(supervisor)
        assert api.post(f"/api/claims/{claim.pk}/verify/").status_code == 200
    assert header(client, claim) == f"Verified — payout pending by Poker Demo at {shown(verified_at)}"

    with time_machine.travel(verified_at + timedelta(minutes=5), tick=False):
        api.force_authenticate(guard)
        paid = api.post(f"/api/claims/{claim.pk}/payout/", {"method": "cash", "location": "table",
                                                            "delivered_by": guard.pk})
        assert paid.status_code in (200, 201), paid.content
    payout = Payout.objects.get(claim=claim)
    assert header(client, claim) == f"Paid — delivered by Sam Guard at {shown(payout.paid_at)}"
    assert "Poker Demo" not in header(client, claim) and shown(verified_at) not in header(client, claim)

    page = client.get(f"/jackpot/claims/{claim.pk}/").content.decode()
    paid_section = page.split('data-testid="payout"')[1].split("</section>")[0]
    amount = f"${payout.amount:,.2f}"
    assert re.search(r"\$\d{1,3}(,\d{3})*\.\d\d in cash", paid_section) and f"{amount} in cash" in paid_section
    assert f"delivered by Sam Guard at {shown(payout.paid_at)}" in paid_section
