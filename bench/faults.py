#!/usr/bin/env python
"""Fault harness of one deployment (issue 32; design.md, "Faults"): `make faults`.

Serves a deployment on loopback — gunicorn (3 workers, timeout 30 s), a Celery worker with beat, PostgreSQL and
Redis — and, while clients post rounds of play with Idempotency-Keys and retry as a feed would (the same key after
a 503, a 5xx or a broken connection, waiting Retry-After), injects each fault in turn:

    redis_down          the cache's and the broker's Redis killed (one Redis, as docker-compose runs)
    redis_hung          the cache's Redis replaced by a socket that accepts and never answers
    broker_down         the broker's Redis killed, while a PHH import job is posted (202, swept once it is back)
    lock_held           another session holds the jackpot's row lock (--lock-seconds, 45 s by default)
    statement_timeout   every round's INSERT made to sleep past the statement timeout (a trigger)
    connections_exhausted  the app's connections terminated and every free connection slot taken by another login
    postgres_restart    PostgreSQL restarted (pg_ctl restart -m fast) while a PHH import job runs
    worker_killed       the Celery worker killed (SIGKILL) while a PHH import job is mid-batch, then started again

Everything runs on a PostgreSQL cluster of its own (initdb in a temporary folder with this machine's binaries,
/usr/lib/postgresql/*/bin, as the `postgres` user when run as root; max_connections 30) and two redis-servers of its
own (cache and broker), so that restarting, filling or killing them touches nothing else on the machine. The
app connects as a role that owns nothing (DATABASE_APP_ROLE), as in production; `migrate` runs as the owner.

Per fault (the requests counted while it is held and until it has recovered):

- server_errors: answers 5xx other than 503 (must be 0), and broken connections (gunicorn killed a worker: 0);
- answers_503: 503s (with Retry-After), what the faults should give;
- partial_writes: rounds of play lacking their seats, pots or rake record (0), and, at the end, the ledger check's
  problems (apps.counts.selectors.ledger_check: every running total against its records);
- orphaned_jobs: PHH import jobs not done once recovered (0);
- acknowledged_missing: rounds a client got a 2xx for, missing from the database (0);
- recorded_twice: external ids recorded more than once (0);
- recovery_s: seconds from clearing the fault to the first round recorded (a prober posts every 0.2 s).

The last line of output is one JSON object. `--short` is CI's run (tests/test_faults.py): every fault held a few
seconds, with lock and statement timeouts of 1 s and 2 s so that they bite within them.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
BASE_PORT = int(os.environ.get("FAULTS_BASE_PORT", "18500"))  # gunicorn; PostgreSQL +1, Redis +2 (cache), +3 (broker)
IMPORT_JOB_LOCK_SPACE = 0x1F0B  # apps.feed.services.import_jobs.IMPORT_JOB_LOCK_SPACE (the harness imports no Django)
FAULTS = ("redis_down", "redis_hung", "broker_down", "lock_held", "statement_timeout", "connections_exhausted",
          "postgres_restart", "worker_killed")
APP_ROLE, OWNER_ROLE, HOG_ROLE, DATABASE = "faults_app", "faults_owner", "faults_hog", "faults"
MAX_CONNECTIONS = 30
#: A round of play with a $40.00 pot at the demo room's table 1: rake and a bad beat contribution.
ROUND = {"board": "2h 7d 9c Js Kd", "players": [{"seat": 1, "contributed": "20.00", "hole_cards": "As Ac"},
                                                {"seat": 2, "contributed": "20.00", "hole_cards": "Qh Qd"}]}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def free(port: int, timeout: float = 10) -> None:
    """Wait until nothing listens on `port`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"port {port} still in use")


# --- the services -----------------------------------------------------------------------------------------------------

class Cluster:
    """A throwaway PostgreSQL cluster in `workdir`, trust authentication on 127.0.0.1:`port`."""

    def __init__(self, workdir: Path, port: int) -> None:
        self.port, self.data = port, workdir / "pg"
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]))[-1])
        self.as_postgres = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_postgres else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)}: {done.stdout}{done.stderr}")

    def init(self) -> None:
        self.data.mkdir(mode=0o700)
        if self.as_postgres:
            shutil.chown(self.data, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        options = {"listen_addresses": "'127.0.0.1'", "port": self.port, "unix_socket_directories": f"'{self.data}'",
                   "max_connections": MAX_CONNECTIONS, "fsync": "off", "synchronous_commit": "off",
                   "full_page_writes": "off", "shared_buffers": "'64MB'"}
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in options.items())

    def start(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "log"), "-w", "start")

    def restart(self) -> None:
        # -l as for start: a postmaster started without it would hold our pipe open
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.data / "log"), "-m", "fast", "-w",
                  "restart")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except RuntimeError:
            pass

    def url(self, role: str = "postgres", database: str = DATABASE) -> str:
        return f"postgres://{role}@127.0.0.1:{self.port}/{database}"

    def sql(self, query: str, *params, database: str = DATABASE):
        with psycopg.connect(self.url(database=database), autocommit=True) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchall() if cursor.description else None


class RedisServer:
    """A redis-server of our own on `port`, no persistence: killed, it comes back empty (as a restarted Redis may)."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir, self.process = port, workdir, None

    def start(self) -> None:
        free(self.port)
        self.process = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no", "--dir", str(self.workdir)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"redis-server on {self.port} did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class HungServer:
    """A socket on `port` that accepts connections and never answers: a hung Redis."""

    def __init__(self, port: int) -> None:
        self.port, self.stop_event, self.accepted = port, threading.Event(), []

    def start(self) -> None:
        free(self.port)
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", self.port))
        self.server.listen(64)
        self.server.settimeout(0.1)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop_event.is_set():
            try:
                self.accepted.append(self.server.accept()[0])
            except OSError:
                continue

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join()
        for sock in self.accepted:
            sock.close()
        self.server.close()


class Deployment:
    """gunicorn and a Celery worker with beat, against the cluster and the two Redis servers."""

    def __init__(self, args, workdir: Path, cluster: Cluster) -> None:
        self.port, self.workdir, self.cluster = BASE_PORT, workdir, cluster
        self.env = {**os.environ, "DATABASE_URL": cluster.url(APP_ROLE), "DATABASE_APP_ROLE": APP_ROLE,
                    "REDIS_URL": f"redis://127.0.0.1:{BASE_PORT + 2}/0",
                    "CELERY_BROKER_URL": f"redis://127.0.0.1:{BASE_PORT + 3}/0",
                    "CELERY_TASK_ALWAYS_EAGER": "false", "DJANGO_SECRET_KEY": "faults-harness-only-secret",
                    "DJANGO_DEBUG": "false", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
                    "DJANGO_SECURE_SSL_REDIRECT": "false", "DJANGO_SECURE_COOKIES": "false",
                    "DJANGO_THROTTLE_USER": "1000000/min", "DJANGO_THROTTLE_ANON": "1000000/min",
                    "DJANGO_THROTTLE_PUBLIC_FEED": "1000000/min", "DJANGO_LOG_LEVEL": "WARNING",
                    "DJANGO_STATIC_ROOT": str(workdir / "static"),
                    "DATABASE_LOCK_TIMEOUT_MS": str(args.lock_timeout_ms),
                    "DATABASE_STATEMENT_TIMEOUT_MS": str(args.statement_timeout_ms),
                    # the sweeper within seconds, not minutes; imports small enough to run during one fault
                    "IMPORT_JOB_SWEEP_SECONDS": "1", "IMPORT_JOB_SEND_GRACE_S": "1",
                    "IMPORT_JOB_RESEND_AFTER_S": "5", "IMPORT_JOB_STALE_AFTER_S": "3",
                    "PHH_ASYNC_IMPORT_HANDS": "10", "PHH_IMPORT_BATCH": "5"}
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        self.web: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *command: str, role: str = APP_ROLE) -> str:
        env = {**self.env, "DATABASE_URL": self.cluster.url(role)}
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True,
                              text=True)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(command)} failed:\n{done.stdout[-1000:]}{done.stderr[-3000:]}")
        return done.stdout

    def _log(self):
        return open(self.workdir / "deployment.log", "ab")

    def start_web(self) -> None:
        free(self.port)
        self.web = subprocess.Popen([sys.executable, "-m", "gunicorn", "pokerroom.wsgi:application", "--bind",
                                     f"127.0.0.1:{self.port}", "--workers", "3", "--timeout", "30"],
                                    cwd=ROOT, env=self.env, stdout=self._log(), stderr=subprocess.STDOUT,
                                    start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health/live/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not come up")

    def start_worker(self) -> None:
        self.worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "pokerroom", "worker", "-B", "--concurrency", "2", "--loglevel",
             "WARNING", "--schedule", str(self.workdir / f"beat-{uuid.uuid4().hex[:6]}"), "-Q", "celery,link",
             "--without-heartbeat", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=self.env, stdout=self._log(), stderr=subprocess.STDOUT, start_new_session=True)

    def kill_worker(self) -> None:
        if self.worker is not None:
            try:
                os.killpg(self.worker.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.worker.wait()
            self.worker = None

    def worker_report(self, lines: int = 25) -> str:
        """What a stuck job's worker was doing: whether its process is alive, and the last `lines` lines its main
        process, its beat and its pool wrote in the deployment's log (tracebacks left out)."""
        state = ("not started" if self.worker is None else
                 f"pid {self.worker.pid} running" if self.worker.poll() is None else
                 f"exited with {self.worker.returncode}")
        log_path = self.workdir / "deployment.log"
        written = log_path.read_text(errors="replace").splitlines() if log_path.exists() else []
        celery = [line[:300] for line in written
                  if "/MainProcess]" in line or "/Beat]" in line or "/ForkPoolWorker" in line]
        # the traceback of the last error that stopped the worker, whole: what to report upstream
        fatal = max((at for at, line in enumerate(written) if "CRITICAL/MainProcess]" in line), default=None)
        traceback = [] if fatal is None else [line[:300] for line in written[fatal + 1:fatal + 60]
                                              if not line.startswith("[")]
        return "\n".join([f"  worker: {state}", *(f"    {line}" for line in celery[-lines:]),
                          *(f"      {line}" for line in traceback)])

    def stop(self) -> None:
        self.kill_worker()
        if self.web is not None:
            try:
                os.killpg(self.web.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.web.wait()
            self.web = None


# --- the clients ------------------------------------------------------------------------------------------------------

class Tally:
    """Answers by phase, what each client was acknowledged, the prober's successes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.phase = "baseline"
        self.answers: dict[str, Counter] = {}
        self.acknowledged: dict[str, int] = {}  # external_id -> round id
        self.successes: list[float] = []  # monotonic times of the prober's recorded rounds (request start)

    def count(self, what: str) -> None:
        with self.lock:
            self.answers.setdefault(self.phase, Counter())[what] += 1


class Feed(threading.Thread):
    """A client posting rounds one after another, each with a new Idempotency-Key and external id, retried as a feed
    retries: the same key after a 503 (waiting Retry-After, at most `max_wait`), another 5xx or a broken connection."""

    def __init__(self, name: str, url: str, token: str, table_id: int, tally: Tally, stop: threading.Event,
                 *, pause: float, max_wait: float, prober: bool = False) -> None:
        super().__init__(daemon=True, name=name)
        self.client = httpx.Client(base_url=url, timeout=40, headers={"Authorization": f"Token {token}"})
        self.table_id, self.tally, self.stop, self.pause, self.max_wait = table_id, tally, stop, pause, max_wait
        self.prober = prober

    def run(self) -> None:
        while not self.stop.is_set():
            external_id, key = f"{self.name}-{uuid.uuid4().hex[:12]}", uuid.uuid4().hex
            body = {**ROUND, "table": self.table_id, "external_id": external_id,
                    "started_at": datetime.now(UTC).isoformat()}
            while not self.stop.is_set():
                started = time.monotonic()
                wait = 0.2
                try:
                    response = self.client.post("/api/rounds/", json=body, headers={"Idempotency-Key": key})
                except httpx.HTTPError:
                    self.tally.count("connection_error")
                    time.sleep(0.2)
                    continue
                status = response.status_code
                self.tally.count(str(status))
                if status in (200, 201) or (status == 409 and "existing_id" in response.text):
                    data = response.json()
                    with self.tally.lock:
                        self.tally.acknowledged[external_id] = data.get("id") or data.get("existing_id")
                        if self.prober and status == 201:
                            self.tally.successes.append(started)
                    break
                if status == 503:
                    wait = 0.2 if self.prober else min(float(response.headers.get("Retry-After", 1)), self.max_wait)
                elif status < 500 and status != 409:  # a refusal of the round itself: not retried
                    log(f"{self.name}: {status} {response.text[:300]}")
                    break
                time.sleep(wait)
            time.sleep(self.pause)


class Reader(threading.Thread):
    """Reads as the room's screens and apps do: the public feed, the API, readiness. Counts what they answer."""

    def __init__(self, url: str, token: str, casino: str, tally: Tally, stop: threading.Event) -> None:
        super().__init__(daemon=True, name="reader")
        self.client = httpx.Client(base_url=url, timeout=40)
        self.token, self.casino, self.tally, self.stop = token, casino, tally, stop

    def run(self) -> None:
        paths = [(f"/api/public/{self.casino}/", {}), ("/api/jackpots/", {"Authorization": f"Token {self.token}"}),
                 ("/health/ready/", {})]
        while not self.stop.is_set():
            for path, headers in paths:
                try:
                    status = self.client.get(path, headers=headers).status_code
                except httpx.HTTPError:
                    self.tally.count("read_connection_error")
                    continue
                if status >= 500:
                    self.tally.count(f"read_{status}")
                self.tally.count("reads")
            time.sleep(0.3)


# --- checks -------------------------------------------------------------------------------------------------------

PARTIAL_SQL = """
    SELECT count(*) FROM rounds_roundofplay r
    WHERE NOT EXISTS (SELECT 1 FROM rounds_roundplayer p WHERE p.round_of_play_id = r.id)
       OR NOT EXISTS (SELECT 1 FROM rounds_pot p WHERE p.round_of_play_id = r.id)
       OR NOT EXISTS (SELECT 1 FROM rake_rakerecord k WHERE k.round_of_play_id = r.id)"""
TWICE_SQL = """SELECT count(*) FROM (SELECT source_name FROM rounds_roundofplay
               WHERE source_name LIKE 'feed%%' OR source_name LIKE 'prober%%'
               GROUP BY source_name HAVING count(*) > 1) d"""


def phh_text(rng: random.Random, hands: int) -> str:
    """`hands` random no-limit hold 'em hands of 2 to 6 players (tests/support/phh_hands.py)."""
    sys.path.insert(0, str(ROOT))
    from tests.support.phh_hands import random_hand

    return "\n\n".join(f"[{n}]\n{random_hand('NT', rng, players=rng.randint(2, 6))}" for n in range(1, hands + 1))


class Harness:
    def __init__(self, args) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.workdir = Path(tempfile.mkdtemp(prefix="pokerroom-faults-"))
        self.workdir.chmod(0o755)  # the postgres user reaches its cluster's folder inside
        self.cluster = Cluster(self.workdir, BASE_PORT + 1)
        self.cache_redis = RedisServer(BASE_PORT + 2, self.workdir)
        self.broker_redis = RedisServer(BASE_PORT + 3, self.workdir)
        self.deployment = Deployment(args, self.workdir, self.cluster)
        self.tally, self.stop = Tally(), threading.Event()
        self.jobs: list[int] = []
        self.hog: list[psycopg.Connection] = []

    # set-up
    def set_up(self) -> None:
        log(f"cluster, Redis and the deployment in {self.workdir}")
        self.cluster.init()
        self.cluster.start()
        self.cluster.sql(f"CREATE ROLE {OWNER_ROLE} LOGIN CREATEDB", database="postgres")
        self.cluster.sql(f"CREATE ROLE {APP_ROLE} LOGIN", database="postgres")
        self.cluster.sql(f"CREATE ROLE {HOG_ROLE} LOGIN", database="postgres")
        self.cluster.sql(f"CREATE DATABASE {DATABASE} OWNER {OWNER_ROLE}", database="postgres")
        self.cache_redis.start()
        self.broker_redis.start()
        started = time.monotonic()
        if self.args.schema_from:  # a database migrated already (the suite's): its tables, as the owner, then grants
            dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", self.args.schema_from],
                                  capture_output=True, check=True).stdout
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-o", os.devnull, self.cluster.url(OWNER_ROLE)],
                           input=dump, capture_output=True, check=True)
            self.deployment.manage("grant_app_role", role=OWNER_ROLE)
        else:
            self.deployment.manage("migrate", "--noinput", "-v0", role=OWNER_ROLE)
        migrated = time.monotonic()
        self.deployment.manage("seed_demo", "--no-rounds")
        log(f"migrated in {migrated - started:.1f} s, seeded in {time.monotonic() - migrated:.1f} s")
        self.token = self.deployment.manage("create_api_token", "poker_shift_supervisor").split()[2]
        self.table_id = self.cluster.sql("SELECT id FROM tables_pokertable WHERE number = 1")[0][0]
        self.casino = self.cluster.sql("SELECT code FROM casinos_casino ORDER BY id LIMIT 1")[0][0]
        self.deployment.start_web()
        self.deployment.start_worker()

    def start_clients(self) -> list[threading.Thread]:
        url, args = self.deployment.url, self.args
        threads = [Feed(f"feed{i}", url, self.token, self.table_id, self.tally, self.stop, pause=args.pause,
                        max_wait=args.max_wait) for i in range(args.clients)]
        threads.append(Feed("prober", url, self.token, self.table_id, self.tally, self.stop, pause=0.2,
                            max_wait=0.2, prober=True))
        threads.append(Reader(url, self.token, self.casino, self.tally, self.stop))
        for thread in threads:
            thread.start()
        return threads

    def post_import(self, hands: int) -> int:
        """A PHH import of `hands` hands over the API (more than PHH_ASYNC_IMPORT_HANDS: a job); its id. Retried like a
        round; 202 expected."""
        text = phh_text(self.rng, hands)
        key = uuid.uuid4().hex
        client = httpx.Client(base_url=self.deployment.url, timeout=40,
                              headers={"Authorization": f"Token {self.token}", "Idempotency-Key": key})
        for _ in range(60):
            try:
                response = client.post("/api/rounds/phh/", json={"phh": text, "name": f"faults-{key[:6]}.phhs"})
            except httpx.HTTPError:
                self.tally.count("connection_error")
                time.sleep(0.5)
                continue
            self.tally.count(f"import_{response.status_code}")
            if response.status_code == 202:
                job = response.json()["id"]
                self.jobs.append(job)
                return job
            if response.status_code < 500:
                raise RuntimeError(f"import refused: {response.status_code} {response.text[:500]}")
            time.sleep(min(float(response.headers.get("Retry-After", 1)), 2))
        raise RuntimeError("import never accepted")

    def job_state(self, job: int) -> tuple[str, int, int]:
        try:
            return tuple(self.cluster.sql("SELECT status, processed, hands FROM feed_importjob WHERE id = %s", job)[0])
        except psycopg.Error:
            return ("?", 0, 0)

    def job_detail(self, job: int) -> str:
        """A stuck job as the sweeper sees it: status, progress, how often it was sent and when last."""
        try:
            status, processed, hands, attempts, enqueued_at = self.cluster.sql(
                "SELECT status, processed, hands, attempts, enqueued_at FROM feed_importjob WHERE id = %s", job)[0]
        except psycopg.Error as exc:
            return f"job {job}: unreadable ({exc})"
        sent = f"sent {attempts} times, last at {enqueued_at:%H:%M:%S}" if enqueued_at else "never sent"
        try:  # the session holding the job's advisory lock (apps.feed.services.import_jobs: one run at a time)
            holders = self.cluster.sql(
                "SELECT a.pid, a.state, a.xact_start, left(a.query, 120) FROM pg_locks l JOIN pg_stat_activity a "
                "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = %s AND l.granted",
                IMPORT_JOB_LOCK_SPACE, job % 2**31)
        except psycopg.Error as exc:
            holders = [f"unreadable ({exc})"]
        return f"job {job}: {status}, {processed} of {hands} hands, {sent}; its lock held by {holders or 'nobody'}"

    def wait_running(self, job: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, processed, hands = self.job_state(job)
            if status == "running" and 0 < processed < hands:
                return
            if status in ("done", "failed"):
                raise RuntimeError(f"job {job} finished before the fault ({status}): give it more hands")
            time.sleep(0.05)
        log(f"  {self.job_detail(job)}\n{self.deployment.worker_report()}")
        raise RuntimeError(f"job {job} never ran: {self.job_state(job)}")

    # the faults: each returns what clears it
    def fault_redis_down(self):
        self.cache_redis.kill()
        self.broker_redis.kill()

        def clear():
            self.cache_redis.start()
            self.broker_redis.start()
        return clear

    def fault_redis_hung(self):
        self.cache_redis.kill()
        hung = HungServer(self.cache_redis.port)
        hung.start()

        def clear():
            hung.stop()
            self.cache_redis.start()
        return clear

    def fault_broker_down(self):
        self.broker_redis.kill()
        self.post_import(self.args.import_hands)
        return self.broker_redis.start

    def fault_lock_held(self):
        holder = psycopg.connect(self.cluster.url())
        holder.execute("SELECT id FROM badbeat_jackpot FOR UPDATE")
        time.sleep(max(self.args.lock_seconds - self.args.hold, 0))  # the rest of the hold: run_fault's

        def clear():
            holder.rollback()
            holder.close()
        return clear

    def fault_statement_timeout(self):
        seconds = self.args.statement_timeout_ms / 1000 + 1
        self.cluster.sql(f"""
            CREATE FUNCTION faults_slow() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN PERFORM pg_sleep({seconds}); RETURN NEW; END $$;
            CREATE TRIGGER faults_slow BEFORE INSERT ON rounds_roundofplay FOR EACH ROW EXECUTE FUNCTION faults_slow();
        """)

        def clear():
            self.cluster.sql("DROP TRIGGER faults_slow ON rounds_roundofplay; DROP FUNCTION faults_slow()")
        return clear

    def fault_connections_exhausted(self):
        def grab() -> None:
            while True:
                try:
                    self.hog.append(psycopg.connect(self.cluster.url(HOG_ROLE), autocommit=True, connect_timeout=2))
                except psycopg.OperationalError:
                    return
        grab()
        self.cluster.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", APP_ROLE)
        for _ in range(20):  # the app's slots, freed, taken before it reconnects
            grab()
            time.sleep(0.01)
        log(f"  {len(self.hog)} connections held by {HOG_ROLE}")

        def clear():
            for conn in self.hog:
                conn.close()
            self.hog.clear()
        return clear

    def fault_postgres_restart(self):
        job = self.post_import(self.args.import_hands)
        self.wait_running(job)
        self.cluster.restart()
        return lambda: None  # restarted: cleared as it comes back

    def fault_worker_killed(self):
        job = self.post_import(self.args.import_hands)
        self.wait_running(job)
        self.deployment.kill_worker()
        log(f"  worker killed at job {job}: {self.job_state(job)}")
        return self.deployment.start_worker

    # one fault
    def run_fault(self, name: str) -> dict:
        with self.tally.lock:
            self.tally.phase = name
        partial_before = self.cluster.sql(PARTIAL_SQL)[0][0]
        log(f"fault {name}")
        clear = getattr(self, f"fault_{name}")()
        time.sleep(self.args.hold)
        cleared_at = time.monotonic()
        clear()
        log(f"  cleared {name}")
        deadline, recovered = cleared_at + self.args.recovery_timeout, None
        while time.monotonic() < deadline:
            with self.tally.lock:
                after = [t for t in self.tally.successes if t >= cleared_at]
            if after:
                recovered = round(after[0] - cleared_at, 2)
                break
            time.sleep(0.05)
        orphaned = self.wait_jobs(deadline)
        time.sleep(self.args.settle)
        answers = self.tally.answers.get(name, Counter())
        errors = sum(n for status, n in answers.items() if status.isdigit() and int(status) >= 500 and status != "503")
        errors += sum(n for status, n in answers.items()
                      if (status.startswith("read_5") and status not in ("read_503",))
                      or (status.startswith("import_5") and status != "import_503"))
        broken = answers["connection_error"] + answers["read_connection_error"]
        result = {"server_errors": errors + broken, "broken_connections": broken,
                  "answers_503": answers["503"] + answers["read_503"] + answers["import_503"],
                  "partial_writes": self.cluster.sql(PARTIAL_SQL)[0][0] - partial_before,
                  "orphaned_jobs": orphaned, "recovery_s": recovered,
                  "requests": sum(n for status, n in answers.items() if status.isdigit()), "reads": answers["reads"]}
        log(f"  {name}: {result}")
        return result

    def wait_jobs(self, deadline: float) -> int:
        """Import jobs not done by `deadline` (at least --job-timeout after now)."""
        deadline = max(deadline, time.monotonic() + self.args.job_timeout)
        while time.monotonic() < deadline:
            left = [j for j in self.jobs if self.job_state(j)[0] != "done"]
            if not left:
                return 0
            time.sleep(0.2)
        for job in left:
            log(f"  not done: {self.job_detail(job)}")
        log(self.deployment.worker_report())
        return len(left)

    def verify(self) -> dict:
        """Acknowledged but missing, recorded twice, the import jobs' hands stored once, the ledger check."""
        acknowledged = dict(self.tally.acknowledged)
        stored = {name for (name,) in self.cluster.sql(
            "SELECT source_name FROM rounds_roundofplay WHERE source_name = ANY(%s)", list(acknowledged))}
        missing = len(set(acknowledged) - stored)
        twice = self.cluster.sql(TWICE_SQL)[0][0] + self.cluster.sql(
            "SELECT count(*) - count(DISTINCT source_digest) FROM rounds_roundofplay WHERE source_digest IS NOT NULL")[0][0]
        jobs = self.cluster.sql("SELECT id, status, hands, summary FROM feed_importjob ORDER BY id")
        imported_wrong = [j for j, status, hands, summary in jobs
                          if status != "done" or summary.get("imported", 0) + summary.get("skipped", 0)
                          + summary.get("refused", 0) != hands]
        ledger = self.deployment.manage("shell", "-c", (
            "import json; from apps.casinos.models import Casino; from apps.casinos.selectors import "
            "current_gaming_day; from apps.counts.selectors import ledger_check; print(json.dumps([p for c in "
            "Casino.objects.all() for p in ledger_check(casino=c, gaming_day=current_gaming_day(casino=c))]))"))
        problems = json.loads(ledger.strip().splitlines()[-1])
        for problem in problems[:10]:
            log(f"  ledger: {problem}")
        return {"acknowledged": len(acknowledged), "acknowledged_missing": missing, "recorded_twice": twice,
                "jobs": len(jobs), "jobs_not_whole": len(imported_wrong), "ledger_problems": len(problems)}

    def run(self) -> dict:
        started = time.monotonic()
        result: dict = {}
        threads: list[threading.Thread] = []
        try:
            self.set_up()
            threads = self.start_clients()
            time.sleep(self.args.hold)
            faults = {}
            for name in self.args.faults:
                faults[name] = self.run_fault(name)
            with self.tally.lock:
                self.tally.phase = "end"
            self.stop.set()
            for thread in threads:
                thread.join(60)
            final = self.verify()
            baseline = self.tally.answers.get("baseline", Counter())
            result = {
                "faults": faults,
                "server_errors": sum(f["server_errors"] for f in faults.values()),
                "partial_writes": sum(f["partial_writes"] for f in faults.values()) + final["ledger_problems"],
                "orphaned_jobs": sum(f["orphaned_jobs"] for f in faults.values()) + final["jobs_not_whole"],
                "acknowledged_missing": final["acknowledged_missing"], "recorded_twice": final["recorded_twice"],
                "max_recovery_s": max((f["recovery_s"] for f in faults.values() if f["recovery_s"] is not None),
                                      default=None),
                "unrecovered": [n for n, f in faults.items() if f["recovery_s"] is None],
                "rounds_acknowledged": final["acknowledged"], "import_jobs": final["jobs"],
                "ledger_problems": final["ledger_problems"], "baseline_requests": sum(
                    n for status, n in baseline.items() if status.isdigit()),
                "lock_timeout_ms": self.args.lock_timeout_ms, "statement_timeout_ms": self.args.statement_timeout_ms,
                "hold_s": self.args.hold, "lock_held_s": self.args.lock_seconds,
                "wall_s": round(time.monotonic() - started, 1)}
        finally:
            self.stop.set()
            for conn in self.hog:
                conn.close()
            self.deployment.stop()
            self.cache_redis.kill()
            self.broker_redis.kill()
            self.cluster.stop()
            if not self.args.keep:
                shutil.rmtree(self.workdir, ignore_errors=True)
        print(json.dumps(result), flush=True)
        return result


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="CI's run: every fault a few seconds, timeouts 1 s/2 s")
    parser.add_argument("--faults", nargs="+", choices=FAULTS, default=list(FAULTS))
    parser.add_argument("--clients", type=int, default=4, help="feeds posting rounds (besides the prober)")
    parser.add_argument("--hold", type=float, default=10.0, help="seconds each fault is held")
    parser.add_argument("--lock-seconds", type=float, default=45.0, help="seconds the jackpot's row lock is held")
    parser.add_argument("--lock-timeout-ms", type=int, default=3000, help="the deployment's DATABASE_LOCK_TIMEOUT_MS")
    parser.add_argument("--statement-timeout-ms", type=int, default=10000,
                        help="the deployment's DATABASE_STATEMENT_TIMEOUT_MS")
    parser.add_argument("--import-hands", type=int, default=60, help="hands of each PHH import job (5 a batch)")
    parser.add_argument("--pause", type=float, default=0.1, help="a feed's pause between rounds")
    parser.add_argument("--max-wait", type=float, default=5.0, help="the longest Retry-After a feed obeys")
    parser.add_argument("--recovery-timeout", type=float, default=60.0)
    parser.add_argument("--job-timeout", type=float, default=60.0, help="how long import jobs may take to finish")
    parser.add_argument("--settle", type=float, default=1.0, help="seconds of normal service after each recovery")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, the cluster)")
    parser.add_argument("--schema-from", metavar="URL", help="copy the tables of this migrated database (pg_dump) "
                        "instead of running migrate: the suite passes its own test database")
    args = parser.parse_args(argv)
    if args.short:
        args.hold, args.lock_seconds, args.lock_timeout_ms, args.statement_timeout_ms = 3.0, 4.0, 1000, 2000
        args.import_hands, args.clients, args.settle, args.max_wait = 40, 3, 0.5, 1.0
    args.lock_seconds = max(args.lock_seconds, args.hold)

    def stop(signum, frame):  # stopped from outside: clean up as after a run (finally: in Harness.run)
        raise SystemExit(f"stopped by signal {signum}")

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if in_main else None
    try:
        return Harness(args).run()
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    main()
