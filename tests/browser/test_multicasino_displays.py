"""Three deployments on loopback run as one multi-casino bad beat system, seen in real Chromium (N.J.A.C.
13:69F-14.20): contributions at two casinos move the host's pool on every casino's display; a claim verified by
a supervisor at one casino shows "payout pending" on all three displays; a casino cut off from the host shows
"suspended" on its display. Each deployment has its own database, gunicorn and Celery workers (the fault
harness's set-up, with no faults injected)."""
import random
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from tests.support.chaos import load_harness
from tests.support.schema import suite_database_url

pytestmark = [pytest.mark.browser, pytest.mark.long]


@pytest.fixture
def system(monkeypatch, db):
    harness = load_harness(monkeypatch, base_port=18500)
    workdir = Path(tempfile.mkdtemp(prefix="pokerroom-browser-"))
    deployments = {name: harness.Deployment(name, i, workdir) for i, name in enumerate(["host", "site-a", "site-b"])}
    proxy = harness.FaultProxy(list(deployments.values()), drop=0.0, duplicate=0.0, rng=random.Random(1))
    try:
        setup = harness.configure(deployments, workdir, schema_from=suite_database_url())
        proxy.start()
        for deployment in deployments.values():
            deployment.start()
        yield harness, deployments, proxy, setup
    finally:
        for deployment in deployments.values():
            deployment.kill()


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


def test_14_20_three_casinos_one_system_in_the_browser(browser, system):
    harness, deployments, proxy, setup = system
    displays = {}
    for name, deployment in deployments.items():
        displays[name] = log_in(browser, deployment, "dealer")
        displays[name].goto(f"{deployment.url}/jackpot/display/")
    panel = "[data-testid=system-panel] .display-amount"
    for page in displays.values():
        page.wait_for_function(f"() => document.querySelector('{panel}')?.textContent.trim() === '$0.00'")

    # Contributions at two casinos: $1.00 a pot, 10 % of it set aside for the reset amount (14.19(p)).
    for i in range(3):
        record_round(deployments["site-a"], setup["tokens"]["site-a"], harness.PLAIN, f"a-{i}")
        record_round(deployments["site-b"], setup["tokens"]["site-b"], harness.PLAIN, f"b-{i}")
    for page in displays.values():  # the host's pool, $5.40, on every display (each refreshes by itself)
        page.wait_for_function(f"() => document.querySelector('{panel}')?.textContent.trim() === '$5.40'")

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
