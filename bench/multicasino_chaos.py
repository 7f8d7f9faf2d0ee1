#!/usr/bin/env python
"""Fault harness of the multi-casino bad beat system (N.J.A.C. 13:69F-14.20): `make chaos`.

Starts three deployments on loopback — the host and two sites, each with its own PostgreSQL database, its own
gunicorn and its own Celery worker (with beat) — and routes every message between them through a fault proxy of
ours that drops, duplicates, delays and so reorders them. Meanwhile writers add contributions at the two sites
(rounds of play through each site's API), the host's processes are killed (SIGKILL) and restarted, one site is
cut off and healed, and forged, tampered, stale, future, unknown-sender and replayed messages are sent to the
host. Two qualifying claims are verified at the two sites 100 ms apart: the time until every casino's display
shows "payout pending" is measured, the first is paid (twice, as a double click would), the second must be refused.
At the end it waits for every outbox to drain and compares what the host holds (pool plus reset reserve) with the
contributions recorded at the sites less the payouts delivered there. The last line of output is one JSON object.

`max_notice_s` is the time from the verifying answer to the first display response showing the notice at the
slowest casino, plus the display's own 2 s polling interval (the worst case a screen on the wall adds).
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import httpx
import psycopg
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from apps.multicasino.signing import canonical, sign  # noqa: E402 - Django-free: how the deployments sign

PG = os.environ.get("CHAOS_PG", "postgres://postgres@127.0.0.1:5432")  # a server's URL, with no database


def pg_url(database: str) -> str:
    """PG's URL of `database`; a unix socket's `?host=` (an embedded server's) kept after it."""
    server, _, query = PG.partition("?")
    return f"{server}/{database}" + (f"?{query}" if query else "")


REDIS = os.environ.get("CHAOS_REDIS", "redis://127.0.0.1:6379")
BASE_PORT = int(os.environ.get("CHAOS_BASE_PORT", "18100"))
REDIS_DB = 1 + 3 * ((BASE_PORT // 100) % 5)  # three Redis databases per base port, so that two runs never mix
START_TIMEOUT = float(os.environ.get("CHAOS_START_TIMEOUT", "180"))  # seconds a deployment may take to serve
RULES = {"qualifying_hand": "four_of_a_kind", "qualifying_minimum_rank": None, "both_hole_cards_must_play": True,
         "minimum_players_dealt": 4, "contribution_amount": "1.00", "contribution_percentage": None,
         "minimum_pot": "20.00", "maximum_contribution": "1.00", "reset_percentage": "10.00",
         "losing_share": "50.00", "winning_share": "25.00", "table_share": "25.00"}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


#: Run by `Deployment.manage_many`: call_command for each command of argv[1] (a JSON list of argument lists), then
#: what each printed as one JSON line.
MANAGE_MANY = """
import io, json, sys
import django
django.setup()
from django.core.management import call_command
printed = []
for command in json.loads(sys.argv[1]):
    out = io.StringIO()
    call_command(*command, stdout=out)
    printed.append(out.getvalue())
print(json.dumps(printed))
"""


class Deployment:
    """One casino's deployment: database, gunicorn, a Celery worker with beat and the link's worker."""

    def __init__(self, name: str, index: int, workdir: Path) -> None:
        self.name, self.index = name, index
        self.port, self.proxy_port = BASE_PORT + index, BASE_PORT + 100 + index
        self.db = f"chaos_{BASE_PORT}_{name.replace('-', '_')}"
        self.workdir = workdir
        self.processes: list[subprocess.Popen] = []
        self.env = {**os.environ, "DATABASE_URL": pg_url(self.db), "REDIS_URL": f"{REDIS}/{REDIS_DB + index}",
                    "DJANGO_STATIC_ROOT": str(workdir / "static"),
                    "CELERY_TASK_ALWAYS_EAGER": "false", "DJANGO_SECRET_KEY": f"chaos-{name}",
                    "DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                    "DJANGO_SECURE_COOKIES": "false", "DJANGO_LOG_LEVEL": "ERROR",
                    # plain http on loopback (no TLS proxy in front), and a load test: no redirect to https, and
                    # throttles far above what 50 writers post
                    "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_THROTTLE_USER": "1000000/min",
                    "DJANGO_THROTTLE_ANON": "1000000/min"}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def inbox_via_proxy(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}/api/multicasino/inbox/"

    def manage(self, *args: str, database: str | None = None) -> str:
        env = self.env if database is None else {**self.env, "DATABASE_URL": pg_url(database)}
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{self.name}: manage.py {' '.join(args)} failed:\n{done.stderr[-2000:]}")
        return done.stdout

    def manage_many(self, *commands: list[str]) -> list[str]:
        """Several management commands in one process (Django set up once, not once a command): what each printed."""
        done = subprocess.run([sys.executable, "-c", MANAGE_MANY, json.dumps(commands)], cwd=ROOT,
                              env={**self.env, "DJANGO_SETTINGS_MODULE": "pokerroom.settings"},
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{self.name}: {commands} failed:\n{done.stderr[-2000:]}")
        return json.loads(done.stdout.splitlines()[-1])

    def sql(self, query: str, *params):
        with psycopg.connect(pg_url(self.db), autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    def start(self) -> None:
        out = open(self.workdir / f"{self.name}.log", "ab")
        self.processes = [
            subprocess.Popen([sys.executable, "-m", "gunicorn", "pokerroom.wsgi:application", "--bind",
                              f"127.0.0.1:{self.port}", "--workers", "2", "--timeout", "30"],
                             cwd=ROOT, env=self.env, stdout=out, stderr=out, start_new_session=True),
            subprocess.Popen([sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "-B", "--concurrency", "2",
                              "--loglevel", "WARNING", "--schedule", str(self.workdir / f"{self.name}-beat"), "-Q", "celery", "-n", f"main-{self.name}@%h",
                              "--without-heartbeat", "--without-gossip", "--without-mingle"],
                             cwd=ROOT, env=self.env, stdout=out, stderr=out, start_new_session=True),
            subprocess.Popen([sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "-Q", "link", "-n",
                              f"link-{self.name}@%h", "--concurrency", "2", "--loglevel", "WARNING",
                              "--without-heartbeat", "--without-gossip", "--without-mingle"],
                             cwd=ROOT, env=self.env, stdout=out, stderr=out, start_new_session=True),
        ]
        # Booting Django in gunicorn's workers takes a few seconds, far longer on a loaded machine (two cores shared
        # with the writers, the other deployments' workers and the rest of a test suite): wait for it to serve, for
        # as long as START_TIMEOUT allows, and fail at once, with its log, if it exits instead.
        gunicorn, deadline = self.processes[0], time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if gunicorn.poll() is not None:
                break
            try:
                # The inbox answers an unsigned probe with 401 (and logs it): the app is serving.
                if httpx.post(f"{self.url}/api/multicasino/inbox/", content=b"{}", timeout=2).status_code == 401:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        why = f"exited with {gunicorn.returncode}" if gunicorn.poll() is not None else f"not serving after {START_TIMEOUT} s"
        tail = (self.workdir / f"{self.name}.log").read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{self.name}: gunicorn did not come up ({why}); its log ends:\n{tail}")

    def kill(self) -> None:
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
        self.processes = []


class FaultProxy:
    """A small HTTP proxy in front of each deployment's inbox: drops (before forwarding, or the answer after),
    duplicates (half of the copies at once, half held back 50-500 ms so that the link's later messages overtake
    them: reordering), delays (0-40 ms), and cuts a site off entirely."""

    def __init__(self, deployments: list[Deployment], drop: float, duplicate: float, rng: random.Random) -> None:
        self.deployments, self.drop, self.duplicate, self.rng = deployments, drop, duplicate, rng
        self.cut: set[str] = set()
        self.stats = {"forwarded": 0, "dropped": 0, "duplicated": 0, "reordered": 0, "cut": 0}
        self.held: set[asyncio.Task] = set()  # delayed copies in flight (kept referenced until they are sent)
        self.recorded: list[tuple[dict, bytes]] = []  # genuine contribution messages, for the replay attack
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()
        self.ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.client = httpx.AsyncClient(timeout=10)
        for d in self.deployments:
            self.loop.run_until_complete(asyncio.start_server(
                lambda r, w, d=d: self._handle(r, w, d), "127.0.0.1", d.proxy_port))
        self.ready.set()
        self.loop.run_forever()

    async def _handle(self, reader, writer, target: Deployment) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            _, path, _ = lines[0].split(" ", 2)
            headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            status, answer = await self._forward(target, path, headers, body)
            writer.write(f"HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {len(answer)}\r\n"
                         f"connection: close\r\n\r\n".encode() + answer)
            await writer.drain()
        except Exception:  # noqa: BLE001 - a broken connection is one more fault
            pass
        finally:
            writer.close()

    async def _forward(self, target: Deployment, path: str, headers: dict, body: bytes) -> tuple[int, bytes]:
        sender = headers.get("x-pokerroom-site", "")
        if sender in self.cut or target.name in self.cut:
            self.stats["cut"] += 1
            return 503, b'{"error": "cut off"}'
        await asyncio.sleep(self.rng.uniform(0, 0.04))
        roll = self.rng.random()
        if roll < self.drop / 2:
            self.stats["dropped"] += 1
            return 503, b'{"error": "dropped"}'
        forward = {k: v for k, v in headers.items() if k not in ("host", "content-length", "connection")}
        url = f"{target.url}{path}"
        try:
            response = await self.client.post(url, content=body, headers=forward)
        except httpx.HTTPError:
            return 502, b'{"error": "down"}'
        self.stats["forwarded"] += 1
        if b'"kind":"contribution"' in body and response.status_code == 200 and len(self.recorded) < 5:
            self.recorded.append((headers, body))
        if self.rng.random() < self.duplicate:
            self.stats["duplicated"] += 1
            if self.rng.random() < 0.5:
                await self._post_quietly(url, body, forward)
            else:  # held back: the link's later messages overtake this copy, which arrives out of order
                self.stats["reordered"] += 1
                later = self._post_quietly(url, body, forward, after=self.rng.uniform(0.05, 0.5))
                task = self.loop.create_task(later)
                self.held.add(task)
                task.add_done_callback(self.held.discard)
        if roll < self.drop:  # forwarded, but the answer is lost: the sender will send again
            self.stats["dropped"] += 1
            return 503, b'{"error": "answer dropped"}'
        return response.status_code, response.content

    async def _post_quietly(self, url: str, body: bytes, headers: dict, after: float = 0.0) -> None:
        await asyncio.sleep(after)
        try:
            await self.client.post(url, content=body, headers=headers)
        except httpx.HTTPError:
            pass


def configure(deployments: dict[str, Deployment], workdir: Path, *, schema_from: str | None = None) -> dict:
    """Fresh databases with the demo room (migrated and seeded once, then copied), the system's configuration at
    each and API tokens. `schema_from`: the URL of a database migrated already (the suite passes its own test
    database), whose tables are copied (pg_dump) instead of running every migration again."""
    host = deployments["host"]
    template = f"chaos_{BASE_PORT}_template"
    with psycopg.connect(pg_url("postgres"), autocommit=True) as conn:
        for name in [template, *(d.db for d in deployments.values())]:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{template}"')
        if schema_from:
            dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", schema_from],
                                  capture_output=True, check=True).stdout
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-o", os.devnull, pg_url(template)],
                           input=dump, capture_output=True, check=True)
        else:
            host.manage("migrate", "--noinput", database=template)
        host.manage("seed_demo", "--no-rounds", database=template)
        for d in deployments.values():
            conn.execute(f'CREATE DATABASE "{d.db}" TEMPLATE "{template}"')
        conn.execute(f'DROP DATABASE "{template}"')
    log("databases copied")
    for d in deployments.values():  # a killed earlier run may have left queued tasks and send locks behind
        redis.Redis.from_url(d.env["REDIS_URL"]).flushdb()
    keys = {(a, b): new_secret() for a in deployments for b in deployments if a != b}
    host.manage("collectstatic", "--noinput")  # the pages are served with DEBUG off, as in production
    tokens = {}

    def set_up(d: Deployment) -> None:
        sites = [{"code": d.name, "name": f"Casino {d.name}", "is_self": True, "is_host": d is host}]
        peers = [host] if d is not host else [p for p in deployments.values() if p is not host]
        for p in peers:
            sites.append({"code": p.name, "name": f"Casino {p.name}", "is_host": p is host, "is_self": False,
                          "inbox_url": p.inbox_via_proxy, "outbound_secrets": [keys[(d.name, p.name)]],
                          "inbound_secrets": [keys[(p.name, d.name)]]})
        config = {"system": {"code": "nj-chaos", "name": "NJ Bad Beat", "host_name": "Casino host",
                             "host_address": "1 Boardwalk, Atlantic City", "rules": RULES, "casino": "boardwalk",
                             # contributions continue while suspended: the cut-off site's backlog is the test
                             "contributions_while_suspended": True},
                  "sites": sites}
        path = workdir / f"{d.name}.json"
        path.write_text(json.dumps(config))
        _, supervisor, security = d.manage_many(["multicasino_configure", str(path)],
                                                ["create_api_token", "poker_shift_supervisor"],
                                                ["create_api_token", "security"])
        tokens[d.name], d.security_token = supervisor.split()[2], security.split()[2]
        d.security_id = d.sql("select id from casinos_user where username = 'security'")[0][0]
        d.table_id = d.sql("select id from tables_pokertable where number = 1")[0][0]

    with ThreadPoolExecutor(len(deployments)) as pool:  # each deployment has its own database
        list(pool.map(set_up, deployments.values()))
    log("system configured at each deployment")
    return {"keys": keys, "tokens": tokens}


#: A round of play with a $40.00 pot and no bad beat: a $1.00 contribution (the demo room's posted rules).
PLAIN = {"board": "2h 7d 9c Js Kd", "players": [{"seat": 1, "contributed": "20.00", "hole_cards": "As Ac"},
                                               {"seat": 2, "contributed": "20.00", "hole_cards": "Qh Qd"}]}


def writer(site: Deployment, token: str, counter: dict, lock: threading.Lock, target: int, stop: threading.Event):
    client = httpx.Client(timeout=15, headers={"Authorization": f"Token {token}"})
    round_in = {**PLAIN, "table": site.table_id}
    while not stop.is_set():
        with lock:
            if counter["claimed"] >= target:
                return
            counter["claimed"] += 1
        external_id = uuid.uuid4().hex
        for _ in range(20):
            try:
                response = client.post(f"{site.url}/api/rounds/", json={**round_in, "external_id": external_id})
            except httpx.HTTPError:
                time.sleep(0.2)
                continue
            if response.status_code == 201 or "external_id" in response.text:
                break
            time.sleep(0.2)
        with lock:
            counter["written"] += 1


QUALIFYING = {"board": "9h 9d 6s 7s 8s", "players": [
    {"seat": 1, "contributed": "20.00", "hole_cards": "9s 9c"},   # four of a kind, both hole cards playing ...
    {"seat": 2, "contributed": "20.00", "hole_cards": "5s 4s"},   # ... beaten by a straight flush
    {"seat": 3, "contributed": "20.00", "hole_cards": "Ah Kh"},
    {"seat": 4, "contributed": "20.00", "hole_cards": "Qc Jc"}]}


def display_session(site: Deployment) -> httpx.Client:
    """A dealer logged in to the site, as the room's screen is."""
    client = httpx.Client(base_url=site.url, timeout=10, follow_redirects=False)
    client.get("/accounts/login/")
    client.post("/accounts/login/", data={"username": "dealer", "password": "demo-dealer",
                                          "csrfmiddlewaretoken": client.cookies["csrftoken"]},
                headers={"Referer": f"{site.url}/accounts/login/"})
    return client


def claims_phase(deployments: dict[str, Deployment], tokens: dict) -> dict:
    """A qualifying round at each site; both claims verified 100 ms apart; every display polled until it shows
    the pending payout; the first received is paid, twice (the second must be refused), and the other claim's
    payout must be refused too."""
    sites = [deployments["site-a"], deployments["site-b"]]
    claims = {}
    for site in sites:
        api = httpx.Client(base_url=site.url, timeout=15, headers={"Authorization": f"Token {tokens[site.name]}"})
        round_id = api.post("/api/rounds/", json={**QUALIFYING, "table": site.table_id,
                                                  "external_id": f"claim-{site.name}"}).json()["id"]
        claims[site.name] = next(c["id"] for c in api.get("/api/claims/").json()["results"] if c["round_of_play"] == round_id)
        site.api = api
    displays = {d.name: display_session(d) for d in deployments.values()}
    verified_at, answers = {}, {}
    for i, site in enumerate(sites):
        if i:
            time.sleep(0.1)
        answers[site.name] = site.api.post(f"/api/claims/{claims[site.name]}/verify/")
        verified_at[site.name] = time.monotonic()
    log("claims verified: " + ", ".join(f"{k} HTTP {v.status_code}" for k, v in answers.items()))
    seen: dict[str, float] = {}
    while len(seen) < len(displays) and time.monotonic() - verified_at["site-a"] < 60:
        for name, client in displays.items():
            if name not in seen and "PAYOUT PENDING" in client.get("/jackpot/display/",
                                                                   headers={"HX-Request": "true"}).text:
                seen[name] = time.monotonic()
        time.sleep(0.05)
    notice_s = round(max(seen.values()) - verified_at["site-a"] + 2.0, 2) if len(seen) == len(displays) else None
    log(f"pending shown at {sorted(seen)}; max_notice_s {notice_s}")
    # Pay: wait for the host's answer at each site, then deliver the winner's payout twice and try the other.
    deadline, states = time.monotonic() + 60, {}
    while time.monotonic() < deadline:
        states = {s.name: s.api.get("/api/claims/").json()["results"] for s in sites}
        states = {name: next(c for c in rows if c["id"] == claims[name]) for name, rows in states.items()}
        if all(c["status"] == "rejected" or c["payout_amount"] for c in states.values()):
            break
        time.sleep(0.2)
    payouts_accepted = 0
    for site in sites:
        pay = httpx.Client(base_url=site.url, timeout=15, headers={"Authorization": f"Token {site.security_token}"})
        for _ in range(2):
            response = pay.post(f"/api/claims/{claims[site.name]}/payout/",
                                json={"method": "cash", "location": "table", "delivered_by": site.security_id})
            payouts_accepted += response.status_code == 200
    log(f"claims at the sites: {[(n, c['status'], c['payout_amount']) for n, c in states.items()]}; "
        f"payouts accepted: {payouts_accepted}")
    return {"notice_s": notice_s, "payouts_accepted": payouts_accepted, "seen": sorted(seen)}


def signed(secret: str, sender: str, body: dict, *, at: datetime | None = None) -> tuple[dict, bytes]:
    """A message signed as a deployment signs it (apps.multicasino.signing), with `secret`, at `at`."""
    text = canonical(body)
    headers = {**sign(message_id=f"msg_{uuid.uuid4().hex}", text=text, secrets=[secret], at=at),
               "x-pokerroom-system": "nj-chaos", "x-pokerroom-site": sender, "content-type": "application/json"}
    return headers, text.encode()


def attacks(host: Deployment, proxy: FaultProxy, keys: dict) -> dict:
    """Forged, tampered, stale, future and unknown-sender messages, then replays of genuine ones, sent straight
    to the host's inbox. Counts how many were accepted (any 2xx)."""
    inbox = f"{host.url}/api/multicasino/inbox/"
    body = {"kind": "contribution", "sequence": 999_999, "system": "nj-chaos", "sender": "site-a",
            "body": {"reference": "forged", "amount": "1000.00", "gaming_day": "2026-11-23", "site_total": "0"}}
    cases = {
        "forged": signed(new_secret(), "site-a", body),
        "stale": signed(keys[("site-a", "host")], "site-a", body, at=datetime.now(UTC) - timedelta(minutes=6)),
        "future": signed(keys[("site-a", "host")], "site-a", body, at=datetime.now(UTC) + timedelta(minutes=6)),
        "unknown_sender": signed(new_secret(), "site-z", {**body, "sender": "site-z"}),
    }
    headers, raw = signed(keys[("site-a", "host")], "site-a", body)
    cases["tampered"] = (headers, raw.replace(b"1000.00", b"9000.00"))
    forged_accepted = 0
    for name, (headers, raw) in cases.items():
        status = httpx.post(inbox, content=raw, headers=headers, timeout=10).status_code
        forged_accepted += 200 <= status < 300
        log(f"attack {name}: HTTP {status}")
    replayed_accepted = 0
    for headers, raw in proxy.recorded:
        forward = {k: v for k, v in headers.items() if k not in ("host", "content-length", "connection")}
        status = httpx.post(inbox, content=raw, headers=forward, timeout=10).status_code
        replayed_accepted += 200 <= status < 300
    log(f"replayed {len(proxy.recorded)} genuine messages: {replayed_accepted} accepted")
    return {"forged_accepted": forged_accepted, "replayed_accepted": replayed_accepted,
            "replays_sent": len(proxy.recorded)}


def link_live(site: Deployment) -> bool:
    """The site is active and heard from the host within 4 s (two heartbeats): a cut now is a link loss."""
    rows = site.sql("select bool_and(status = 'active') and max(last_heard_at) filter (where is_host) "
                    "> now() - interval '4 seconds' from multicasino_site where is_self or is_host")
    return bool(rows and rows[0][0])


def self_status(site: Deployment) -> str:
    rows = site.sql("select status from multicasino_site where is_self")
    return rows[0][0] if rows else "?"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The harness's options (`make chaos CHAOS_ARGS=...`; the suite's short run passes its own)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contributions", type=int, default=10_000)
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--host-kills", type=int, default=20)
    parser.add_argument("--drop", type=float, default=0.10)
    parser.add_argument("--duplicate", type=float, default=0.10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cut-seconds", type=float, default=4.0, help="How long the site stays cut off once suspended.")
    parser.add_argument("--drain-timeout", type=float, default=300)
    parser.add_argument("--schema-from", metavar="URL", help="copy the tables of this migrated database (pg_dump) "
                        "instead of running migrate: the suite passes its own test database")
    return parser.parse_args(argv)


def start_system(args: argparse.Namespace, workdir: Path,
                 rng: random.Random) -> tuple[dict[str, Deployment], FaultProxy, dict]:
    """The three deployments configured (`configure`) and serving behind the fault proxy (args.drop,
    args.duplicate, drawing on `rng`): (deployments by name, proxy, set-up: keys and tokens). Kills whatever it
    started when it fails."""
    names = ["host", "site-a", "site-b"]
    deployments = {name: Deployment(name, i, workdir) for i, name in enumerate(names)}
    proxy = FaultProxy(list(deployments.values()), args.drop, args.duplicate, rng)
    try:
        log(f"configuring three deployments in {workdir}")
        setup = configure(deployments, workdir, schema_from=args.schema_from)
        proxy.start()
        for d in deployments.values():
            d.start()
    except BaseException:
        for d in deployments.values():
            d.kill()
        raise
    return deployments, proxy, setup


def fault_run(args: argparse.Namespace, deployments: dict[str, Deployment], proxy: FaultProxy, setup: dict,
              rng: random.Random) -> dict:
    """The faults and their invariants on a fresh system (`start_system`): writers, host kills, a site cut off and
    healed, two claims 100 ms apart, attacks; then the outboxes drained and the books compared. The result's
    figures (see the module); the deployments are left running."""
    log("all up; writers start")
    host, sites = deployments["host"], [deployments["site-a"], deployments["site-b"]]
    counter, lock, stop = {"claimed": 0, "written": 0}, threading.Lock(), threading.Event()
    threads = [threading.Thread(target=writer, args=(sites[i % 2], setup["tokens"][sites[i % 2].name], counter,
                                                     lock, args.contributions, stop), daemon=True)
               for i in range(args.writers)]
    for t in threads:
        t.start()
    kills, max_suspend, cut_done = 0, None, False
    kill_marks = [args.contributions * (k + 1) // (args.host_kills + 1) for k in range(args.host_kills)]
    cut_mark = args.contributions // 2 + args.contributions // (2 * (args.host_kills + 1))  # between two kills

    def cut_off_site_b() -> float:
        """Cut site-b off from an active link; the seconds until it is suspended; then heal it."""
        cut_at = time.monotonic()
        proxy.cut.add("site-b")
        log("site-b cut off")
        while self_status(deployments["site-b"]) != "suspended" and time.monotonic() - cut_at < 60:
            time.sleep(0.1)
        seconds = round(time.monotonic() - cut_at, 2)
        log(f"site-b suspended after {seconds} s")
        time.sleep(args.cut_seconds)
        proxy.cut.discard("site-b")
        log("site-b healed")
        return seconds

    while any(t.is_alive() for t in threads) or kills < len(kill_marks):
        written = counter["written"]
        if kills < len(kill_marks) and (written >= kill_marks[kills] or not any(t.is_alive() for t in threads)):
            host.kill()
            time.sleep(rng.uniform(0.5, 2.0))
            host.start()
            kills += 1
            log(f"host killed and restarted ({kills}/{args.host_kills}) at {written} contributions")
        # measured from an active link (after a host kill the site may still be resuming): wait for it
        if not cut_done and written >= cut_mark and link_live(deployments["site-b"]):
            max_suspend, cut_done = cut_off_site_b(), True
        time.sleep(0.05)
    if not cut_done:
        waited = time.monotonic()
        while not link_live(deployments["site-b"]) and time.monotonic() - waited < 120:
            time.sleep(0.2)
        max_suspend = cut_off_site_b()
    for t in threads:
        t.join()
    log(f"writers done: {counter['written']} rounds")
    waited = time.monotonic()
    while not all(self_status(s) == "active" for s in sites) and time.monotonic() - waited < 120:
        time.sleep(0.2)
    log(f"both sites active after {time.monotonic() - waited:.1f} s; claims 100 ms apart")
    claims = claims_phase(deployments, setup["tokens"])
    attack = attacks(host, proxy, setup["keys"])
    deadline, backlog = time.monotonic() + args.drain_timeout, None
    while time.monotonic() < deadline:
        backlog = sum(d.sql("select count(*) from multicasino_outboxmessage where acked_at is null")[0][0]
                      for d in deployments.values())
        if backlog == 0:
            break
        time.sleep(1)
    time.sleep(3)  # a heartbeat round, so that every casino's status reflects the drained links
    log(f"outboxes drained (backlog {backlog})")
    in_system = ("from badbeat_contribution c join multicasino_badbeatsystem m on m.jackpot_id = c.jackpot_id")
    contributed = sum((s.sql(f"select coalesce(sum(c.amount), 0) {in_system}")[0][0] for s in sites),
                      Decimal("0.00"))
    contributions = sum(s.sql(f"select count(*) {in_system}")[0][0] for s in sites)
    paid_at_sites = sum((s.sql("select coalesce(sum(c.amount), 0) from multicasino_systemclaim c join "
                               "multicasino_site s on s.id = c.site_id where s.is_self and c.status = 'paid'")[0][0]
                         for s in sites), Decimal("0.00"))
    payouts_at_sites = sum(s.sql("select count(*) from multicasino_systemclaim c join multicasino_site s "
                                 "on s.id = c.site_id where s.is_self and c.status = 'paid'")[0][0] for s in sites)
    pool, reserve = host.sql("select pool, reset_reserve from multicasino_badbeatsystem")[0]
    movements = host.sql("select count(*), count(distinct claim_id) from multicasino_poolmovement "
                         "where kind = 'payout'")[0]
    expected, held = contributed - paid_at_sites, pool + reserve
    entries = host.sql("select count(*), count(distinct (site_id, reference)) from multicasino_poolentry")[0]
    resumed = all(self_status(s) == "active" for s in sites)
    result = {
        "contributions": contributions, "host_kills": kills,
        "expected_pool": f"{expected:.2f}", "host_pool": f"{held:.2f}",
        "lost": f"{max(expected - held, 0):.2f}", "double_counted": f"{max(held - expected, 0):.2f}",
        "double_paid": max(payouts_at_sites - 1, 0) + max(claims["payouts_accepted"] - 1, 0)
                       + (movements[0] - movements[1]),
        "forged_accepted": attack["forged_accepted"], "replayed_accepted": attack["replayed_accepted"],
        "max_suspend_s": max_suspend, "max_notice_s": claims["notice_s"],
        "host_payout_pool": f"{pool:.2f}", "host_reset_reserve": f"{reserve:.2f}",
        "contributed_at_sites": f"{contributed:.2f}", "paid_at_sites": f"{paid_at_sites:.2f}",
        "duplicate_pool_entries": entries[0] - entries[1], "replays_sent": attack["replays_sent"],
        "sites_resumed": resumed, "backlog_left": backlog,
        "rejected_at_host": host.sql("select count(*) from multicasino_rejectedmessage")[0][0],
        "proxy": proxy.stats,
    }
    return result


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    started = time.monotonic()
    deployments, proxy, setup = start_system(args, Path(tempfile.mkdtemp(prefix="pokerroom-chaos-")), rng)
    try:
        result = fault_run(args, deployments, proxy, setup, rng)
    finally:
        for d in deployments.values():
            d.kill()
    result["wall_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(result), flush=True)
    return result


if __name__ == "__main__":
    main()
