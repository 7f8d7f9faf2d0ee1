"""The restore drill (issue 32, item 4): backups and point-in-time recovery with pgBackRest, proved on this machine.

    python bench/restore_drill.py [--rounds 600] [--before 100] [--after 100] [--batch 1] [--seed 2026]
                                  [--no-switch] [--port 0] [--pg-bin /usr/lib/postgresql/16/bin] [--keep]

On a PostgreSQL cluster of its own — initdb in a temporary directory with this machine's binaries (the newest
/usr/lib/postgresql/<version>/bin, or --pg-bin), its own port and socket directory, run by the `postgres` system user
when started as root (root cannot run postgres) — archiving its WAL with pgBackRest as docker-compose's database does
(wal_level=replica, archive_mode=on, archive_command=pgbackrest archive-push, archive_timeout=60; the repository's
options read from deploy/postgres/pgbackrest.conf, only its paths moved into the temporary directory):

1. the stanza is created and checked; the database and its two roles are made as docker-compose makes them
   (deploy/postgres/init-roles.sh), `migrate` runs as the owner and grants the app role its privileges, and the demo
   room (`seed_demo --no-rounds`: casino, staff, tables, jackpots, decks) is seeded as the app role;
2. --rounds rounds of play of the current gaming day (the dealer simulator's hold 'em, at tables 1-3, their starts
   spread over the day so far, at most 8 hours back) go through the money path as the dealer
   (`apps.feed.services.record_batch_of_rounds`, --batch rounds a transaction, 1: each its own, as a tablet posts them);
3. a full backup, taken as docker-compose's backup service takes its first one (deploy/postgres/backup-schedule.sh
   with BACKUP_SCHEDULE_ONCE=1: stanza-create, check, `pgbackrest backup --type=full` as the repository has none);
4. --before more rounds (started now), then the target T: the database's clock (clock_timestamp()) read after their
   last commit, with the state at T (rounds, their pots, rake, each jackpot's running totals) in the same snapshot;
5. --after more rounds (after T); their WAL is archived — a WAL switch forced and the archiver waited for, or with
   --no-switch, archive_timeout left to do it as in production (up to 60 s);
6. the cluster is destroyed: stopped at once (`pg_ctl stop -m immediate`, a crash) and its data directory, pg_wal
   included, deleted;
7. `pgbackrest restore --type=time --target=T --target-action=promote`, the cluster started: it replays the archived
   WAL to T and is promoted;
8. checked, as the app role, through Django: every round committed before T is there (by its source digest, the
   feed's external id), none of those recorded after T nor any round created after T; the daily ledger check
   (`apps.counts.selectors.ledger_check`: each jackpot's balance, reset reserve and contributions, each table's
   rounds, rake and contributions of every gaming day, re-derived from their records) and every running total
   against a re-derivation from its records over all of history (bench/history_scale.py's CHECKS, the SQL its
   growth is checked with); the state at T equal to the restored state; the app role's privileges as migrate left
   them (apps.core.database_roles.privilege_problems).

Figures: rto_s, from the start of the restore to the database answering, promoted and checked (restore_s of it the
pgBackRest restore, recovery_s the start, WAL replay and promotion, check_s the checks); rpo_s, the seconds of
history before T the restored cluster does not have: T less the commit time of the last transaction it replayed
(pg_last_xact_replay_timestamp(); only the idle moment between the last commit and T when nothing is lost).
archive_lag_at_target_s is the age at T of the newest WAL segment archived: what a disk lost at T with its WAL would
have cost, bounded by archive_timeout (here it covers the rounds after the backup, whose segment was not yet full).

Prints the steps to stderr; the last line on stdout is one JSON object:
{"rounds_before_target": N, "restored": N, "lost": 0, "after_target": 0, "ledger_ok": true, "rpo_s": x, "rto_s": y,
 ...}. Exits 1 when a round before T is lost, one after T is present, the books or the state at T differ.
"""
from __future__ import annotations

import argparse
import configparser
import dataclasses
import glob
import hashlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF_TEMPLATE = ROOT / "deploy" / "postgres" / "pgbackrest.conf"
INIT_ROLES = ROOT / "deploy" / "postgres" / "init-roles.sh"
SCHEDULE = ROOT / "deploy" / "postgres" / "backup-schedule.sh"
STANZA = "pokerroom"
DATABASE = "pokerroom"
OWNER, APP = "pokerroom_owner", "pokerroom_app"
SECRET_KEY = "restore-drill-only-secret-not-for-production"
ARCHIVE_TIMEOUT_S = 60  # as docker-compose's db (and the issue: at most 60 s)
DAY_SPAN = timedelta(hours=8)  # the gaming day's rounds start at most this far back (as seed_demo's)
TABLES = (1, 2, 3)  # the demo's open hold 'em tables


STARTED = time.perf_counter()


def log(message: str) -> None:
    print(f"[{time.perf_counter() - STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


# --- the machine: PostgreSQL's binaries, pgBackRest, the user that runs them -------------------------------------------

def pg_bindir(given: str | None) -> Path:
    """The newest /usr/lib/postgresql/<version>/bin with initdb (Debian's layout), or `given`."""
    if given:
        return Path(given)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", Path(p).parent.parent.name)] or [0])
    if not found:
        on_path = shutil.which("initdb")
        if on_path:
            return Path(on_path).parent
        raise SystemExit("No PostgreSQL server binaries (initdb) in /usr/lib/postgresql/*/bin nor on PATH: install "
                         "PostgreSQL's server package, or pass --pg-bin.")
    return Path(found[-1]).parent


def pgbackrest_binary() -> str:
    binary = shutil.which("pgbackrest")
    if not binary:
        raise SystemExit("pgbackrest is not installed: `make pgbackrest` installs Debian's package (as root), or "
                         "apt-get install pgbackrest.")
    return binary


class Runner:
    """Runs the cluster's programs as the user that owns it: `postgres` when we are root (PostgreSQL refuses to run
    as root), ourselves otherwise."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.as_root = os.geteuid() == 0
        if self.as_root:
            import pwd

            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise SystemExit("Run as root, the drill needs the `postgres` system user to run PostgreSQL.") from None
            self.uid, self.gid = user.pw_uid, user.pw_gid
            self.prefix = [shutil.which("runuser") or "runuser", "-u", "postgres", "--"]
        else:
            self.uid, self.gid, self.prefix = os.geteuid(), os.getegid(), []

    def own(self, path: Path) -> None:
        if self.as_root:
            os.chown(path, self.uid, self.gid)

    def run(self, *command, check: bool = True, timeout: float = 600, env: dict | None = None
            ) -> subprocess.CompletedProcess:
        done = subprocess.run([*self.prefix, *map(str, command)], cwd=self.workdir, capture_output=True, text=True,
                              timeout=timeout, env={**os.environ, "LC_ALL": "C", **(env or {})})
        if check and done.returncode:
            raise DrillError(f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done


class DrillError(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the cluster and its pgBackRest repository ---------------------------------------------------------------------------

class Cluster:
    def __init__(self, args, workdir: Path):
        self.bin = pg_bindir(args.pg_bin)
        self.pgbackrest = pgbackrest_binary()
        self.workdir = workdir
        self.runner = Runner(workdir)
        self.port = args.port or free_port()
        self.data, self.sockets = workdir / "data", workdir / "sockets"
        self.repo, self.logs = workdir / "repo", workdir / "log"
        self.config = workdir / "pgbackrest.conf"
        self.server_log = workdir / "postgresql.log"
        self.running = False

    # paths and settings
    def prepare(self) -> None:
        for path in (self.workdir, self.sockets, self.repo, self.logs, self.workdir / "lock"):
            path.mkdir(exist_ok=True)
            self.runner.own(path)
        self.workdir.chmod(0o755)
        self.config.write_text(self.pgbackrest_conf())
        self.runner.own(self.config)

    def pgbackrest_conf(self) -> str:
        """docker-compose's pgbackrest.conf with its paths moved here: the same repository options (retention,
        compression, start-fast...), this cluster's data directory, port and socket."""
        conf = configparser.ConfigParser(interpolation=None)
        conf.optionxform = str
        conf.read_string(CONF_TEMPLATE.read_text())
        conf["global"].update({"repo1-path": str(self.repo), "log-path": str(self.logs),
                               "lock-path": str(self.workdir / "lock")})
        conf[STANZA].update({"pg1-path": str(self.data), "pg1-port": str(self.port),
                             "pg1-socket-path": str(self.sockets)})
        lines = []
        for section in conf.sections():
            lines.append(f"[{section}]")
            lines += [f"{key}={value}" for key, value in conf[section].items()]
            lines.append("")
        return "\n".join(lines)

    def archive_command(self) -> str:
        return f"{self.pgbackrest} --config={self.config} --stanza={STANZA} archive-push %p"

    def initdb(self) -> None:
        self.runner.run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--locale=C", "--data-checksums")
        settings = {
            "port": self.port, "listen_addresses": "'127.0.0.1'", "unix_socket_directories": f"'{self.sockets}'",
            "wal_level": "replica", "archive_mode": "on", "archive_command": f"'{self.archive_command()}'",
            "archive_timeout": ARCHIVE_TIMEOUT_S, "max_wal_senders": 3, "shared_buffers": "'64MB'",
            "max_connections": 30, "log_line_prefix": "'%m [%p] '",
        }
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("\n# restore drill (bench/restore_drill.py), as docker-compose's db\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    # the server
    def start(self) -> None:
        self.runner.run(self.bin / "pg_ctl", "-D", self.data, "-l", self.server_log, "-w", "-t", "300", "start")
        self.running = True

    def stop(self, mode: str = "fast") -> None:
        if self.running:
            self.runner.run(self.bin / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)
            self.running = False

    def destroy(self) -> None:
        """A crash and the loss of the server's disk: stopped at once, the data directory (pg_wal too) deleted."""
        self.runner.run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        self.running = False
        shutil.rmtree(self.data)
        if self.data.exists():
            raise DrillError("the data directory is still there")

    def url(self, user: str = "postgres", database: str = DATABASE) -> str:
        return f"postgres://{user}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = DATABASE):
        import psycopg

        return psycopg.connect(self.url("postgres", database), autocommit=True)

    def scheduled_backup(self) -> None:
        """The backup that docker-compose's backup service takes at start (deploy/postgres/backup-schedule.sh, run
        once): the stanza created if need be, archiving checked, a full backup when the repository has none."""
        done = self.runner.run("bash", SCHEDULE, check=False, env={
            "PGBACKREST_CONFIG": str(self.config), "PGHOST": str(self.sockets), "PGPORT": str(self.port),
            "PGBACKREST_STANZA": STANZA, "BACKUP_SCHEDULE_ONCE": "1", "BACKUP_STAMP": str(self.workdir / "backup-ok"),
            "PATH": f"{Path(self.pgbackrest).parent}:{self.bin}:{os.environ.get('PATH', '')}"})
        if done.returncode or "full backup size" not in done.stdout:
            raise DrillError(f"{SCHEDULE.name} took no full backup ({done.returncode}):\n{done.stdout}{done.stderr}")

    def backrest(self, *command: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return self.runner.run(self.pgbackrest, f"--config={self.config}", f"--stanza={STANZA}", *command,
                               timeout=timeout)


# --- Django, against the drill's cluster as the app role -------------------------------------------------------------

def app_env(cluster: Cluster) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    return env | {"DATABASE_URL": cluster.url(APP), "DATABASE_APP_ROLE": APP, "DJANGO_SECRET_KEY": SECRET_KEY,
                  "DJANGO_DEBUG": "false", "DJANGO_SECURE_SSL_REDIRECT": "false", "CELERY_TASK_ALWAYS_EAGER": "true",
                  "DJANGO_SETTINGS_MODULE": "pokerroom.settings", "DATABASE_CONN_MAX_AGE": "0"}


def manage(env: dict, *command: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        raise DrillError(f"manage.py {' '.join(command)} failed:\n{done.stdout[-3000:]}{done.stderr[-5000:]}")
    return done.stdout


def start_django(env: dict) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


class Dealer:
    """Rounds of play of the dealer simulator recorded through the money path, each with a source digest of its own
    (the feed's external id) by which the check finds it again."""

    def __init__(self, seed: int, batch: int):
        from apps.casinos.models import Casino, User
        from apps.core.roles import Role
        from apps.tables.models import PokerTable

        self.rng = random.Random(seed)
        self.batch = max(1, batch)
        self.run = uuid.uuid4().hex[:12]
        self.casino = Casino.objects.get(code="boardwalk")
        self.dealer = User.objects.get(username=Role.DEALER.value)
        self.tables = list(PokerTable.objects.filter(casino=self.casino, number__in=TABLES).order_by("number"))
        self.serial = 0

    def digest(self, phase: str, n: int) -> str:
        return hashlib.sha256(f"restore-drill:{self.run}:{phase}:{n}".encode()).hexdigest()

    def deal(self, phase: str, count: int, *, spread: bool) -> list[str]:
        """Record `count` rounds; with `spread`, their starts spread over the current gaming day so far (8 hours at
        most), else each started now. Returns their source digests, in the order recorded."""
        from django.utils import timezone

        from apps.casinos.selectors import current_gaming_day, gaming_day_bounds
        from apps.feed.services import record_batch_of_rounds
        from apps.feed.simulator import deal_round

        now = timezone.now()
        if spread:
            start, _ = gaming_day_bounds(casino=self.casino, gaming_day=current_gaming_day(casino=self.casino))
            start = max(start, now - DAY_SPAN)
            step = (now - start) / (count + 1)
            starts = [start + step * (i + 1) for i in range(count)]
        digests, pending = [], []
        for i in range(count):
            table = self.tables[self.serial % len(self.tables)]
            self.serial += 1
            at = starts[i] if spread else timezone.now()
            round_in = deal_round(self.rng, players=self.rng.randint(2, 9), small_blind=table.small_blind,
                                  big_blind=table.big_blind, started_at=at)
            digest = self.digest(phase, i)
            pending.append((table, dataclasses.replace(round_in, source_name=f"restore drill {phase} {i}",
                                                       source_digest=digest)))
            digests.append(digest)
            if len(pending) == self.batch or i == count - 1:
                record_batch_of_rounds(rounds=pending, recorded_by=self.dealer)
                pending = []
        return digests


# --- the state at T, and the checks ------------------------------------------------------------------------------------

STATE_SQL = {
    "rounds": "SELECT count(*), coalesce(sum(pot_total), 0)::text, max(id) FROM rounds_roundofplay",
    "rake": "SELECT count(*), coalesce(sum(amount), 0)::text FROM rake_rakerecord",
    "contributions": "SELECT count(*), coalesce(sum(amount), 0)::text FROM badbeat_contribution",
    "jackpots": "SELECT coalesce(json_agg(json_build_array(id, balance::text, reset_reserve::text, "
                "contributions_total::text) ORDER BY id), '[]') FROM badbeat_jackpot",
}


def state(conn) -> dict:
    return {name: list(conn.execute(sql).fetchone()) for name, sql in STATE_SQL.items()}


def running_total_checks(conn) -> list[str]:
    """Every running total against a re-derivation from its records over all of history: bench/history_scale.py's
    CHECKS (the SQL the growth of a year of history is checked with). One line per difference."""
    sys.path.insert(0, str(ROOT / "bench"))
    from history_scale import CHECKS

    problems = []
    for what, needs, sql in CHECKS:
        table, _, column = needs.partition(".")
        if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()[0] or (
                column and not conn.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = %s "
                                            "AND column_name = %s", (table, column)).fetchone()[0]):
            continue
        problems += [f"{what}: {row}" for row in conn.execute(sql).fetchall()[:10]]
    return problems


def check_restored(*, before: list[str], after: list[str], target: datetime) -> dict:
    """As the app role, through Django: which rounds are back, and the books."""
    from django.db import connection

    from apps.casinos.models import Casino
    from apps.core.database_roles import privilege_problems
    from apps.counts.selectors import ledger_check
    from apps.rounds.models import RoundOfPlay

    present = set(RoundOfPlay.objects.filter(source_digest__in=before + after).values_list("source_digest", flat=True))
    restored = sum(d in present for d in before)
    after_ids = {d for d in after if d in present}
    created_after = set(RoundOfPlay.objects.filter(created_at__gt=target).values_list("source_digest", flat=True))
    problems = []
    for casino in Casino.objects.order_by("pk"):
        days = RoundOfPlay.objects.filter(table__casino=casino).values_list("gaming_day", flat=True).distinct()
        for day in sorted(set(days)):
            problems += ledger_check(casino=casino, gaming_day=day)
    with connection.cursor() as cursor:
        problems += running_total_checks(cursor.connection)
    return {"restored": restored, "lost": len(before) - restored, "after_target": len(after_ids | created_after),
            "ledger_problems": problems, "app_role_problems": privilege_problems(role=APP)}


# --- the drill ---------------------------------------------------------------------------------------------------------

def archived_through(conn, walfile: str, timeout: float) -> float:
    """Wait until the archiver has archived `walfile` (or a later segment); the seconds waited."""
    started = time.monotonic()
    while True:
        last, failed = conn.execute("SELECT last_archived_wal, last_failed_wal FROM pg_stat_archiver").fetchone()
        # a segment's name is 24 hex digits (timeline, log, segment): a later one sorts after; a backup's history
        # file (SEGMENT.OFFSET.backup) counts for its segment
        if last and re.fullmatch(r"[0-9A-F]{24}", last[:24]) and last[:24] >= walfile:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise DrillError(f"WAL segment {walfile} not archived after {timeout:.0f} s (last archived {last}, last "
                             f"failed {failed})")
        time.sleep(0.1)


def pgbackrest_time(moment: datetime) -> str:
    """A moment as pgBackRest's --target takes it (YYYY-MM-DD HH:MM:SS.ffffff+00), to the microsecond, in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f+00")


def drill(args, workdir: Path) -> dict:
    cluster = Cluster(args, workdir)
    version = cluster.runner.run(cluster.bin / "postgres", "--version").stdout.strip()
    backrest_version = cluster.runner.run(cluster.pgbackrest, "version").stdout.strip()
    log(f"{version}, {backrest_version}; cluster in {workdir} on port {cluster.port}"
        + (" (run by the postgres user)" if cluster.runner.as_root else ""))
    figures: dict = {"postgresql": version, "pgbackrest": backrest_version}
    try:
        cluster.prepare()
        cluster.initdb()
        cluster.start()
        cluster.backrest("stanza-create")
        cluster.backrest("check")
        log("stanza created, WAL archiving checked")

        # 1. the database, its roles, the schema, the room
        with cluster.connect("postgres") as conn:
            conn.execute(f'CREATE DATABASE "{DATABASE}"')
        env = {**os.environ, "PGHOST": "127.0.0.1", "PGPORT": str(cluster.port), "POSTGRES_USER": "postgres",
               "POSTGRES_DB": DATABASE, "POKERROOM_OWNER": OWNER, "POKERROOM_APP": APP,
               "POKERROOM_OWNER_PASSWORD": "drill-owner", "POKERROOM_APP_PASSWORD": "drill-app",
               "PATH": f"{cluster.bin}:{os.environ.get('PATH', '')}"}
        done = subprocess.run(["bash", str(INIT_ROLES)], env=env, capture_output=True, text=True)
        if done.returncode:
            raise DrillError(f"init-roles.sh failed:\n{done.stdout}{done.stderr}")
        django_env = app_env(cluster)
        started = time.perf_counter()
        # The migration's own commits need not wait for the disk (its session only; the rounds' commits do).
        owner_env = django_env | {"DATABASE_URL": cluster.url(OWNER), "PGOPTIONS": "-c synchronous_commit=off"}
        if args.schema_from:  # a database migrated already (the suite's): its tables, as the owner, then grants
            dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", args.schema_from],
                                  capture_output=True, check=True).stdout
            subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-o", os.devnull, cluster.url(OWNER)],
                           input=dump, capture_output=True, check=True, env=owner_env)
            manage(owner_env, "grant_app_role")
        else:
            manage(owner_env, "migrate", "--noinput", "--skip-checks", "-v0")
        log(f"roles made by deploy/postgres/init-roles.sh, schema {'copied' if args.schema_from else 'migrated'} "
            f"as {OWNER} in {time.perf_counter() - started:.1f} s")
        start_django(django_env)
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connections

        # The demo's logins are never used here: their passwords hashed in a moment, not PBKDF2's 1,000,000 rounds.
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        started = time.perf_counter()
        call_command("seed_demo", "--no-rounds", stdout=open(os.devnull, "w"))  # noqa: SIM115
        dealer = Dealer(args.seed, args.batch)
        log(f"the demo room seeded (seed_demo --no-rounds) as {APP} in {time.perf_counter() - started:.1f} s")

        # 2. a gaming day of rounds, 3. the full backup
        started = time.perf_counter()
        day = dealer.deal("day", args.rounds, spread=True)
        figures["record_s"] = round(time.perf_counter() - started, 2)
        log(f"{len(day)} rounds of the gaming day recorded as {APP} in {figures['record_s']} s")
        started = time.perf_counter()
        cluster.scheduled_backup()
        figures["backup_s"] = round(time.perf_counter() - started, 2)
        backup = json.loads(cluster.backrest("info", "--output=json").stdout)[0]["backup"][-1]
        figures |= {"backup": backup["label"], "backup_database_mb": round(backup["info"]["size"] / 2**20, 1),
                    "backup_repository_mb": round(backup["info"]["repository"]["size"] / 2**20, 1)}
        log(f"full backup {backup['label']} in {figures['backup_s']} s: database {figures['backup_database_mb']} MB, "
            f"{figures['backup_repository_mb']} MB in the repository")

        # 4. more rounds, then T and the state at T
        before_target = day + dealer.deal("before", args.before, spread=False)
        # pgBackRest picks the backup to restore by its stop time in whole seconds: T after that second.
        time.sleep(max(0.0, backup["timestamp"]["stop"] + 1 - time.time()))
        with cluster.connect() as conn:
            with conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                target = conn.execute("SELECT clock_timestamp()").fetchone()[0]
                at_target = state(conn)
                lag = conn.execute("SELECT extract(epoch FROM %s - last_archived_time)::float8 FROM pg_stat_archiver",
                                   (target,)).fetchone()[0]
        figures["target"] = target.isoformat()
        figures["archive_lag_at_target_s"] = round(lag, 2) if lag is not None else None
        log(f"T = {target.isoformat()} after {len(before_target)} rounds; newest archived WAL then "
            f"{figures['archive_lag_at_target_s']} s old")

        # 5. more rounds after T, their WAL archived
        after_target = dealer.deal("after", args.after, spread=False)
        connections.close_all()
        with cluster.connect() as conn:
            if args.no_switch:
                walfile = conn.execute("SELECT pg_walfile_name(pg_current_wal_lsn())").fetchone()[0]
            else:
                walfile = conn.execute("SELECT pg_walfile_name(pg_switch_wal())").fetchone()[0]
            waited = archived_through(conn, walfile, timeout=ARCHIVE_TIMEOUT_S * 3)
        figures["wal_archived_after_s"] = round(waited, 2)
        log(f"{len(after_target)} rounds after T; WAL through {walfile} archived "
            f"({'by archive_timeout' if args.no_switch else 'switch forced'}) {waited:.1f} s later")

        # 6. destroy, 7. restore to T, start
        cluster.destroy()
        log("cluster destroyed: stopped immediately, data directory and pg_wal deleted")
        began = time.perf_counter()
        cluster.data.mkdir(mode=0o700)
        cluster.runner.own(cluster.data)
        cluster.backrest("restore", "--type=time", f"--target={pgbackrest_time(target)}", "--target-action=promote")
        restored_at = time.perf_counter()
        cluster.start()
        with cluster.connect() as conn:
            while conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:
                if time.perf_counter() - restored_at > 600:
                    raise DrillError("still in recovery after 600 s")
                time.sleep(0.05)
            promoted_at = time.perf_counter()
            replayed = conn.execute("SELECT pg_last_xact_replay_timestamp()").fetchone()[0]
            restored_state = state(conn)

        # 8. the checks, as the app role
        result = check_restored(before=before_target, after=after_target, target=target)
        connections.close_all()
        checked_at = time.perf_counter()
    finally:  # the cluster is thrown away: no shutdown checkpoint to wait for, unless it is kept
        cluster.stop("fast" if args.keep else "immediate")
    figures |= {"restore_s": round(restored_at - began, 2), "recovery_s": round(promoted_at - restored_at, 2),
                "check_s": round(checked_at - promoted_at, 2)}
    state_ok = restored_state == at_target
    ledger_ok = not result["ledger_problems"]
    for problem in result["ledger_problems"] + result["app_role_problems"]:
        log(f"PROBLEM: {problem}")
    if not state_ok:
        log(f"PROBLEM: state at T {at_target}, restored {restored_state}")
    return {
        "rounds_before_target": len(before_target), "restored": result["restored"], "lost": result["lost"],
        "after_target": result["after_target"], "ledger_ok": ledger_ok,
        "rpo_s": round((target - replayed).total_seconds(), 3) if replayed else None,
        "rto_s": round(checked_at - began, 2),
        "rounds_after_target": len(after_target), "state_at_target_ok": state_ok,
        "app_role_ok": not result["app_role_problems"], "ledger_problems": len(result["ledger_problems"]),
        "archive_timeout_s": ARCHIVE_TIMEOUT_S, "wal_switch_forced": not args.no_switch, **figures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=600, help="rounds of the gaming day before the full backup")
    parser.add_argument("--before", type=int, default=100, help="rounds after the backup, before the target T")
    parser.add_argument("--after", type=int, default=100, help="rounds after T (must not come back)")
    parser.add_argument("--batch", type=int, default=1, help="rounds a transaction")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-switch", action="store_true",
                        help="let archive_timeout archive the WAL after T (up to 60 s) instead of forcing a switch")
    parser.add_argument("--port", type=int, default=0, help="the cluster's port (default: a free one)")
    parser.add_argument("--pg-bin", help="PostgreSQL's bin directory (default: the newest /usr/lib/postgresql/*/bin)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (cluster, repository, logs)")
    parser.add_argument("--schema-from", metavar="URL", help="copy the tables of this migrated database (pg_dump) "
                        "instead of running migrate: the suite passes its own test database")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.before < 1 or args.after < 1:
        parser.error("--rounds, --before and --after must each be at least 1")
    workdir = Path(tempfile.mkdtemp(prefix="restore-drill-"))
    failed = True
    try:
        result = drill(args, workdir)
        failed = bool(result["lost"] or result["after_target"] or not result["ledger_ok"]
                      or not result["state_at_target_ok"] or not result["app_role_ok"])
    except DrillError as exc:
        log(f"restore drill failed: {exc}")
        for name in ("postgresql.log",):
            path = workdir / name
            if path.exists():
                log(f"--- {path} (end) ---\n{path.read_text()[-4000:]}")
        for path in sorted((workdir / "log").glob("*.log")):
            log(f"--- {path} (end) ---\n{path.read_text()[-2000:]}")
        result = {"error": str(exc).splitlines()[0]}
    finally:
        if args.keep:
            log(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    log(f"rounds before T {result.get('rounds_before_target')}, restored {result.get('restored')}, lost "
        f"{result.get('lost')}, after T {result.get('after_target')}, ledger ok {result.get('ledger_ok')}, "
        f"RPO {result.get('rpo_s')} s, RTO {result.get('rto_s')} s")
    print(json.dumps(result))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
