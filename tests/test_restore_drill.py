"""A short restore drill (bench/restore_drill.py, `make restore-drill`): a PostgreSQL cluster of its own archiving WAL
with pgBackRest as docker-compose's database does, rounds of play through the money path, a full backup taken as the
backup service takes its first one, more rounds, the target T, more rounds, the cluster destroyed (pg_wal too) and
restored to T. A casino system recovers from an outage with nothing committed lost (N.J.A.C. 13:69D-2.2; GLI-24's
tested backup and recovery): every round before T comes back, none after, and the books agree with their records.
The timings are the full drill's, by hand (bench/README.md)."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import IN_CI
from tests.support.schema import suite_database_url

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.long
def test_restore_to_a_moment_brings_back_every_round_before_it_and_none_after(db):
    if shutil.which("pgbackrest") is None:
        message = "pgbackrest is not installed: `make pgbackrest` (a dependency of `make test`) installs Debian's package."
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    # The drill runs its own cluster and settings: none of the suite's database, Redis or Django settings.
    env = {k: v for k, v in os.environ.items() if k not in {
        "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "CELERY_TASK_ALWAYS_EAGER", "DATABASE_APP_ROLE",
        "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGOPTIONS"}}
    # the suite's migrated tables copied in (`make restore-drill` migrates): the drill is of the backup, not of migrate
    schema = ["--schema-from", suite_database_url()]
    done = subprocess.run([sys.executable, "bench/restore_drill.py", "--rounds", "12", "--before", "6", "--after", "6",
                           *schema],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    # 12 rounds in the full backup and 6 from the archived WAL after it, all committed before T: all back
    assert result["rounds_before_target"] == 18 and result["restored"] == 18 and result["lost"] == 0
    # the 6 rounds recorded after T were in the archive too, and recovery stopped before them
    assert result["rounds_after_target"] == 6 and result["after_target"] == 0
    # the daily ledger check and every running total against its records; the state read at T is the restored one
    assert result["ledger_ok"] is True and result["ledger_problems"] == 0
    assert result["state_at_target_ok"] is True
    # the app's role can do what migrate granted it, no more: roles and grants came back with the data
    assert result["app_role_ok"] is True
    # nothing but the idle moment between the last commit and T is missing; the database answered and was checked
    assert 0 <= result["rpo_s"] < result["archive_timeout_s"] <= 60
    assert result["rto_s"] > 0
    assert result["restore_s"] + result["recovery_s"] + result["check_s"] == pytest.approx(result["rto_s"], abs=0.02)
