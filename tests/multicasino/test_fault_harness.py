"""A short run of the fault harness (bench/multicasino_chaos.py) in CI: three deployments on loopback — host and
two sites, each with its own database, gunicorn and Celery workers — behind the fault proxy, with host kills, a
site cut off and healed, messages dropped, duplicated and reordered, two claims 100 ms apart and forged,
tampered, stale and replayed messages. It asserts the invariants of N.J.A.C. 13:69F-14.20(e) (no cent lost or
counted twice, nothing paid twice, no forgery or replay accepted), not the timings: those are the harness's
default run, by hand (`make chaos`)."""
from decimal import Decimal

import pytest

from tests.support.chaos import load_harness
from tests.support.schema import suite_database_url


@pytest.mark.long
def test_14_20_e_short_fault_run_keeps_every_invariant(monkeypatch, db):
    harness = load_harness(monkeypatch, base_port=18300)
    result = harness.main(["--contributions", "1000", "--writers", "20", "--host-kills", "3", "--seed", "7",
                           "--schema-from", suite_database_url()])
    assert result["contributions"] == 1002  # 1,000 rounds by the writers and the two claims' rounds
    assert result["host_kills"] == 3
    assert Decimal(result["host_pool"]) == Decimal(result["expected_pool"])
    assert result["lost"] == "0.00" and result["double_counted"] == "0.00"
    assert result["double_paid"] == 0 and Decimal(result["paid_at_sites"]) > 0
    assert result["forged_accepted"] == 0
    assert result["replayed_accepted"] == 0 and result["replays_sent"] > 0
    assert result["duplicate_pool_entries"] == 0 and result["backlog_left"] == 0
    assert result["max_suspend_s"] is not None and result["max_notice_s"] is not None
    assert result["sites_resumed"] is True
    assert result["proxy"]["dropped"] > 0 and result["proxy"]["duplicated"] > 0 and result["proxy"]["reordered"] > 0
