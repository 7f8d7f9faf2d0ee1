"""Rule changes that cannot jam (issue 13, item 4; N.J.A.C. 13:69F-14.19(q)).

A notice of change is validated in full when it is posted; the scheduled job applies each due change in its own
transaction, marks one that fails as failed with the reason (on the rules page and in the admin) and goes on with
the others; a scheduled change is withdrawn from its page or the API by those who may propose one."""
import json
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.apps import apps as django_apps
from django.test import Client
from django.utils import timezone

from apps.badbeat.models import Jackpot, QualifyingHand, RuleChange, RuleChangeStatus
from apps.badbeat.services import (
    apply_due_rule_changes,
    propose_rule_change,
    validate_posted_rules,
    withdraw_rule_change,
)
from apps.badbeat.services import rules as rule_services
from apps.badbeat.tasks import apply_rule_changes
from apps.core.exceptions import DomainError
from apps.core.roles import Role
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import CasinoFactory, JackpotFactory, PokerTableFactory, StaffFactory

D = Decimal
pytestmark = pytest.mark.django_db

JAMMED = {"maximum_contribution": "100000000000000000000"}  # the value: 21 digits, numeric(14, 2) overflows
MAY_PROPOSE = [Role.POKER_SHIFT_SUPERVISOR, Role.ADMIN]
MAY_NOT = [r for r in Role if r not in MAY_PROPOSE]


@pytest.fixture
def jackpot(casino):
    return JackpotFactory(casino=casino, minimum_pot=D("0"))


def soon():
    return timezone.now() + timedelta(hours=1)


def later():
    return timezone.now() + timedelta(hours=2)


def scheduled(jackpot, user, changes=None, **kwargs):
    return propose_rule_change(jackpot=jackpot, changes=changes or {"minimum_pot": "25.00"}, effective_at=soon(),
                               proposed_by=user, **kwargs)


def jam(change, changes=None):
    """Store a value the proposal would now refuse, as a change posted before full validation was."""
    RuleChange.objects.filter(pk=change.pk).update(changes=changes or JAMMED)


def post_change(api, jackpot, changes, **extra):
    return api.post(f"/api/jackpots/{jackpot.pk}/rule-changes/",
                    {"changes": changes, "effective_at": soon().isoformat(), **extra}, format="json")


# --- validation in full when the notice is posted ---------------------------------------------------------------

class TestProposal:
    def test_14_19_q_the_jammed_rule_change_is_refused_when_posted(self, api, supervisor, jackpot):
        api.force_authenticate(supervisor)
        response = post_change(api, jackpot, JAMMED)
        assert response.status_code == 400
        assert list(response.json()) == ["maximum_contribution"]
        assert "12 digits" in response.json()["maximum_contribution"][0]
        assert not RuleChange.objects.exists()
        jackpot.refresh_from_db()
        assert jackpot.maximum_contribution == D("1.00")

    @pytest.mark.parametrize("changes,field", [
        pytest.param(JAMMED, "maximum_contribution", id="overflow"),
        pytest.param({"minimum_pot": "inf"}, "minimum_pot", id="inf"),
        pytest.param({"contribution_amount": "NaN"}, "contribution_amount", id="nan"),
        pytest.param({"minimum_pot": "-1.00"}, "minimum_pot", id="negative"),
        pytest.param({"maximum_contribution": "1.005"}, "maximum_contribution", id="three-decimal-places"),
        pytest.param({"minimum_pot": [25]}, "minimum_pot", id="wrong-type"),
        pytest.param({"name": "Bad\x00Beat"}, "name", id="nul-in-name"),
        pytest.param({"name": "x" * 121}, "name", id="name-too-long"),
        pytest.param({"qualifying_hand": "five_aces"}, "qualifying_hand", id="bad-choice"),
        pytest.param({"losing_share": "60.00"}, "losing_share", id="shares-not-100"),
        # and more of the same kinds
        pytest.param({"maximum_contribution": "1e400"}, "maximum_contribution", id="1e400-as-text"),
        pytest.param({"minimum_pot": "1000000000000"}, "minimum_pot", id="13-digits"),
        pytest.param({"reset_percentage": "10.005"}, "reset_percentage", id="percentage-three-places"),
        pytest.param({"reset_percentage": "-1"}, "reset_percentage", id="percentage-negative"),
        pytest.param({"both_hole_cards_must_play": "yes"}, "both_hole_cards_must_play", id="bool-as-text"),
        pytest.param({"minimum_players_dealt": True}, "minimum_players_dealt", id="bool-as-number"),
        pytest.param({"minimum_players_dealt": 40000}, "minimum_players_dealt", id="smallint-overflow"),
        pytest.param({"minimum_players_dealt": 4.5}, "minimum_players_dealt", id="not-whole"),
        pytest.param({"name": "Bad\nBeat"}, "name", id="line-break-in-name"),
        pytest.param({"name": "   "}, "name", id="blank-name"),
        pytest.param({"other_bonus_awards": "Bell\x07"}, "other_bonus_awards", id="control-character"),
        pytest.param({"multiple_losers_rule": None}, "multiple_losers_rule", id="null-choice"),
        pytest.param({"maximum_contribution": None}, "maximum_contribution", id="null-money"),
        pytest.param({"contribution_amount": None}, "contribution_amount", id="neither-amount-nor-percentage"),
        pytest.param({"contribution_percentage": "5.00"}, "contribution_amount", id="both-amount-and-percentage"),
    ])
    def test_14_19_q_a_malformed_value_is_a_400_naming_the_field_and_writes_nothing(self, api, supervisor, jackpot,
                                                                                   changes, field):
        api.force_authenticate(supervisor)
        response = post_change(api, jackpot, changes)
        assert response.status_code == 400, response.content
        assert field in response.json()
        assert not RuleChange.objects.exists()

    @pytest.mark.parametrize("field,raw", [("maximum_contribution", "1e400"),  # json.loads reads it as inf
                                           ("other_bonus_awards", '"\\ud800"')])  # a lone surrogate
    def test_14_19_q_raw_json_a_float_cannot_hold_or_utf_8_cannot_encode_is_a_400(self, api, supervisor, jackpot,
                                                                                  field, raw):
        api.force_authenticate(supervisor)
        body = f'{{"changes": {{"{field}": {raw}}}, "effective_at": "{soon().isoformat()}"}}'
        response = api.post(f"/api/jackpots/{jackpot.pk}/rule-changes/", body, content_type="application/json")
        assert response.status_code == 400 and field in response.json()
        assert not RuleChange.objects.exists()

    def test_14_19_q_a_notice_with_a_nul_character_is_a_400(self, api, supervisor, jackpot):
        api.force_authenticate(supervisor)
        response = post_change(api, jackpot, {"minimum_pot": "25.00"}, summary="Minimum pot\x00 rises.")
        assert response.status_code == 400 and "summary" in response.json()
        with pytest.raises(DomainError) as refused:
            scheduled(jackpot, supervisor, summary="Rises\x1b[2J")
        assert refused.value.field == "summary"
        assert not RuleChange.objects.exists()

    def test_14_19_q_good_values_are_typed_as_the_jackpot_holds_them(self, api, supervisor, jackpot):
        api.force_authenticate(supervisor)
        response = post_change(api, jackpot, {"minimum_pot": 25, "maximum_contribution": "999999999999.99",
                                              "reset_percentage": 12.5, "name": "The Big One",
                                              "other_bonus_awards": "High hand:\n$100 every hour."})
        assert response.status_code == 201, response.content
        change = RuleChange.objects.get()
        assert change.changes["minimum_pot"] == "25.00" and change.changes["reset_percentage"] == "12.50"
        assert response.json()["status"] == "scheduled"
        assert apply_due_rule_changes(now=later()) == 1
        jackpot.refresh_from_db()
        assert jackpot.maximum_contribution == D("999999999999.99") and jackpot.name == "The Big One"

    def test_14_19_q_the_jammed_value_is_refused_from_the_rules_page_too(self, client, supervisor, jackpot):
        client.force_login(supervisor)
        response = client.post("/jackpot/rules/", {
            "jackpot": jackpot.pk, "field": "maximum_contribution", "value": JAMMED["maximum_contribution"],
            "effective_at": (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")})
        assert response.status_code == 400 and "12 digits" in response.content.decode()
        assert not RuleChange.objects.exists()

    def test_14_20_c_1_a_system_rule_set_is_validated_the_same_way(self, jackpot):
        rules = {"qualifying_hand": "four_of_a_kind", "qualifying_minimum_rank": None,
                 "both_hole_cards_must_play": True, "minimum_players_dealt": 4, "contribution_amount": "1.00",
                 "contribution_percentage": None, "minimum_pot": "20.00", "maximum_contribution": "1.00",
                 "reset_percentage": "10.00", "losing_share": "50.00", "winning_share": "25.00",
                 "table_share": "25.00"}
        assert validate_posted_rules(values=rules, jackpot=jackpot)["maximum_contribution"] == D("1.00")
        with pytest.raises(DomainError) as refused:
            validate_posted_rules(values={**rules, **JAMMED}, jackpot=jackpot)
        assert refused.value.field == "maximum_contribution"


# --- the scheduled job: each change on its own ----------------------------------------------------------------

class TestApplying:
    def test_14_19_q_the_jammed_rule_change_fails_and_a_later_valid_change_takes_effect(self, supervisor, jackpot):
        jammed = scheduled(jackpot, supervisor, {"maximum_contribution": "2.00"})
        jam(jammed)
        valid = scheduled(jackpot, supervisor, {"minimum_pot": "25.00"})
        assert apply_due_rule_changes(now=later()) == 1
        jammed.refresh_from_db()
        valid.refresh_from_db()
        jackpot.refresh_from_db()
        assert jammed.status == RuleChangeStatus.FAILED and jammed.failed_at is not None
        assert jammed.failure_reason.startswith("maximum_contribution:") and "12 digits" in jammed.failure_reason
        assert valid.status == RuleChangeStatus.APPLIED
        assert jackpot.minimum_pot == D("25.00") and jackpot.maximum_contribution == D("1.00")
        # the next run finds nothing to do: the failed change is not tried again
        assert apply_due_rule_changes(now=later()) == 0
        jammed.refresh_from_db()
        assert jammed.status == RuleChangeStatus.FAILED

    def test_14_19_q_a_database_refusal_rolls_back_that_change_only(self, supervisor, jackpot, monkeypatch):
        """A value that passes validation but that the database refuses (numeric overflow) fails alone."""
        refused = scheduled(jackpot, supervisor, {"maximum_contribution": "2.00"})
        valid = scheduled(jackpot, supervisor, {"minimum_pot": "25.00"})
        real = rule_services._validated

        def lenient(values, *, base):
            if values == refused.changes:
                return {"maximum_contribution": D("100000000000000000000")}
            return real(values, base=base)

        monkeypatch.setattr(rule_services, "_validated", lenient)  # looked up in the module that owns it
        assert apply_due_rule_changes(now=later()) == 1
        refused.refresh_from_db()
        valid.refresh_from_db()
        jackpot.refresh_from_db()
        assert refused.status == RuleChangeStatus.FAILED
        assert "numeric field overflow" in refused.failure_reason
        assert valid.status == RuleChangeStatus.APPLIED and jackpot.minimum_pot == D("25.00")
        assert jackpot.maximum_contribution == D("1.00")  # the failed change left nothing behind

    def test_14_19_q_two_notices_valid_alone_but_not_together_the_second_fails(self, supervisor, jackpot):
        first = scheduled(jackpot, supervisor, {"losing_share": "60.00", "table_share": "15.00"})
        second = scheduled(jackpot, supervisor, {"winning_share": "30.00", "table_share": "20.00"})
        third = scheduled(jackpot, supervisor, {"minimum_pot": "30.00"})
        assert apply_due_rule_changes(now=later()) == 2
        for change in (first, second, third):
            change.refresh_from_db()
        assert [first.status, second.status, third.status] == [RuleChangeStatus.APPLIED, RuleChangeStatus.FAILED,
                                                               RuleChangeStatus.APPLIED]
        assert "100 %" in second.failure_reason
        jackpot.refresh_from_db()
        assert (jackpot.losing_share, jackpot.winning_share, jackpot.table_share) == (D("60"), D("25"), D("15"))

    def test_14_19_q_a_harder_qualifying_hand_still_waiting_is_not_a_failure(self, supervisor, casino, jackpot):
        harder = scheduled(jackpot, supervisor, {"qualifying_hand": QualifyingHand.STRAIGHT_FLUSH})
        assert harder.makes_qualifying_harder  # allowed: nothing taken under the current rules yet
        record_round_of_play(table=PokerTableFactory(casino=casino), round_in=RoundIn(
            started_at=timezone.now(), board="2h 7d 9c Js Kd",
            players=[PlayerIn(seat=1, contributed=D("50"), hole_cards="As Ac", name="Ann"),
                     PlayerIn(seat=2, contributed=D("50"), hole_cards="Qh Qd", name="Ben")]))
        assert jackpot.contributions.exists()
        assert apply_due_rule_changes(now=later()) == 0
        harder.refresh_from_db()
        assert harder.status == RuleChangeStatus.SCHEDULED and harder.failure_reason == ""

    def test_14_19_q_a_change_withdrawn_meanwhile_is_not_marked_failed(self, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        withdraw_rule_change(change=change, withdrawn_by=supervisor)
        rule_services._mark_rule_change_failed(change_id=change.pk, now=later(), reason="late")
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.WITHDRAWN and change.failure_reason == ""


@pytest.mark.django_db(transaction=True)
def test_14_19_q_the_beat_task_marks_the_jammed_change_failed_for_good_and_goes_on(casino):
    """Outside any transaction, as Celery beat runs it: the failure mark is committed, the valid change too."""
    supervisor = StaffFactory(casino=casino, roles=[Role.POKER_SHIFT_SUPERVISOR])
    jackpot = JackpotFactory(casino=casino, minimum_pot=D("0"))
    jammed = propose_rule_change(jackpot=jackpot, changes={"maximum_contribution": "2.00"},
                                 effective_at=timezone.now() + timedelta(seconds=1), proposed_by=supervisor)
    jam(jammed)
    valid = propose_rule_change(jackpot=jackpot, changes={"minimum_pot": "25.00"},
                                effective_at=timezone.now() + timedelta(seconds=1), proposed_by=supervisor)
    with time_machine.travel(timezone.now() + timedelta(minutes=1)):
        assert apply_rule_changes.delay().get() == 1
        assert apply_rule_changes.delay().get() == 0
    assert RuleChange.objects.get(pk=jammed.pk).status == RuleChangeStatus.FAILED
    assert RuleChange.objects.get(pk=valid.pk).status == RuleChangeStatus.APPLIED
    assert Jackpot.objects.get(pk=jackpot.pk).minimum_pot == D("25.00")


# --- shown on the rules page and to administrators -------------------------------------------------------------

class TestShown:
    @pytest.fixture
    def failed(self, supervisor, jackpot):
        change = scheduled(jackpot, supervisor, {"maximum_contribution": "2.00"}, summary="Cap rises.")
        jam(change)
        apply_due_rule_changes(now=later())
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.FAILED
        return change

    @pytest.mark.parametrize("role", MAY_PROPOSE)
    def test_14_19_q_the_rules_page_tells_supervisors_and_administrators_of_a_failed_change(self, client, staff,
                                                                                           failed, role):
        client.force_login(staff(role))
        page = client.get("/jackpot/rules/").content.decode()
        assert 'data-testid="failed-rule-changes"' in page
        assert "Cap rises." in page and "Failed to take effect" in page and "12 digits" in page

    def test_14_19_q_every_reader_sees_the_failed_change_and_its_reason_in_the_history(self, client, staff, failed):
        client.force_login(staff(Role.DEALER))
        page = client.get("/jackpot/rules/").content.decode()
        assert "Failed to take effect" in page and "12 digits" in page
        assert 'data-testid="failed-rule-changes"' not in page and "Withdraw" not in page

    def test_14_19_q_a_failed_change_leaves_the_displays(self, client, supervisor, failed):
        client.force_login(supervisor)
        assert "Cap rises." not in client.get("/jackpot/display/").content.decode()

    def test_14_19_q_administrators_list_failed_changes_with_the_reason(self, admin_client, failed):
        page = admin_client.get("/admin/badbeat/rulechange/?status__exact=failed").content.decode()
        assert "Cap rises." in page and "12 digits" in page
        assert "Failed to take effect" in page  # the status filter offers it


# --- withdrawing a scheduled change ------------------------------------------------------------------------------

def events_of(change):
    return list(django_apps.get_model("badbeat", "RuleChangeEvent").objects.filter(pgh_obj_id=change.pk)
                .order_by("pgh_id").values_list("status", "withdrawn_by_id"))


class TestWithdrawByPage:
    @pytest.mark.parametrize("role", MAY_PROPOSE)
    def test_14_19_q_those_who_may_propose_withdraw_from_the_rules_page(self, client, staff, supervisor, jackpot,
                                                                         role):
        change = scheduled(jackpot, supervisor, summary="Minimum pot rises to $25.")
        user = staff(role)
        client.force_login(user)
        page = client.get("/jackpot/rules/").content.decode()
        assert f'action="/jackpot/rules/changes/{change.pk}/withdraw/"' in page
        assert "Minimum pot rises to $25." in client.get("/jackpot/display/").content.decode()
        response = client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"})
        assert response.status_code == 302 and response["Location"] == "/jackpot/rules/"
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.WITHDRAWN
        assert change.withdrawn_by == user and change.withdrawn_at is not None
        assert events_of(change)[-1] == (RuleChangeStatus.WITHDRAWN, user.pk)  # kept in its history
        assert "Minimum pot rises to $25." not in client.get("/jackpot/display/").content.decode()
        assert apply_due_rule_changes(now=later()) == 0

    @pytest.mark.parametrize("role", MAY_NOT)
    def test_14_19_q_others_are_refused_403(self, client, staff, supervisor, jackpot, role):
        change = scheduled(jackpot, supervisor)
        client.force_login(staff(role))
        assert 'withdraw/"' not in client.get("/jackpot/rules/").content.decode()
        assert client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"}).status_code == 403
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    def test_anonymous_is_sent_to_log_in_and_a_get_withdraws_nothing(self, client, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        assert client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"}).status_code == 302
        client.force_login(supervisor)
        assert client.get(f"/jackpot/rules/changes/{change.pk}/withdraw/").status_code == 405
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    def test_14_19_q_without_the_confirmation_nothing_is_withdrawn(self, client, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        client.force_login(supervisor)
        response = client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/")
        assert response.status_code == 400 and "Confirm the withdrawal" in response.content.decode()
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    @pytest.mark.parametrize("state", ["applied", "failed", "withdrawn"])
    def test_14_19_q_a_change_not_scheduled_is_not_withdrawn(self, client, supervisor, jackpot, state):
        change = scheduled(jackpot, supervisor)
        make_state(change, state, supervisor)
        client.force_login(supervisor)
        response = client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"})
        assert response.status_code == 400
        assert "only a change not yet in effect can be withdrawn" in response.content.decode()
        change.refresh_from_db()
        assert change.status == state

    def test_a_change_of_another_casino_is_not_found(self, client, supervisor, jackpot):
        other = JackpotFactory(casino=CasinoFactory(), minimum_pot=D("0"))
        change = scheduled(other, supervisor)
        client.force_login(supervisor)
        assert client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"}).status_code == 404

    def test_the_withdraw_button_is_a_plain_csrf_protected_form_without_inline_script(self, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        client = Client(enforce_csrf_checks=True)
        client.force_login(supervisor)
        page = client.get("/jackpot/rules/").content.decode()
        row = page[page.index(f'data-testid="withdraw-{change.pk}"'):]
        row = row[:row.index("</details>")]
        assert "csrfmiddlewaretoken" in row and 'value="yes"' in row
        assert "<script" not in page.replace('<script src="', "")  # only external scripts (CSP without inline)
        assert "onclick" not in page and "onsubmit" not in page and "javascript:" not in page
        assert client.post(f"/jackpot/rules/changes/{change.pk}/withdraw/", {"confirm": "yes"}).status_code == 403
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED


def make_state(change, state, user):
    if state == "applied":
        assert apply_due_rule_changes(now=later()) == 1
    elif state == "failed":
        jam(change)
        apply_due_rule_changes(now=later())
    else:
        withdraw_rule_change(change=change, withdrawn_by=user)
    change.refresh_from_db()
    assert change.status == state


class TestWithdrawByApi:
    @pytest.mark.parametrize("role", MAY_PROPOSE)
    def test_14_19_q_those_who_may_propose_withdraw_by_api(self, api, staff, supervisor, jackpot, role):
        change = scheduled(jackpot, supervisor)
        user = staff(role)
        api.force_authenticate(user)
        response = api.post(f"/api/rule-changes/{change.pk}/withdraw/")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["id"] == change.pk and body["status"] == "withdrawn" and body["withdrawn_by"] == user.pk
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.WITHDRAWN and change.withdrawn_at is not None
        assert events_of(change)[-1] == (RuleChangeStatus.WITHDRAWN, user.pk)

    @pytest.mark.parametrize("role", MAY_NOT)
    def test_14_19_q_others_are_refused_403(self, api, staff, supervisor, jackpot, role):
        change = scheduled(jackpot, supervisor)
        api.force_authenticate(staff(role))
        assert api.post(f"/api/rule-changes/{change.pk}/withdraw/").status_code == 403
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    def test_anonymous_is_refused(self, api, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        assert api.post(f"/api/rule-changes/{change.pk}/withdraw/").status_code in (401, 403)
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    @pytest.mark.parametrize("state", ["applied", "failed", "withdrawn"])
    def test_14_19_q_a_change_not_scheduled_is_a_400_naming_status(self, api, supervisor, jackpot, state):
        change = scheduled(jackpot, supervisor)
        make_state(change, state, supervisor)
        api.force_authenticate(supervisor)
        response = api.post(f"/api/rule-changes/{change.pk}/withdraw/")
        assert response.status_code == 400 and list(response.json()) == ["status"]
        change.refresh_from_db()
        assert change.status == state

    def test_a_change_of_another_casino_is_not_found(self, api, supervisor, jackpot):
        change = scheduled(JackpotFactory(casino=CasinoFactory(), minimum_pot=D("0")), supervisor)
        api.force_authenticate(supervisor)
        assert api.post(f"/api/rule-changes/{change.pk}/withdraw/").status_code == 404

    def test_the_schema_declares_the_withdrawal(self, api, supervisor):
        api.force_authenticate(supervisor)
        schema = api.get("/api/schema/", {"format": "json"})
        assert schema.status_code == 200
        operation = json.loads(schema.content)["paths"]["/api/rule-changes/{id}/withdraw/"]["post"]
        assert {"200", "400", "403", "404"} <= set(operation["responses"])


class TestWithdrawService:
    def test_14_19_q_the_service_refuses_who_may_not_propose(self, staff, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        with pytest.raises(DomainError) as refused:
            withdraw_rule_change(change=change, withdrawn_by=staff(Role.ACCOUNTING))
        assert refused.value.field == "withdrawn_by"
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.SCHEDULED

    def test_administrators_withdraw_from_the_admin_site(self, admin_client, supervisor, jackpot):
        change = scheduled(jackpot, supervisor)
        response = admin_client.post("/admin/badbeat/rulechange/", {"action": "withdraw",
                                                                      "_selected_action": [change.pk]})
        assert response.status_code == 302
        change.refresh_from_db()
        assert change.status == RuleChangeStatus.WITHDRAWN
