"""The bad beat payout's rules as the poker room posts them (N.J.A.C. 13:69F-14.19(b), (p)): the rules page, read by
every role, gives the maximum contribution and how it is calculated, the minimum pot, the qualifying requirements and
the payout's shares, and the percentage of the day's contributions that funds the next payout; a change of the rules
shows on it."""
import html
import re
from decimal import Decimal

import pytest

from apps.core.roles import Role
from tests.factories import JackpotFactory

pytestmark = pytest.mark.django_db
D = Decimal


def posted(client) -> dict[str, str]:
    """The rules page's facts: {term: its words}, the markup dropped."""
    page = html.unescape(client.get("/jackpot/rules/").content.decode())
    block = page[page.index('data-testid="rules-'):]
    block = block[:block.index("</section>")]
    return {re.sub(r"<[^>]+>", "", dt).strip(): re.sub(r"<[^>]+>", "", dd).strip()
            for dt, dd in re.findall(r"<dt>(.*?)</dt>\s*<dd[^>]*>(.*?)</dd>", block, re.S)}


@pytest.mark.proves("14.19(b)-rules-posted", "14.19(b)1-posted", "14.19(b)2-posted", "14.19(b)3-posted",
                    "14.19(p)-posted")
@pytest.mark.parametrize("role", [Role.DEALER, Role.FLOORPERSON, Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING])
def test_14_19_b_the_rules_page_posts_each_term_the_clause_names(client, staff, casino, role):
    JackpotFactory(casino=casino, contribution_amount=None, contribution_percentage=D("5"),
                   maximum_contribution=D("3.00"), minimum_pot=D("25.00"), qualifying_minimum_rank=8,
                   both_hole_cards_must_play=True, minimum_players_dealt=6, reset_percentage=D("12.5"))
    client.force_login(staff(role))
    facts = posted(client)
    assert facts["Contribution (b)1"].startswith("5.00% of the pot after rake, at most $3.00")  # how, and the most
    assert facts["Minimum pot (b)2"] == "$25.00"
    assert facts["Qualifying bad beat (b)3"] == ("losing hand four of a kind of eights or better, both hole cards must "
                                                 "play, at least 6 players dealt in")
    assert facts["Payout shares (b)3"] == "losing player 50 %, winning player 25 %, other players dealt in 25 %"
    assert facts["Reset amount (p)"].startswith("12.50% of each gaming day's contributions funds the next payout")
