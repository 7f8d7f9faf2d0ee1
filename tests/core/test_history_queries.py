"""Every query of the history lists and pages is backed by an index (PostgreSQL's EXPLAIN): no sequential scan of a
history table, so a page costs the same on day 1 and in year 5 (issue 14). The planner is told to avoid sequential
scans (enable_seqscan off), so one only appears where no index can serve the query; the test data is small."""
import json
from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.badbeat.models import Claim
from apps.core.database_roles import append_only_tables
from apps.core.roles import Role
from apps.counts.services import close_gaming_day
from apps.feed.services import PlayerIn, RoundIn, record_round_of_play
from tests.factories import JackpotFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db
D = Decimal

#: The history tables: every append-only record, and the running totals (a row per table and gaming day or hour).
RUNNING_TOTALS = {"rounds_tablegamingday", "rake_tablehourrake", "badbeat_tabledaycontributions",
                  "badbeat_gamingdaycontributions"}


@pytest.fixture
def room(casino):
    table = RakeStructureFactory(table__casino=casino).table
    JackpotFactory(casino=casino, minimum_pot=D("0"), minimum_players_dealt=2)
    yesterday = timezone.now() - timedelta(days=1)
    for when in (yesterday, timezone.now(), timezone.now()):
        record_round_of_play(table=table, round_in=RoundIn(started_at=when, board="9h 9d 6s 7s 8s", players=[
            PlayerIn(seat=1, name="Ana", contributed=D("100"), hole_cards="9s 9c"),
            PlayerIn(seat=2, name="Ben", contributed=D("100"), hole_cards="5s 4s")]))
    with time_machine.travel(timezone.now()):
        close_gaming_day(casino=casino, gaming_day=table.rounds.order_by("started_at").first().gaming_day)
    return table


def seq_scans(sql: str, history: set[str]) -> list[str]:
    """The history tables a query reads by a sequential scan, with enable_seqscan off."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}")
        plan = cursor.fetchone()[0]
        cursor.execute("SET LOCAL enable_seqscan = on")
    plan = json.loads(plan) if isinstance(plan, str) else plan
    found, todo = [], [plan[0]["Plan"]]
    while todo:
        node = todo.pop()
        if node["Node Type"] == "Seq Scan" and node.get("Relation Name") in history:
            found.append(node["Relation Name"])
        todo += node.get("Plans", [])
    return found


def history_selects(client, urls: list[str]) -> list[tuple[str, str]]:
    """(url, sql) of every SELECT the requests run, following each list's next link once."""
    queries = []
    for url in urls:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        queries += [(url, q["sql"]) for q in captured.captured_queries]
        if response.headers.get("Content-Type", "").startswith("application/json"):
            body = response.json()
            if isinstance(body, dict) and body.get("next"):
                with CaptureQueriesContext(connection) as captured:
                    assert client.get(body["next"]).status_code == 200
                queries += [(body["next"], q["sql"]) for q in captured.captured_queries]
    return [(url, sql.split(";", 1)[-1].strip() if sql.startswith("SELECT set_config") else sql)
            for url, sql in queries]


@pytest.mark.parametrize("role", [Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING])
def test_no_list_or_page_scans_a_history_table(client, staff, room, role):
    history = set(append_only_tables()) | RUNNING_TOTALS
    client.force_login(staff(role))
    table = room.pk
    urls = ["/api/rounds/?limit=1", f"/api/rounds/?table={table}&limit=1", "/api/rake-records/?limit=1",
            f"/api/rake-records/?table={table}&limit=1", "/api/claims/?limit=1", "/api/jackpot/", "/api/jackpots/",
            "/", f"/tables/{table}/", "/accounting/contributions/", "/jackpot/claims/", "/rake/", "/counts/"]
    # the round search (apps.rounds.filters), page and API, by each filter; the ledger by day and table
    day = room.rounds.order_by("started_at").first().gaming_day
    urls += ["/rounds/", f"/rounds/?table={table}", "/rounds/?player=an", "/rounds/?player=ANA&table=" + str(table),
             "/rounds/?hand=Four+of+a+kind", "/rounds/?game=holdem&pot_min=100&pot_max=500",
             f"/rounds/?gaming_day={day}", "/rounds/?started_after=2020-01-01T00:00&started_before=2999-01-01T00:00",
             "/api/rounds/?player=ben&limit=1", "/api/rounds/?hand=Straight+flush&limit=1",
             f"/accounting/contributions/?day={day}&table={table}"]
    # the history tabs (apps.core.history): a claim and its payout, the rule changes, a table and its rake, the counts
    claim = Claim.objects.filter(round_of_play__table=room).first()
    urls += [f"/jackpot/claims/{claim.pk}/?tab=history", "/jackpot/rules/?tab=history", f"/tables/{table}/?tab=history",
             f"/counts/?day={day}&tab=history"]
    allowed = {"/": {Role.POKER_SHIFT_SUPERVISOR}, "/counts/": {Role.POKER_SHIFT_SUPERVISOR, Role.ACCOUNTING},
               f"/accounting/contributions/?day={day}&table={table}": {Role.ACCOUNTING}}
    urls = [u for u in urls if role in allowed.get(u, {role})]
    problems, read = [], set()
    for url, sql in history_selects(client, urls):
        if sql.lstrip().upper().startswith("SELECT"):
            read |= {name for name in history if f'"{name}"' in sql}
            problems += [(url, name, sql[:300]) for name in seq_scans(sql, history)]
    assert problems == []
    # the lists and pages read the history they show (the check above saw them)
    shown = {"rounds_roundofplay", "rake_rakerecord", "badbeat_contribution", "badbeat_gamingdaycontributions"}
    assert shown | ({"rounds_tablegamingday"} if role == Role.POKER_SHIFT_SUPERVISOR else set()) <= read


def test_the_check_sees_a_scan(room):
    """The check itself: a query no index serves is caught."""
    assert seq_scans("SELECT * FROM rounds_roundofplay WHERE board = 'x'", {"rounds_roundofplay"}) == [
        "rounds_roundofplay"]
