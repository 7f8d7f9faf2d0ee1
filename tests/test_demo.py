"""`make demo` as it runs: on PostgreSQL with production's two roles — the schema the owner's, which grants the app role
its privileges, then seeded and served as the app role — with eager tasks and no Redis; the demo's pages after login,
its books clean, and the History tab of the claim a supervisor verifies in the demo naming who did it (pghistory's
triggers and middleware: the demo's audit trail is production's). On a database of its own on the suite's server,
made by the suite's owner role, holding the suite's migrated tables copied as the owner (pg_dump) and the grants of
`grant_app_role`: `migrate` from nothing as the owner, on make demo's embedded server, is tests/test_embedded_db.py's."""
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection
from psycopg import sql

from tests.support import database_roles
from tests.support.schema import suite_database_url

ROOT = Path(__file__).resolve().parents[1]
SMOKE = """
import csv, io, re
from django.test import Client
from apps.badbeat.models import Claim, ClaimStatus
from apps.casinos.models import User
from apps.counts.models import BadBeatCount
from apps.rounds.models import RoundOfPlay
from tests.support.history import history_rows

c = Client()
assert c.post("/accounts/login/", {"username": "poker_shift_supervisor",
                                   "password": "demo-poker_shift_supervisor"}).status_code == 302
for url in ["/", "/decks/", "/rake/", "/accounting/contributions/", "/api/rounds/", "/api/docs/"]:
    response = c.get(url)
    assert response.status_code == 200, (url, response.status_code)
# accounting's contribution ledger on clean books: the close of the demo's past gaming day found every running total
# equal to its records, and no VARIANCE is shown (14.19(k))
accounting = Client()
assert accounting.post("/accounts/login/", {"username": "accounting", "password": "demo-accounting"}).status_code == 302
ledger = accounting.get("/accounting/contributions/").content.decode()
assert "every running total agrees with its records" in ledger and "VARIANCE" not in ledger, ledger
# the rake CSV of the day, each round's start in the casino's zone as PostgreSQL writes it (LocalIsoformat)
rows = list(csv.DictReader(io.StringIO(b"".join(accounting.get("/rake/export.csv").streaming_content).decode())))
assert rows, "the demo's gaming day has raked rounds"
for row in rows:
    played = RoundOfPlay.objects.select_related("table__casino").get(pk=row["round"])
    assert row["started_at"] == played.started_at.astimezone(played.table.casino.zone).isoformat(), row
# the supervisor verifies the demo's bad beat on its page (14.19(i)), then reads who did it on its History tab
claim = Claim.objects.get(status=ClaimStatus.PENDING)
page_url = f"/jackpot/claims/{claim.pk}/"
page = c.get(page_url).content.decode()
form = page[page.index('data-testid="verify-form"'):]
checked = re.search(r'name="checked" value="([0-9a-f]+)"', form[:form.index("</form>")]).group(1)
assert c.post(page_url, {"action": "verify", "confirm": "on", "checked": checked}).status_code == 302
claim.refresh_from_db()
assert claim.status == ClaimStatus.VERIFIED
history = history_rows(c.get(f"{page_url}?tab=history"))
supervisor = User.objects.get(username="poker_shift_supervisor")
print("history:", history)
who, record, what, changes = history[0]  # newest first
assert (who, record, what) == (supervisor.get_full_name() or supervisor.username, "Claim", "Changed"), history
assert "Verified" in changes, history
assert history[-1][2] == "Opened" and history[-1][0] == "the system", history  # the engine opened it at the showdown
# security delivers the payout on the claim's page (14.19(i)2, (j)): the History tab shows the payout and the claim
# paid, each by security
guard = Client()
assert guard.post("/accounts/login/", {"username": "security", "password": "demo-security"}).status_code == 302
security = User.objects.get(username="security")
form = guard.get(page_url).content.decode()
form = form[form.index('data-testid="payout-form"'):]
checked = re.search(r'name="checked" value="([0-9a-f]+)"', form[:form.index("</form>")]).group(1)
assert guard.post(page_url, {"action": "payout", "method": "cash", "location": "table", "delivered_by": security.pk,
                             "confirm": "on", "checked": checked}).status_code == 302
claim.refresh_from_db()
assert claim.status == ClaimStatus.PAID
history = history_rows(guard.get(f"{page_url}?tab=history"))
name = security.get_full_name() or security.username
assert history[0][:3] == (name, "Payout", "Recorded") and "Delivered by: " + name in history[0][3], history
assert history[1][:3] == (name, "Claim", "Changed") and "→ Paid" in history[1][3], history
assert [h[2] for h in history[2:]] == ["Changed", "Opened"], history  # the verification, the showdown
# the History tab of a count the seed recorded for the past gaming day: the count as recorded and its form's parts
# as accounting received them
count = BadBeatCount.objects.filter(serial_number__isnull=False).order_by("pk").first()  # both parts received
history = history_rows(c.get(f"/counts/?tab=history&day={count.gaming_day}&count={count.pk}"))
recorded = [h for h in history if h[2] == "Recorded"]
assert len(recorded) == 1 and recorded[0][1].startswith(f"Form {count.serial_number}"), history
assert f"Counted: ${count.amount:,.2f}" in recorded[0][3] and "Variance: $0.00" in recorded[0][3], history
assert sorted(h[3].split(" (")[0] for h in history if h[2] == "Received") == ["Part: Duplicate", "Part: Original"], \
    history
# the demo dealer deals at a table of the shift's rotation now: the home names it, its decks and the next break
dealer = Client()
assert dealer.post("/accounts/login/", {"username": "dealer", "password": "demo-dealer"}).status_code == 302
home = dealer.get("/dealers/home/").content.decode()
assert "Dealing at table" in home and 'data-testid="my-decks"' in home and 'data-testid="next-break"' in home, home
print("demo ok")
"""


@pytest.mark.slow
@pytest.mark.long
def test_demo_runs_on_postgresql_as_production_roles_and_shows_its_history(database_roles_in_use, db):
    roles, settings_dict = database_roles_in_use, connection.settings_dict
    name = f"{settings_dict['NAME']}_demo"[:63]

    def database_url(user: str, dbname: str = name) -> str:
        return database_roles.url(settings_dict, user=user, dbname=dbname)

    with psycopg.connect(database_url(roles.owner, "postgres"), autocommit=True) as owner:
        owner.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        owner.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DATABASE_APP_ROLE"}}
    env |= {"DJANGO_DEBUG": "true"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    try:
        dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", suite_database_url()],
                              capture_output=True, check=True).stdout
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-o", os.devnull, database_url(roles.owner)],
                       input=dump, capture_output=True, check=True)
        for command, user in ((["grant_app_role"], roles.owner), (["seed_demo"], roles.app),
                              (["shell", "-c", SMOKE], roles.app)):
            done = subprocess.run(manage + command, cwd=ROOT, capture_output=True, text=True, timeout=900,
                                  env=env | {"DATABASE_URL": database_url(user), "DATABASE_APP_ROLE": roles.app})
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert "demo ok" in done.stdout, done.stdout[-3000:]
    finally:
        with psycopg.connect(database_url(roles.owner, "postgres"), autocommit=True) as owner:
            owner.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
