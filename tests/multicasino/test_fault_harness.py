"""Three deployments on loopback run as one multi-casino bad beat system (bench/multicasino_chaos.py): the host and
two sites, each with its own database, gunicorn and Celery workers, every message between them through the fault
proxy. Set up once for the module (the set-up is most of a run's time), used first by a short run of the fault
harness, then, its faults off, in real Chromium.

The fault run: host kills, a site cut off and healed, messages dropped, duplicated and reordered, two claims 100 ms
apart and forged, tampered, stale and replayed messages. It asserts the invariants of N.J.A.C. 13:69F-14.20(e) (no
cent lost or counted twice, nothing paid twice, no forgery or replay accepted), not the timings: those are the
harness's default run, by hand (`make chaos`).

In the browser (N.J.A.C. 13:69F-14.20), on the books the fault run left: contributions at two casinos move the
host's pool on every casino's display; a claim verified by a supervisor at one casino shows "payout pending" on all
three displays; a casino cut off from the host shows "suspended" on its display."""
import random
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from apps.core.money import dollars
from tests.support.chaos import load_harness
from tests.support.schema import suite_database_url

pytestmark = pytest.mark.long
#: The short run's options: 1,000 contributions by 20 writers, three host kills, 10 % of messages dropped and 10 %
#: duplicated (the harness's defaults), seed 7.
FAULT_RUN = ["--contributions", "1000", "--writers", "20", "--host-kills", "3", "--seed", "7"]


@pytest.fixture(scope="module")
def system(request, django_db_setup, django_db_blocker):
    """(harness module, options, rng, deployments by name, fault proxy, set-up: keys and tokens), serving until the
    module's last test ends. The deployments' tables are copied from the suite's test database, which the suite
    sets up when a test of the run is marked django_db (the fault run is); the browser test run alone migrates
    them instead."""
    suite_database = any(item.get_closest_marker("django_db") for item in request.session.items)
    with pytest.MonkeyPatch.context() as monkeypatch, django_db_blocker.unblock():
        harness = load_harness(monkeypatch, base_port=18300)
        args = harness.parse_args([*FAULT_RUN, *(["--schema-from", suite_database_url()] if suite_database else [])])
        rng = random.Random(args.seed)
        deployments, proxy, setup = harness.start_system(
            args, Path(tempfile.mkdtemp(prefix="pokerroom-chaos-")), rng)
        try:
            yield harness, args, rng, deployments, proxy, setup
        finally:
            for deployment in deployments.values():
                deployment.kill()


@pytest.mark.django_db  # the suite then sets up its test database, whose tables the deployments copy
def test_14_20_e_short_fault_run_keeps_every_invariant(system):
    harness, args, rng, deployments, proxy, setup = system
    result = harness.fault_run(args, deployments, proxy, setup, rng)
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


def log_in(browser, deployment, role: str):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30000)
    page.goto(f"{deployment.url}/accounts/login/")
    page.fill("#id_username", role)
    page.fill("#id_password", f"demo-{role}")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)  # the role's home (apps.core.navigation)
    return page


def record_round(deployment, token: str, round_in: dict, external_id: str) -> int:
    response = httpx.post(f"{deployment.url}/api/rounds/", headers={"Authorization": f"Token {token}"}, timeout=15,
                          json={**round_in, "table": deployment.table_id, "external_id": external_id})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def shown_on_every_display(displays: dict, selector: str, text: str) -> None:
    for page in displays.values():  # each display refreshes by itself
        page.wait_for_function(f"() => document.querySelector('{selector}')?.textContent.trim() === '{text}'")


@pytest.mark.browser
def test_14_20_three_casinos_one_system_in_the_browser(browser, system):
    harness, _, _, deployments, proxy, setup = system
    proxy.drop = proxy.duplicate = 0.0  # the faults off: what a casino's screens show on a sound link
    host = deployments["host"]
    pool = host.sql("select pool from multicasino_badbeatsystem")[0][0]  # as the fault run left it
    displays = {}
    for name, deployment in deployments.items():
        displays[name] = log_in(browser, deployment, "dealer")
        displays[name].goto(f"{deployment.url}/jackpot/display/")
    panel = "[data-testid=system-panel] .display-amount"
    shown_on_every_display(displays, panel, dollars(pool))

    # Contributions at two casinos: $1.00 a pot, 10 % of it set aside for the reset amount (14.19(p)).
    for i in range(3):
        record_round(deployments["site-a"], setup["tokens"]["site-a"], harness.PLAIN, f"a-{i}")
        record_round(deployments["site-b"], setup["tokens"]["site-b"], harness.PLAIN, f"b-{i}")
    shown_on_every_display(displays, panel, dollars(pool + Decimal("5.40")))  # the host's pool, on every display
    assert host.sql("select pool from multicasino_badbeatsystem")[0][0] == pool + Decimal("5.40")

    # A bad beat at site-a, verified by its supervisor with the engine's verdict on the claim page.
    round_id = record_round(deployments["site-a"], setup["tokens"]["site-a"], harness.QUALIFYING, "a-bad-beat")
    claims = httpx.get(f"{deployments['site-a'].url}/api/claims/", timeout=15,
                       headers={"Authorization": f"Token {setup['tokens']['site-a']}"}).json()["results"]
    claim_id = next(c["id"] for c in claims if c["round_of_play"] == round_id)
    supervisor = log_in(browser, deployments["site-a"], "poker_shift_supervisor")
    supervisor.goto(f"{deployments['site-a'].url}/jackpot/claims/{claim_id}/")
    supervisor.check("[data-testid=verify-confirm]")  # the figures shown are checked before anything is written
    supervisor.click("[data-testid=verify]")
    verified_at = time.monotonic()
    for page in displays.values():
        page.locator("[data-testid=system-pending]").first.wait_for()
        assert "at Casino site-a, table 1" in page.locator("[data-testid=system-pending]").first.inner_text()
    assert time.monotonic() - verified_at < 15

    # site-b is cut off from the host: its display says so once the silence exceeds 10 s (14.20(e)4.i).
    proxy.cut.add("site-b")
    displays["site-b"].locator("[data-testid=suspended]").wait_for(timeout=30000)
    assert "SUSPENDED" in displays["site-b"].locator("[data-testid=suspended]").inner_text()
    assert displays["site-a"].locator("[data-testid=suspended]").count() == 0
