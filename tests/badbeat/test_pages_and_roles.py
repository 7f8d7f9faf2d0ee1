"""Who may do what with the bad beat payout, by page and API (N.J.A.C. 13:69F-14.19(h), (i), (k))."""
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.badbeat.models import Claim, ClaimStatus
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.badbeat.test_posted_rules import posted
from tests.factories import JackpotFactory, PokerTableFactory
from tests.support.cards import seen

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(casino):
    JackpotFactory(casino=casino, minimum_pot=D("0"))
    table = PokerTableFactory(casino=casino)
    round_of_play = record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="9h 9d 6s 7s 8s", players=[
        PlayerIn(seat=1, contributed=D("50"), hole_cards="9s 9c", name="Ann"),
        PlayerIn(seat=2, contributed=D("50"), hole_cards="5s 4s", name="Ben")]))
    return Claim.objects.get(round_of_play=round_of_play)


PAGES = ["/jackpot/display/", "/jackpot/rules/", "/jackpot/claims/", "/jackpot/display/adjust/"]


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("url", PAGES)
def test_every_role_reads_the_jackpot_pages(client, staff, claim, role, url):
    """Every role reads the jackpot's pages but a dealer the display adjustments (dealers see no adjustments, issue
    13; tests/core/test_role_policy.py walks every URL)."""
    client.force_login(staff(role))
    expected = 403 if (role, url) == (Role.DEALER, "/jackpot/display/adjust/") else 200
    assert client.get(url).status_code == expected


@pytest.mark.parametrize("url", PAGES)
def test_anonymous_is_sent_to_log_in(client, url):
    assert client.get(url).status_code == 302


def test_claim_page_shows_the_engines_verdict(client, supervisor, claim):
    client.force_login(supervisor)
    page = client.get(f"/jackpot/claims/{claim.pk}/").content.decode()
    assert "qualifies" in page and "Four of a kind" in page and "Straight flush" in page
    assert "2 hole cards played (9♠ 9♣)" in seen(page)


@pytest.mark.parametrize("role", [r for r in Role if r != Role.POKER_SHIFT_SUPERVISOR])
@pytest.mark.proves("14.19(i)-verified")
def test_14_19_i_only_a_supervisor_verifies(api, staff, claim, role):
    api.force_authenticate(staff(role))
    assert api.post(f"/api/claims/{claim.pk}/verify/").status_code == 403
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PENDING


def test_14_19_i_supervisor_verifies_then_security_pays_by_api(api, staff, supervisor, claim):
    api.force_authenticate(supervisor)
    verified = api.post(f"/api/claims/{claim.pk}/verify/")
    assert verified.status_code == 200 and verified.json()["status"] == "verified"
    assert {s["role"] for s in verified.json()["shares"]} == {"losing", "winning"}
    assert api.post(f"/api/claims/{claim.pk}/payout/", {"method": "cash", "location": "table",
                                                        "delivered_by": supervisor.pk}).status_code == 403
    guard = staff(Role.SECURITY)
    api.force_authenticate(guard)
    missing = api.post(f"/api/claims/{claim.pk}/payout/", {"method": "cash"})
    assert missing.status_code == 400 and "location" in missing.json()
    paid = api.post(f"/api/claims/{claim.pk}/payout/", {"method": "cash", "location": "table", "delivered_by": guard.pk})
    assert paid.status_code == 200 and paid.json()["status"] == "paid"


def test_verify_twice_is_a_400_naming_the_field(api, supervisor, claim):
    api.force_authenticate(supervisor)
    api.post(f"/api/claims/{claim.pk}/verify/")
    again = api.post(f"/api/claims/{claim.pk}/verify/")
    assert again.status_code == 400 and "status" in again.json()


@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.SURVEILLANCE, Role.DEALER, Role.SECURITY])
def test_14_19_k_only_accounting_adjusts_the_display(api, staff, claim, supervisor, role):
    api.force_authenticate(staff(role))
    response = api.post(f"/api/jackpots/{claim.jackpot_id}/display-adjustments/",
                        {"displayed_amount": "1.00", "supervisor_present": supervisor.pk})
    assert response.status_code == 403


@pytest.mark.proves("14.19(k)2")
def test_14_19_k_display_adjustment_by_page_with_a_wrong_amount_is_a_form_error(client, staff, claim, supervisor):
    client.force_login(staff(Role.ACCOUNTING))
    signed = {"accounting_password": "pw-for-tests-1", "supervisor_password": "pw-for-tests-1"}  # both sign, 14.19(k)1
    response = client.post("/jackpot/display/adjust/", {"jackpot": claim.jackpot_id, "displayed_amount": "5.00",
                                                        "supervisor_present": supervisor.pk, "reason": "daily",
                                                        **signed})
    assert response.status_code == 400 and "accounting&#x27;s record" in response.content.decode()
    ok = client.post("/jackpot/display/adjust/", {"jackpot": claim.jackpot_id, "displayed_amount": "1.00",
                                                  "supervisor_present": supervisor.pk, "reason": "daily", **signed})
    assert ok.status_code == 302


def test_surveillance_only_reads(client, staff, claim):
    client.force_login(staff(Role.SURVEILLANCE))
    assert client.post(f"/jackpot/claims/{claim.pk}/", {"action": "verify"}).status_code == 403
    assert client.post("/jackpot/rules/", {}).status_code == 403
    assert client.post("/jackpot/display/adjust/", {}).status_code == 403


def test_rule_change_by_api_is_refused_when_harder(api, supervisor, claim):
    api.force_authenticate(supervisor)
    response = api.post(f"/api/jackpots/{claim.jackpot_id}/rule-changes/",
                        {"changes": {"qualifying_hand": "royal_flush"},
                         "effective_at": (timezone.now() + timedelta(days=2)).isoformat()}, format="json")
    assert response.status_code == 400 and "qualifying_hand" in response.json()


def test_display_partial_polls_and_shows_pending(client, supervisor, claim):
    from apps.badbeat.services import verify_claim
    verify_claim(claim=claim, supervisor=supervisor)
    client.force_login(supervisor)
    partial = client.get("/jackpot/display/", HTTP_HX_REQUEST="true").content.decode()
    assert "PAYOUT PENDING" in partial and "<html" not in partial


@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING, Role.SURVEILLANCE])
def test_14_19_l_only_an_administrator_discontinues_by_api(api, staff, claim, role):
    api.force_authenticate(staff(role))
    assert api.post(f"/api/jackpots/{claim.jackpot_id}/discontinue/", {"target": 1, "reason": "x"}).status_code == 403


@pytest.mark.proves("14.19(l)-discontinue")
def test_14_19_l_administrator_discontinues_into_another_payout(api, staff, claim):
    from apps.badbeat.models import Funding, Jackpot, QualifyingHand
    from apps.badbeat.services import create_secondary_jackpot
    other = create_secondary_jackpot(primary=claim.jackpot, name="Mini", qualifying_hand=QualifyingHand.FULL_HOUSE,
                                     funding=Funding.CONTRIBUTIONS, contribution_amount=D("0.50"),
                                     maximum_contribution=D("0.50"), minimum_pot=D("0"))
    from drf_spectacular.generators import SchemaGenerator

    api.force_authenticate(staff(Role.ADMIN))
    url = f"/api/jackpots/{claim.jackpot_id}/discontinue/"
    reason = ("Replaced by the Mini payout. " * 11)[:300]  # the longest reason taken
    for body, field in (({"target": 999999, "reason": "Replaced."}, "target"), ({"target": "the mini"}, "target"),
                        ({"target": other.pk}, "reason"), ({"target": other.pk, "reason": reason + "."}, "reason")):
        bad = api.post(url, body)
        assert bad.status_code == 400 and field in bad.json(), (body, bad.json())
    assert Jackpot.objects.get(pk=claim.jackpot_id).status == "active"
    done = api.post(url, {"target": other.pk, "reason": reason})
    assert done.status_code == 200 and done.json()["balance"] == "1.00"
    assert Jackpot.objects.get(pk=claim.jackpot_id).status == "discontinued"
    operation = SchemaGenerator().get_schema(request=None, public=True)["paths"][
        "/api/jackpots/{id}/discontinue/"]["post"]
    assert "200" in operation["responses"] and "201" not in operation["responses"]
    assert "JackpotOutput" in str(operation["responses"]["200"]) and "Discontinue" in str(operation["requestBody"])


@pytest.mark.proves("14.19(i)2")
def test_14_19_i_2_security_sees_the_payout_to_deliver_on_the_dashboard(client, staff, supervisor, claim):
    from apps.badbeat.services import verify_claim
    verify_claim(claim=claim, supervisor=supervisor)
    client.force_login(staff(Role.SECURITY))
    page = client.get("/").content.decode()
    assert "Payouts to deliver" in page and f"/jackpot/claims/{claim.pk}/" in page


@pytest.mark.parametrize("changes,field", [({"minimum_players_dealt": "four"}, "minimum_players_dealt"),
                                           ({"qualifying_minimum_rank": 15}, "qualifying_minimum_rank"),
                                           ({"both_hole_cards_must_play": "maybe"}, "both_hole_cards_must_play"),
                                           ({"minimum_pot": "lots"}, "minimum_pot"),
                                           ({"reset_percentage": "150"}, "reset_percentage"),
                                           ({"colour": "red"}, "colour")])
def test_bad_rule_changes_are_a_400_naming_the_field(api, supervisor, claim, changes, field):
    api.force_authenticate(supervisor)
    response = api.post(f"/api/jackpots/{claim.jackpot_id}/rule-changes/",
                        {"changes": changes, "effective_at": (timezone.now() + timedelta(days=2)).isoformat()},
                        format="json")
    assert response.status_code == 400 and field in response.json()


@pytest.mark.proves("14.19(q)-notice")
def test_rule_change_by_page_posts_a_notice_shown_on_the_display(client, supervisor, claim):
    client.force_login(supervisor)
    response = client.post("/jackpot/rules/", {"jackpot": claim.jackpot_id, "field": "minimum_pot", "value": "25.00",
                                               "effective_at": (timezone.localtime() + timedelta(days=1)).strftime(
                                                   "%Y-%m-%dT%H:%M"), "summary": "Minimum pot rises to $25."})
    assert response.status_code == 302
    assert "Minimum pot rises to $25." in client.get("/jackpot/display/").content.decode()
    bad = client.post("/jackpot/rules/", {"jackpot": claim.jackpot_id, "field": "minimum_players_dealt",
                                          "value": "many", "effective_at": "2030-01-01T10:00"})
    assert bad.status_code == 400 and "whole number" in bad.content.decode()


@pytest.mark.proves("14.19(b)4")
def test_14_19_b_4_other_bonus_awards_funded_by_the_fund_are_posted(client, staff, casino):
    """14.19(b)4: other bonus awards funded through the bad beat fund are part of the posted rules: what the room
    posts is shown on the rules page to every role, several lines kept; a control character is refused."""
    from apps.badbeat.services import validate_posted_rules
    from apps.core.exceptions import DomainError

    jackpot = JackpotFactory(casino=casino, other_bonus_awards="High hand: $100 every hour")
    for role in (Role.DEALER, Role.FLOORPERSON, Role.ACCOUNTING):
        client.force_login(staff(role))
        assert posted(client)["Other bonus awards (b)4"] == "High hand: $100 every hour"
    typed = validate_posted_rules(values={"other_bonus_awards": "High hand:\n$100 every hour."}, jackpot=jackpot)
    assert typed["other_bonus_awards"] == "High hand:\n$100 every hour."
    with pytest.raises(DomainError) as exc:
        validate_posted_rules(values={"other_bonus_awards": "Bell\x07"}, jackpot=jackpot)
    assert exc.value.field == "other_bonus_awards"


def test_14_19_i_each_state_of_a_claim_has_a_badge_of_its_own(client, api, staff, supervisor, claim):
    """Pending, verified (payout pending) and paid are told apart at a glance on the claim's page and in the list:
    each state its own badge class, its words beside it (pending and paid shared one green badge)."""
    client.force_login(supervisor)

    def badges() -> tuple[str, str]:
        page = client.get(f"/jackpot/claims/{claim.pk}/").content.decode()
        listing = client.get("/jackpot/claims/").content.decode()
        return page, listing

    page, listing = badges()
    assert 'class="badge claim-pending" data-testid="claim-status">Pending supervisor verification' in page
    assert 'class="badge claim-pending">Pending supervisor verification' in listing
    api.force_authenticate(supervisor)
    assert api.post(f"/api/claims/{claim.pk}/verify/").status_code == 200
    page, listing = badges()
    assert 'class="badge claim-verified" data-testid="claim-status">Verified — payout pending' in page
    guard = staff(Role.SECURITY)
    api.force_authenticate(guard)
    paid = api.post(f"/api/claims/{claim.pk}/payout/", {"method": "cash", "location": "table",
                                                        "delivered_by": guard.pk})
    assert paid.status_code in (200, 201), paid.content
    page, listing = badges()
    assert 'class="badge claim-paid" data-testid="claim-status">Paid' in page
    assert 'class="badge claim-paid">Paid' in listing
