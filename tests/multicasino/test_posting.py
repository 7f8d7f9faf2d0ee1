"""What each poker room of a multi-casino bad beat payout posts (N.J.A.C. 13:69F-14.20(d)1): the payout's information
(its amount, qualifying hand, contribution, shares, reset and the payouts made) and every participating casino with
the host's name and address, on the posting page every role reads."""
import html
import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from apps.core.roles import Role
from apps.multicasino.models import BadBeatSystem, SystemClaim
from apps.multicasino.services.setup import add_site, set_up_system
from tests.factories import JackpotFactory
from tests.multicasino.test_inbox import RULES

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)


@pytest.fixture
def system(casino):
    system = set_up_system(code="nj", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC",
                           host_address="1 Boardwalk, Atlantic City", rules=RULES,
                           jackpot=JackpotFactory(casino=casino, minimum_pot=Decimal("0")))
    add_site(system=system, code="borgata", name="Borgata", is_self=True)
    add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, inbox_url="http://host.test/")
    add_site(system=system, code="tropicana", name="Tropicana", inbox_url="http://b.test/")
    BadBeatSystem.objects.filter(pk=system.pk).update(pool=Decimal("12345.67"))
    return system


def page(client, staff) -> str:
    client.force_login(staff(Role.DEALER))
    return html.unescape(client.get("/multicasino/posting/").content.decode())


@pytest.mark.proves("14.20(d)1-participants")
def test_14_20_d_1_ii_the_posting_names_every_participating_casino_and_the_host(client, staff, system):
    posting = page(client, staff)
    assert "<dt>Host casino</dt><dd>Boardwalk Casino Hotel LLC, 1 Boardwalk, Atlantic City</dd>" in posting
    participants = posting.split("<dt>Participating casinos</dt><dd>")[1].split("</dd>")[0]
    assert {name.split(" (")[0] for name in participants.split("; ")} == {"Borgata", "Boardwalk", "Tropicana"}


@pytest.mark.proves("14.20(d)1-information")
def test_14_20_d_1_i_the_posting_gives_the_payouts_information(client, staff, system):
    posting = page(client, staff)
    assert "Current amount: <strong>$12,345.67</strong>" in posting
    qualifying = posting.split("<dt>Qualifying hand</dt><dd>")[1].split("</dd>")[0]
    assert qualifying.startswith("Four of a kind or better")  # the hand as patrons read it, not its stored code
    assert qualifying.endswith("both hole cards must play, at least 4 players dealt in")
    assert "$1.00 per pot, at most $1.00, from pots of $20.00 or more" in posting
    assert "losing player 50.00 %, winning player 25.00 %, other players dealt in 25.00 %" in posting
    assert "10.00% of each day's contributions funds the next payout" in posting
    assert "Not won yet." in posting
    site = system.sites.get(code="tropicana")
    SystemClaim.objects.create(system=system, site=site, reference="9", status="paid", amount=Decimal("9000.00"),
                               table_number=4, round_reference="r", losing_hand="Four of a kind", losing_cards="",
                               winning_hand="Straight flush", winning_cards="", verified_by="v", verified_at=T0,
                               paid_at=T0)
    posting = page(client, staff)
    assert "$9,000.00 at Tropicana — Four of a kind beaten by Straight flush" in posting
    assert "Not won yet." not in posting
    for day in range(1, 6):  # five later payouts: the posting lists the five most recent, newest first
        SystemClaim.objects.create(system=system, site=site, reference=f"9-{day}", status="paid",
                                   amount=Decimal(f"100{day}.00"), table_number=4, round_reference=f"r{day}",
                                   losing_hand="Four of a kind", losing_cards="", winning_hand="Straight flush",
                                   winning_cards="", verified_by="v", verified_at=T0 + timedelta(days=day),
                                   paid_at=T0 + timedelta(days=day))
    listed = re.findall(r"\$([\d,.]+) at Tropicana", page(client, staff))
    assert listed == ["1,005.00", "1,004.00", "1,003.00", "1,002.00", "1,001.00"]
