"""A short run of the fault harness (bench/faults.py, `make faults`) in CI: one deployment on loopback — gunicorn, a
Celery worker with beat, a PostgreSQL cluster and two redis-servers of its own — with each fault once, a few seconds
each: Redis down and hung, the broker down, the jackpot's row lock held, statement timeouts, connections exhausted,
PostgreSQL restarted mid-import, the worker killed mid-batch. Feeds post rounds with Idempotency-Keys and retry.
It asserts the issue's invariants for every fault (no 5xx but 503, no partial write, no orphaned job, no round
acknowledged but missing or recorded twice, recovered); the timings of the full run are `make faults`'s."""
import os
from urllib.parse import urlsplit

import pytest
from django.db import connection

from tests.support.chaos import ROOT


@pytest.mark.long
@pytest.mark.django_db  # the suite's test database exists (migrated): the harness copies its tables
def test_every_fault_once_keeps_every_invariant(monkeypatch):
    import importlib.util

    database = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pokerroom"))
    if not database.scheme.startswith("postgres"):
        pytest.fail("The fault harness copies the suite's migrated database: set DATABASE_URL (PostgreSQL).")
    # The suite's test database, migrated at the session's start, read by DATABASE_URL's login (the superuser):
    # copied into the harness's own cluster instead of migrating it again (a minute on a busy machine).
    schema_from = database._replace(path=f"/{connection.settings_dict['NAME']}").geturl()  # a socket's ?host= kept
    monkeypatch.setenv("FAULTS_BASE_PORT", "18800")  # clear of the multi-casino harnesses (18100-18602)
    for name in ("DJANGO_SETTINGS_MODULE", "CELERY_TASK_ALWAYS_EAGER", "DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    spec = importlib.util.spec_from_file_location("faults_harness", ROOT / "bench" / "faults.py")
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    result = harness.main(["--short", "--schema-from", schema_from])
    assert set(result["faults"]) == set(harness.FAULTS)
    for name, fault in result["faults"].items():
        assert fault["server_errors"] == 0, (name, fault)
        assert fault["partial_writes"] == 0, (name, fault)
        assert fault["orphaned_jobs"] == 0, (name, fault)
        assert fault["recovery_s"] is not None, (name, fault)
    for name in ("lock_held", "statement_timeout", "connections_exhausted", "postgres_restart"):
        assert result["faults"][name]["answers_503"] > 0, (name, "the fault did not bite")
    assert result["acknowledged_missing"] == 0 and result["recorded_twice"] == 0
    assert result["ledger_problems"] == 0 and result["orphaned_jobs"] == 0 and result["import_jobs"] == 3
    assert result["rounds_acknowledged"] > 0 and result["server_errors"] == 0
