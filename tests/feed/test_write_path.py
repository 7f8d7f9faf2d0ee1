"""Issue 14, item 3: a lean write path. One round of play posted to POST /api/rounds/ (with an Idempotency-Key, as a
dealer's tablet sends it) reads each thing once: one API token with the user's roles, the jackpots once under their
row lock with the gaming day's contributions and the multi-casino terms (the contribution and the showdown check
share them), no read before the rake record (its unique round refuses a second, 14.14(e)), and no jackpot history
event a round. The statement count is held at what it is now, so that a change that
adds a read to every round of play is seen."""
import re
import uuid
from decimal import Decimal

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from knox.models import AuthToken

from apps.badbeat.models import Contribution, Jackpot
from apps.core.roles import Role
from apps.rake.models import RakeRecord
from tests.factories import JackpotFactory, RakeStructureFactory

pytestmark = pytest.mark.django_db

#: Statements of one raked, contributing round posted with an Idempotency-Key, on PostgreSQL, from the token's read to
#: the COMMIT (the key's savepoints included): 24 on 2026-11-24, from 30; 15 on 2026-11-25 (the money path takes no
#: savepoint of its own under a key; the contribution with the balances, and the seats with the pots and awards, in
#: one round trip each).
MOST_STATEMENTS = 15


def post_round(api, table, token):
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
    return api.post("/api/rounds/", {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}, format="json")


def reads_of(queries, table: str) -> int:
    """The statements that read `table` (in their own FROM: a subquery's table, in parentheses, is not counted)."""
    count = 0
    for query in queries:
        sql = query["sql"].split("; ")[-1]  # after pghistory's set_config
        while re.search(r"\([^()]*\)", sql):
            sql = re.sub(r"\([^()]*\)", "", sql)
        count += bool(re.match(rf'\s*SELECT\b.*\bFROM "{table}"', sql, re.S))
    return count


def test_one_round_reads_each_thing_once_and_takes_at_most_its_statements(api, casino, staff):
    table = RakeStructureFactory(table__casino=casino).table
    jackpot = JackpotFactory(casino=casino)
    dealer = staff(Role.DEALER)
    for _ in range(4):  # the tablets the dealer signed in from: none of them read on a request
        AuthToken.objects.create(user=dealer)
    _, token = AuthToken.objects.create(user=dealer)
    assert post_round(api, table, token).status_code == 201  # the first round of the day makes its totals' rows
    events = apps.get_model("badbeat", "JackpotEvent").objects.count()
    with CaptureQueriesContext(connection) as captured:
        answer = post_round(api, table, token)
    assert answer.status_code == 201, answer.json()
    queries = captured.captured_queries
    assert reads_of(queries, "knox_authtoken") == 1
    assert reads_of(queries, "auth_group") == 0  # the roles come with the token (an ArraySubquery)
    assert reads_of(queries, "multicasino_site") == reads_of(queries, "badbeat_gamingdaycontributions") == 0
    assert reads_of(queries, "badbeat_jackpot") == 1 and "FOR UPDATE" in next(
        q["sql"] for q in queries if re.match(r'\s*SELECT\b.*\bFROM "badbeat_jackpot"', q["sql"], re.S))
    assert reads_of(queries, "rake_rakerecord") == 0
    assert RakeRecord.objects.filter(round_of_play_id=answer.json()["id"]).count() == 1
    assert Contribution.objects.filter(round_of_play_id=answer.json()["id"], jackpot=jackpot).count() == 1
    assert apps.get_model("badbeat", "JackpotEvent").objects.count() == events  # the running totals make no event
    # the key's transaction (a savepoint here, in the test's transaction), the key's savepoint around the handler,
    # and the money path's own (it does not know who calls it: apps.feed.services.record_batch_of_rounds)
    assert [q["sql"].split("; ")[-1].split(" ")[0] for q in queries].count("SAVEPOINT") == 3
    assert len(queries) <= MOST_STATEMENTS, f"{len(queries)}: " + "\n".join(q["sql"][:120] for q in queries)


def test_a_change_of_the_posted_rules_is_still_a_jackpot_event(casino):
    """14.19(q): the rule fields, the status and the display keep their history; only the running totals that
    every contribution moves (kept as Contribution, Payout and Transfer records) are left out."""
    jackpot = JackpotFactory(casino=casino)
    events = apps.get_model("badbeat", "JackpotEvent").objects.filter(pgh_obj_id=jackpot.pk)
    before = events.count()
    Jackpot.objects.filter(pk=jackpot.pk).update(balance=Decimal("12.00"), contributions_total=Decimal("12.00"))
    assert events.count() == before
    Jackpot.objects.filter(pk=jackpot.pk).update(minimum_pot=Decimal("40.00"))
    assert events.count() == before + 1
    assert events.order_by("-pgh_id").first().minimum_pot == Decimal("40.00")
