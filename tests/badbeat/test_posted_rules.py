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
    """The rules page's facts: {term: its words}, the markup dropped (the first payout's)."""
    response = client.get("/jackpot/rules/")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
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
    offered = 'data-testid="rule-change-form"' in client.get("/jackpot/rules/").content.decode()
    assert offered is (role == Role.POKER_SHIFT_SUPERVISOR)  # a change is posted by a supervisor, read by all


@pytest.mark.proves("14.19(b)1-posted")
def test_14_19_b_1_the_rules_give_the_maximum_and_how_a_contribution_is_calculated(client, staff, casino):
    """14.19(b)1: the rules always give the most a pot contributes and one way to calculate a contribution, and the
    page posts both — a fixed amount per pot, or a percentage of the pot after rake at most the maximum, or (a
    secondary funded from the primary) a portion of the primary payout. Rules that could not be posted whole are
    refused, naming the rule: a fixed amount and a percentage both, or neither; a fixed amount or a percentage of
    0 (or one stored below 0); a maximum of $0.00. The smallest of each is taken."""
    from apps.badbeat.models import Funding
    from apps.badbeat.services import validate_posted_rules
    from apps.core.exceptions import DomainError

    fixed = JackpotFactory(casino=casino, contribution_amount=D("2.00"), maximum_contribution=D("2.00"))
    client.force_login(staff(Role.DEALER))
    assert posted(client)["Contribution (b)1"] == "$2.00 per pot; at most $2.00 from a pot"
    for values, field in [({"contribution_percentage": "5"}, "contribution_amount"),
                          ({"contribution_amount": None}, "contribution_amount"),
                          ({"contribution_amount": None, "contribution_percentage": "0"}, "contribution_percentage"),
                          ({"contribution_amount": "0.00"}, "contribution_amount"),
                          ({"maximum_contribution": "0.00"}, "maximum_contribution")]:
        with pytest.raises(DomainError) as refused:
            validate_posted_rules(values=values, jackpot=fixed)
        assert refused.value.field == field, values
    assert validate_posted_rules(values={"contribution_amount": "0.01", "maximum_contribution": "0.01"},
                                 jackpot=fixed) == {"contribution_amount": D("0.01"), "maximum_contribution": D("0.01")}
    assert validate_posted_rules(values={"contribution_amount": None, "contribution_percentage": "0.01"},
                                 jackpot=fixed) == {"contribution_amount": None, "contribution_percentage": D("0.01")}
    for stored, field, message in [  # rules stored below 0 take no change until set right, whatever is changed
            ({"contribution_amount": D("-1.00")}, "contribution_amount", "The contribution must be positive."),
            ({"contribution_amount": None, "contribution_percentage": D("-1.00")}, "contribution_percentage",
             "The percentage must be above 0."),
            ({"maximum_contribution": D("-1.00")}, "maximum_contribution", "The maximum contribution must be positive.")]:
        with pytest.raises(DomainError) as refused:
            validate_posted_rules(values={"name": "Bad Beat"}, jackpot=JackpotFactory.build(casino=casino, **stored))
        assert (refused.value.field, refused.value.message) == (field, message)
    portion = JackpotFactory.build(casino=casino, funding=Funding.PRIMARY_PORTION, contribution_amount=None,
                                   primary_portion_percentage=D("10.00"))
    assert validate_posted_rules(values={"minimum_pot": "0.00"}, jackpot=portion) == {"minimum_pot": D("0.00")}
    assert portion.contribution_label == "10.00% of the primary payout, deducted from the primary payout if won"


@pytest.mark.proves("14.19(b)2-posted")
def test_14_19_b_2_the_rules_always_give_a_minimum_pot(casino):
    """14.19(b)2: the rules give the minimum pot a contribution needs, $0.00 or more; payout rules stored without
    one, or with one below $0.00, take no change until it is set."""
    from apps.badbeat.services import validate_posted_rules
    from apps.core.exceptions import DomainError

    for minimum in ("0.00", "25.00"):
        assert validate_posted_rules(values={"minimum_pot": minimum}, jackpot=JackpotFactory(casino=casino)) == {
            "minimum_pot": D(minimum)}
    for stored in (None, D("-0.01")):
        with pytest.raises(DomainError) as refused:
            validate_posted_rules(values={"name": "Bad Beat"}, jackpot=JackpotFactory.build(casino=casino,
                                                                                             minimum_pot=stored))
        assert refused.value.field == "minimum_pot"


@pytest.mark.proves("14.19(b)3-posted")
def test_14_19_b_3_the_rules_always_give_the_qualifying_requirements_and_the_shares(casino):
    """14.19(b)3: the rules give a qualifying hand of the posted kinds, a minimum rank of deuces to aces (or none),
    two to ten players dealt in, and shares of the payout adding up to 100 %. A change that would leave
    rules that cannot be posted so is refused naming the rule, as are stored rules out of range (which take no
    change until set right); the bounds themselves are taken."""
    from apps.badbeat.services import validate_posted_rules
    from apps.core.exceptions import DomainError

    jackpot = JackpotFactory(casino=casino)
    taken = {"qualifying_minimum_rank": 2, "minimum_players_dealt": 10, "losing_share": D("40.00"),
             "winning_share": D("35.00")}
    assert validate_posted_rules(values=taken, jackpot=jackpot) == taken
    assert validate_posted_rules(values={"qualifying_minimum_rank": 14, "minimum_players_dealt": 2},
                                 jackpot=jackpot) == {"qualifying_minimum_rank": 14, "minimum_players_dealt": 2}
    assert validate_posted_rules(values={"qualifying_minimum_rank": None}, jackpot=jackpot) == {
        "qualifying_minimum_rank": None}  # any hand of the kind
    with pytest.raises(DomainError) as refused:
        validate_posted_rules(values={"losing_share": "60"}, jackpot=jackpot)
    assert refused.value.field == "losing_share"
    for stored, field in [({"qualifying_hand": "five_aces"}, "qualifying_hand"),
                          ({"qualifying_minimum_rank": 1}, "qualifying_minimum_rank"),
                          ({"qualifying_minimum_rank": 15}, "qualifying_minimum_rank"),
                          ({"minimum_players_dealt": 1}, "minimum_players_dealt"),
                          ({"minimum_players_dealt": 11}, "minimum_players_dealt"),
                          ({"minimum_players_dealt": None}, "minimum_players_dealt")]:
        with pytest.raises(DomainError) as refused:
            validate_posted_rules(values={"name": "Bad Beat"}, jackpot=JackpotFactory.build(casino=casino, **stored))
        assert refused.value.field == field, stored
