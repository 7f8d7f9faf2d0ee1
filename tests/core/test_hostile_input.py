"""Hostile input (issue 13, item 1): each input the hostile tester sent, as a regression case. Every one is answered
400 (or 409 for a duplicate) in the one error shape, `{field: [message, ...]}`, naming the field at fault, and writes
nothing; a page given a bad query parameter or path segment answers 400 with the message, never a 500.

Money and counts are bounded by their columns (N.J.A.C. 13:69F-14.14, 14.19: the records of rake and contributions
are kept to the cent), text carries no control characters, days are within the casino's records, JSON bodies are
bounded in depth and size.
"""
import json
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from apps.badbeat.models import Contribution, DisplayAdjustment, RuleChange
from apps.core.roles import Role
from apps.counts.models import BadBeatCount as Count
from apps.rake.models import RakeRecord, TimeCharge
from apps.rounds.models import RoundOfPlay
from apps.tables.models import PokerTable
from tests.core.test_idempotency import round_body
from tests.factories import JackpotFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def table(casino):
    return RakeStructureFactory(table__casino=casino).table


def written():
    """Every kind of record a hostile request might have written."""
    return tuple(model.objects.count() for model in (RoundOfPlay, RakeRecord, Contribution, Count, PokerTable,
                                                     DisplayAdjustment, RuleChange, TimeCharge))


def players(**first):
    return [{"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"} | first,
            {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]


def refused(response, *fields, status=400):
    """The response is `status` in the one error shape and names each of `fields` (a path like players.0.name is
    named by its first part)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert isinstance(body, dict) and body, body
    for field in fields:
        assert field in body, (field, body)
    return body


def post_raw(api, path, text):
    """POST a body as written (json.dumps cannot write every hostile text)."""
    return api.post(path, data=text, content_type="application/json")


class TestRoundsOfPlay:
    """POST /api/rounds/: the round of play's amounts, names, cards and moments."""

    @pytest.mark.parametrize("contributed", [10**15, "1000000000000000", "999999999999999.99", "1e400", "-5.00",
                                             "0.001"])
    def test_an_amount_beyond_its_column_is_a_400(self, api, supervisor, table, contributed):
        api.force_authenticate(supervisor)
        before = written()
        refused(api.post("/api/rounds/", round_body(table, players=players(contributed=contributed)), format="json"),
                "players")
        assert written() == before

    def test_amounts_that_fit_one_by_one_but_not_as_a_pot_are_a_400(self, api, supervisor, table):
        """999,999,999,999.99 fits a player's column; two of them make a pot no record holds."""
        api.force_authenticate(supervisor)
        before = written()
        body = round_body(table, players=[
            {"seat": 1, "contributed": "999999999999.99", "hole_cards": "As Ks"},
            {"seat": 2, "contributed": "999999999999.99", "hole_cards": "2c 7d"}])
        refused(api.post("/api/rounds/", body, format="json"), "players")
        assert written() == before

    @pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", '"NaN"', '"Infinity"', '"sNaN"', "1e400"])
    def test_no_number_but_a_finite_one(self, api, supervisor, table, literal):
        api.force_authenticate(supervisor)
        before = written()
        text = json.dumps(round_body(table)).replace('"contributed": "50.00"', f'"contributed": {literal}', 1)
        response = post_raw(api, "/api/rounds/", text)
        assert response.status_code == 400, response.content
        assert written() == before

    @pytest.mark.parametrize("name", ["Ana\x00", "A\x00na", "Ana\x1b[31m", "Ana\nBen", "\ud800"])
    def test_control_characters_in_a_name_are_a_400(self, api, supervisor, table, name):
        api.force_authenticate(supervisor)
        before = written()
        text = json.dumps(round_body(table, players=players(name=name)))
        refused(post_raw(api, "/api/rounds/", text), "players")
        assert written() == before

    @pytest.mark.parametrize(("field", "value"), [("external_id", "hand\x00-1"), ("board", "Ah\x00Kd"),
                                                  ("external_id", "x" * 121)])
    def test_control_characters_and_overlong_text_elsewhere(self, api, supervisor, table, field, value):
        api.force_authenticate(supervisor)
        before = written()
        refused(post_raw(api, "/api/rounds/", json.dumps(round_body(table, **{field: value}))), field)
        assert written() == before

    @pytest.mark.parametrize("value", [5, "5", {"seat": 1}, None, [], [5], ["Ana"]])
    def test_players_that_are_not_a_list_of_players(self, api, supervisor, table, value):
        api.force_authenticate(supervisor)
        before = written()
        refused(api.post("/api/rounds/", round_body(table, players=value), format="json"), "players")
        assert written() == before

    @pytest.mark.parametrize("value", [["NT"], 5, {"a": 1}, "NT"])
    def test_a_game_that_is_not_one_of_the_games(self, api, supervisor, table, value):
        api.force_authenticate(supervisor)
        refused(api.post("/api/rounds/", round_body(table, game=value), format="json"), "game")

    @pytest.mark.parametrize("table_id", [2**63, 2**64, -1, "abc", 1.5, None])
    def test_a_table_id_no_record_can_have(self, api, supervisor, table, table_id):
        api.force_authenticate(supervisor)
        refused(api.post("/api/rounds/", round_body(table) | {"table": table_id}, format="json"), "table")

    @pytest.mark.parametrize("started_at", [
        "0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00-14:00", "9999-12-31T23:59:59-14:00",
        "9999-12-31T23:59:59+14:00", "2031-01-01T00:00:00Z", "1999-01-01T00:00:00Z", "2024-13-01T00:00:00Z",
        "abc-01-01T00:00:00Z", "2024-01-01T25:00:00Z"])
    def test_a_moment_outside_the_casinos_records_or_no_moment(self, api, supervisor, table, started_at):
        api.force_authenticate(supervisor)
        before = written()
        refused(api.post("/api/rounds/", round_body(table, started_at=started_at), format="json"), "started_at")
        assert written() == before

    def test_a_round_a_few_minutes_ahead_of_the_clock_is_taken(self, api, supervisor, table):
        """A tablet's clock runs a little fast: within five minutes of the casino's clock is now."""
        api.force_authenticate(supervisor)
        ahead = (timezone.now() + timezone.timedelta(minutes=2)).isoformat()
        assert api.post("/api/rounds/", round_body(table, started_at=ahead), format="json").status_code == 201


class TestJsonBodies:
    def test_a_5000_deep_array_is_a_400(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        before = written()
        response = post_raw(api, "/api/rounds/", '{"table": 1, "players": ' + "[" * 5000 + "]" * 5000 + "}")
        assert response.status_code == 400 and response.json()
        assert written() == before

    def test_a_5000_deep_object_is_a_400(self, api, supervisor):
        api.force_authenticate(supervisor)
        response = post_raw(api, "/api/tables/", '{"a": ' * 5000 + "1" + "}" * 5000)
        assert response.status_code == 400 and response.json()

    @pytest.mark.parametrize("text", ['{"table": ', "\x00", "[1, 2", '{"table": 1}}', "\ud800"])
    def test_a_body_that_is_not_json(self, api, supervisor, text):
        api.force_authenticate(supervisor)
        response = api.post("/api/rounds/", data=text.encode("utf-8", "surrogatepass"),
                            content_type="application/json")
        assert response.status_code == 400 and response.json()


class TestPhh:
    """POST /api/rounds/phh/: the hand history's own fields."""

    @pytest.mark.parametrize("text", [
        "variant = ['NT']\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 2c7d']\n",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 1000000000000000]\nmin_bet = 2\n"
        "starting_stacks = [200, 200]\nactions = ['d dh p1 AsKs', 'd dh p2 2c7d']\n",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        "starting_stacks = [inf, nan]\nactions = ['d dh p1 AsKs', 'd dh p2 2c7d']\n",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nplayers = 5\n"
        "starting_stacks = [200, 200]\nactions = ['d dh p1 AsKs', 'd dh p2 2c7d']\n",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nplayers = ['A\x00', 'B']\n"
        "starting_stacks = [200, 200]\nactions = ['d dh p1 AsKs', 'd dh p2 2c7d']\n",
        "variant = 'NT'\nyear = 'abc'\nmonth = 13\nday = 1\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
        "min_bet = 2\nstarting_stacks = [999999999999.99, 999999999999.99]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 2c7d', 'p1 cbr 999999999999.99', 'p2 cc']\n",
        "variant = 'NT'\nactions = [" + "[" * 5000,
    ])
    def test_a_hostile_hand_is_refused_with_its_reason(self, api, supervisor, table, text):
        api.force_authenticate(supervisor)
        before = written()
        response = api.post("/api/rounds/phh/", {"table": table.pk, "phh": text}, format="json")
        assert response.status_code == 400, response.content[:500]
        assert response.json()
        assert written() == before

    def test_nul_in_the_text_is_a_400(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        response = api.post("/api/rounds/phh/", {"table": table.pk, "phh": "variant = 'NT'\x00"}, format="json")
        refused(response, "phh")


class TestTables:
    def test_a_table_without_a_game_is_a_hold_em_table(self, api, supervisor):
        api.force_authenticate(supervisor)
        response = api.post("/api/tables/", {"number": 5, "seats": 9, "minimum_wager": "2.00"}, format="json")
        assert response.status_code == 201, response.content
        assert response.json()["game"] == "holdem"

    def test_a_table_number_twice_is_a_409_naming_the_table(self, api, supervisor):
        api.force_authenticate(supervisor)
        first = api.post("/api/tables/", {"number": 5, "minimum_wager": "2.00"}, format="json").json()
        again = refused(api.post("/api/tables/", {"number": 5, "minimum_wager": "2.00"}, format="json"),
                        "number", status=409)
        assert again["existing_id"] == first["id"]

    @pytest.mark.parametrize(("field", "value"), [
        ("small_blind", 10**15), ("big_blind", "999999999999999.99"), ("minimum_wager", "NaN"),
        ("maximum_wager", "Infinity"), ("number", 2**40), ("seats", 2**40), ("location", "Pit\x00 1"),
        ("location", "x" * 10_000), ("game", ["NT"]), ("rotation", 5)])
    def test_a_field_beyond_its_column(self, api, supervisor, field, value):
        api.force_authenticate(supervisor)
        before = written()
        body = {"number": 6, "minimum_wager": "2.00", "small_blind": "1.00", "big_blind": "2.00", field: value}
        refused(api.post("/api/tables/", body, format="json"), field)
        assert written() == before


class TestCounts:
    @pytest.fixture
    def count_body(self, staff, table):
        accounting, supervisor = staff(Role.ACCOUNTING), staff(Role.POKER_SHIFT_SUPERVISOR)
        return {"table": table.number, "method": "closed_table", "counted_by": accounting.pk,
                "witness": supervisor.pk, "witness_kind": "supervisor", "surveillance_recorded": True}

    @pytest.mark.parametrize("chips", [{"1": 2**62}, {"1": 2**31}, {"1": -1}, {"1": "NaN"}, {"\x00": 1},
                                       {"1000000000000000": 1}, {"abc": 1}, 5, [1]])
    def test_chips_no_count_holds(self, api, staff, count_body, chips):
        api.force_authenticate(staff(Role.ACCOUNTING))
        before = written()
        refused(api.post("/api/counts/", count_body | {"chips": chips}, format="json"), "chips")
        assert written() == before

    @pytest.mark.parametrize("amount", [10**15, "NaN", "-Infinity", "999999999999999.99"])
    def test_an_amount_no_count_holds(self, api, staff, count_body, amount):
        api.force_authenticate(staff(Role.ACCOUNTING))
        body = count_body | {"amount": amount}
        refused(api.post("/api/counts/", body, format="json"), "amount")

    @pytest.mark.parametrize(("field", "value"), [("table", 2**63), ("counted_by", 2**70), ("witness", -1)])
    def test_ids_no_record_can_have(self, api, staff, count_body, field, value):
        api.force_authenticate(staff(Role.ACCOUNTING))
        refused(api.post("/api/counts/", count_body | {field: value}, format="json"), field)


class TestBadBeatMoney:
    @pytest.fixture
    def jackpot(self, casino):
        return JackpotFactory(casino=casino)

    @pytest.mark.parametrize("amount", [10**15, "NaN", "Infinity", "999999999999999.99"])
    def test_a_display_adjustment_beyond_its_column(self, api, staff, supervisor, jackpot, amount):
        api.force_authenticate(staff(Role.ACCOUNTING))
        before = written()
        response = api.post(f"/api/jackpots/{jackpot.pk}/display-adjustments/",
                            {"displayed_amount": amount, "supervisor_present": supervisor.pk}, format="json")
        refused(response, "displayed_amount")
        assert written() == before

    @pytest.mark.parametrize(("changes", "field"), [
        ({"maximum_contribution": "100000000000000000000"}, "maximum_contribution"),
        ({"contribution_amount": "NaN"}, "contribution_amount"),
        ({"reset_percentage": "1e400"}, "reset_percentage"),
        ({"qualifying_hand": "\x00"}, "qualifying_hand"),
        ({"no_such_rule": "1"}, "no_such_rule")])
    def test_a_rule_change_that_would_jam_is_refused_when_proposed(self, api, staff, jackpot, changes, field):
        api.force_authenticate(staff(Role.POKER_SHIFT_SUPERVISOR))
        before = written()
        body = {"changes": changes, "effective_at": (timezone.now() + timezone.timedelta(days=1)).isoformat()}
        refused(api.post(f"/api/jackpots/{jackpot.pk}/rule-changes/", body, format="json"), field)
        assert written() == before


class TestTimeCharges:
    @pytest.mark.parametrize(("field", "value"), [("players_seated", 2**40), ("players_seated", -1),
                                                  ("period_start", "9999-12-31T23:59:59-14:00"),
                                                  ("period_start", "0001-01-01T00:00:00+14:00")])
    def test_a_time_charge_no_record_holds(self, api, staff, table, field, value):
        api.force_authenticate(staff(Role.DEALER))
        before = written()
        body = {"period_start": timezone.now().isoformat(), "players_seated": 6, field: value}
        response = api.post(f"/api/tables/{table.pk}/time-charges/", body, format="json")
        assert response.status_code == 400, response.content
        assert field in response.json() or "table" in response.json(), response.json()
        assert written() == before


class TestPages:
    """A page's query parameter or path segment: 400 with the message, never a 500."""

    @pytest.fixture
    def browser(self, staff):
        client = Client()
        client.force_login(staff(Role.ADMIN))
        return client

    @pytest.mark.parametrize("url", [
        "/rake/?day=9999-12-31", "/rake/?day=0001-01-01", "/rake/?day=2024-13-01", "/rake/?day=abc",
        "/rake/?day=%00", "/rake/export.csv?day=9999-12-31", "/irregularities/?day=9999-12-31",
        "/irregularities/?day=abc", "/counts/?day=9999-12-31", "/counts/?day=2024-02-30",
        "/dealers/?start=9999-12-31T23:59", "/dealers/?start=abc", "/dealers/?start=0001-01-01T00:00",
        "/accounting/master-game-report/9999-12-31/", "/accounting/master-game-report/2024-13-01/",
        "/accounting/master-game-report/0001-01-01/report.pdf", "/accounting/master-game-report/abc/report.csv",
        "/accounting/reconciliation/9999-12-31/", "/accounting/forms/9999-12-31/forms.pdf",
        "/accounting/forms/2024-13-45/forms.csv"])
    def test_a_day_no_record_can_have_is_a_400(self, browser, url):
        response = browser.get(url)
        assert response.status_code == 400, (url, response.status_code)


class TestApiQueries:
    """Filters and pages of the API's lists: a value no record can have is a 400 naming the parameter or an empty
    page, never a 500; a page is at most 200 records, whatever is asked."""

    @pytest.mark.parametrize("query", [
        "table=9223372036854775808", "table=-1", "table=abc", "gaming_day=9999-12-31", "gaming_day=0001-01-01",
        "gaming_day=2024-13-01", "gaming_day=abc", "gaming_day=%00", "source=%00", "game=NT", "offset=-1",
        "offset=99999999999999999999", "limit=abc", "limit=-5", "went_to_showdown=maybe", "cursor=abc", "cursor=%00", "cursor=cD0yMDI0",
        "cursor=" + "A" * 5000])
    @pytest.mark.parametrize("path", ["/api/rounds/", "/api/rake-records/"])
    def test_a_filter_no_record_can_have(self, api, staff, table, path, query):
        api.force_authenticate(staff(Role.ADMIN))
        response = api.get(f"{path}?{query}")
        assert response.status_code in (200, 400), (path, query, response.status_code)
        assert isinstance(response.json(), dict)

    def test_a_page_is_at_most_200_records(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        for number in range(201):
            api.post("/api/rounds/", round_body(table, external_id=f"h{number}"), format="json")
        page = api.get("/api/rounds/?limit=100000").json()
        assert len(page["results"]) == 200 and page["next"]

    @pytest.mark.parametrize(("path", "body", "field"), [
        ("/api/reconciliations/", {"gaming_day": "9999-12-31"}, "gaming_day"),
        ("/api/reconciliations/", {"gaming_day": "0001-01-01"}, "gaming_day"),
        ("/api/reconciliations/", {"gaming_day": "2024-13-01"}, "gaming_day"),
    ])
    def test_a_day_no_record_can_have_in_a_body(self, api, staff, path, body, field):
        api.force_authenticate(staff(Role.ACCOUNTING))
        refused(api.post(path, body, format="json"), field)
