"""A year of history (issue 14): the demo room grown to millions of rounds of play, then every page and list of the
poker shift supervisor and of accounting timed over HTTP, with the SQL queries each costs, and rounds posted by
concurrent clients — on PostgreSQL, served by gunicorn with DEBUG off.

    python bench/history_scale.py [--rounds 5000000] [--keep-db] [--clients 8] [--seconds 20] [--batch 20]
                                  [--requests 20]
                                  [--day-rounds 13500] [--port 8124] [--database-url postgres://...]

1. A fresh database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/historybench; dropped and
   created again unless --keep-db finds it grown to --rounds already, then ANALYZEd: earlier runs posted rounds),
   `migrate`, `seed_demo`.
2. Growth to --rounds rounds of play (the demo's own included) in SQL: the demo's rounds cloned back in time with
   every record that belongs to a round (seats, pots, awards, rake record, bad beat contribution, kill record), each
   clone at the table that dealt its original (its game, stakes and posted rake), at the same wall-clock moment of its
   gaming day shifted by a whole number of slots of 24/S hours, so that each past gaming day holds S copies of the
   demo (about --day-rounds rounds: 13,500 a day makes 5,000,000 rounds one year). The clones take ids below the
   demo's (the id sequences are set past the room they need before seeding), in the order of their moments, so ids
   stay in the order the records were written, as the newest-first lists assume. The inserts skip PostgreSQL's
   row-by-row foreign key checks (session_replication_role, as a superuser may); each reference of the clones is
   checked once, set-wise, at the end. Then the running totals are added
   to (rounds, rake and contributions by table and gaming day, each jackpot's contributions by day, its balance,
   reset reserve and total), the past gaming days closed (gaming day, daily reset of 14.19(p), close record), the
   sequences set past the largest ids, ANALYZE, and every running total checked against a re-derivation from its
   records (SQL, and apps.badbeat.selectors.ledger for each jackpot): any difference ends the run (exit 1).
3. In-process (django.test.Client, CaptureQueriesContext): every GET URL of the URL configuration the role may
   open — pages, htmx pages, CSV and PDF exports, API lists and details, with a table, a round, a claim, a day and
   a jackpot of the data in their path — for the poker shift supervisor and accounting, a full past gaming day's
   variants, and the second page (the `next` link) of every keyset list: the SQL queries of one request. URLs that
   answer the role anything but 200 (403: not the role's) are left out, and listed.
   The statement run most often by a request is named when it runs 3 times or more (an N+1 candidate).
4. Over HTTP against gunicorn (4 workers, each URL requested 8 times first so that most likely no worker serves it
   for the first time while timed): each of those URLs --requests times after 2 warm-up requests, one after the other, pages with a session
   cookie and the API with a knox token: p50 and p95 in ms (an export that takes over 5 s: 5 times). The load
   average is printed beside them: the machine may be busy with something else.
5. POST /api/rounds/ from --clients processes (a requests session each, though gunicorn's sync workers close every
   connection; the dealer's knox tokens, a new Idempotency-Key each) at the open single-game hold 'em tables for
   --seconds after a 2 s warm-up (and, before the first such run, --warm-seconds of untimed GET /api/jackpot/: each
   worker past the 1000th request, after which gunicorn.conf.py freezes what it loaded, as a worker that has served
   a while is): rounds recorded a second, p50 and p99 latency, and the answers other than 201 (5xx counted apart), with the CPU a
   request took from gunicorn, PostgreSQL, the clients and the rest of the machine (/proc) and the requests a second
   the machine's cores would allow at that cost. Then the same with --batch rounds a
   request to POST /api/rounds/batch/ (a feed sending batches): rounds and requests a second, latency a request.
6. The ceiling (--ceiling-runs): the same clients GET /api/jackpot/, the lightest authenticated read, for
   --seconds: the requests a second the HTTP stack (gunicorn, Django's middleware, DRF's authentication,
   permission and throttle, the clients themselves) allows on this machine before any round is recorded.

Prints one table; the last line is one JSON object:
{"rounds": N, "pages": {NAME: {"p50_ms": x, "p95_ms": y, "queries": q}}, "post_rounds": {"rps": r, "p50_ms": a,
"p99_ms": b, "errors": e}, "post_rounds_batch": {"batch": k, "rps": r, "requests_per_s": q, "p50_ms": a, "p99_ms": b,
"errors": e}, "ceiling": [{"clients": c, "requests_per_s": q, "p50_ms": a, "p99_ms": b, "errors": e}]}
"""
from __future__ import annotations

import argparse
import html
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from base64 import b64decode
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/historybench")
SECRET_KEY = "history-scale-bench-only-secret-not-for-production"
ROLES = {"poker_shift_supervisor": "supervisor", "accounting": "accounting"}
POSTER = "dealer"  # the dealer's tablet records the rounds
MARKER = "history_scale"  # COMMENT ON DATABASE: what the growth left, for --keep-db

#: Ids the clones may need, per round of play, reserved below the demo's before it is seeded (checked after).
RESERVE_PER_ROUND = {"rounds_roundofplay": 1, "rounds_roundplayer": 11, "rounds_pot": 4, "rounds_potaward": 6,
                     "rake_rakerecord": 1, "badbeat_contribution": 2, "rounds_killrecord": 1}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def app_env(url: str, args) -> dict:
    """The environment the app runs in, as bench/hostile_probe.sh sets it."""
    return {**os.environ, "DATABASE_URL": url, "DJANGO_SECRET_KEY": SECRET_KEY, "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_SECURE_COOKIES": "false", "CELERY_TASK_ALWAYS_EAGER": "true",
            "DJANGO_THROTTLE_USER": "1000000/min", "DJANGO_THROTTLE_ANON": "1000000/min",
            "REDIS_URL": args.redis_url, "DJANGO_STATIC_ROOT": args.static_root, "DJANGO_SETTINGS_MODULE":
            "pokerroom.settings"}


def manage(env: dict, *command: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"manage.py {' '.join(command)} failed")
    return done.stdout


def connect(url: str, **kwargs):
    import psycopg

    return psycopg.connect(url, **kwargs)


def admin_url(url: str) -> str:
    return url.rsplit("/", 1)[0] + "/postgres"


# --- 1. the database ------------------------------------------------------------------------------------------------

def marker(url: str) -> dict | None:
    """What the growth left in the database's comment, or None (no database, or no growth finished)."""
    name = url.rsplit("/", 1)[1]
    try:
        with connect(admin_url(url), autocommit=True) as conn:
            row = conn.execute("SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                               (name,)).fetchone()
    except Exception:  # noqa: BLE001 - no server: the fresh database below says why
        return None
    if not row or not row[0] or not row[0].startswith(MARKER + " "):
        return None
    return json.loads(row[0][len(MARKER) + 1:])


def fresh_database(url: str, args, env: dict) -> None:
    """Drop and create the database, migrate, reserve the clones' ids, seed the demo."""
    name = url.rsplit("/", 1)[1]
    with connect(admin_url(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    started = time.perf_counter()
    manage(env, "migrate", "--noinput", "-v0")
    log(f"migrated in {time.perf_counter() - started:.1f} s")
    if args.rounds:
        with connect(url, autocommit=True) as conn:
            for table, per_round in RESERVE_PER_ROUND.items():
                conn.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", (table, per_round * args.rounds))
    started = time.perf_counter()
    manage(env, "seed_demo")
    log(f"seeded the demo in {time.perf_counter() - started:.1f} s")


# --- 2. growth ------------------------------------------------------------------------------------------------------

def columns(cur, table: str) -> list[tuple[str, str]]:
    """(name, data type) of a table's stored columns, in order, its id aside."""
    return [(name, kind) for name, kind in cur.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name = %s AND is_generated = 'NEVER' AND column_name <> 'id' ORDER BY ordinal_position",
        (table,)).fetchall()]


def table_exists(cur, table: str) -> bool:
    return cur.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()[0]


def column_exists(cur, table: str, column: str) -> bool:
    return cur.execute("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public' AND "
                       "table_name = %s AND column_name = %s", (table, column)).fetchone()[0] > 0


def clone_select(cur, table: str, source: str, overrides: dict[str, str]) -> tuple[str, str]:
    """(column list, select list) copying `source`'s row of `table` into a clone: `overrides` by column; any other
    moment shifted by the round's shift (m.delta), any other date by its days (m.day_shift), the rest as is."""
    names, exprs = [], []
    for name, kind in columns(cur, table):
        names.append(f'"{name}"')
        if name in overrides:
            exprs.append(overrides[name])
        elif kind == "timestamp with time zone":
            exprs.append(f'{source}."{name}" + m.delta')
        elif kind == "date":
            exprs.append(f'{source}."{name}" + m.day_shift')
        else:
            exprs.append(f'{source}."{name}"')
    return ", ".join(names), ", ".join(exprs)


class Growth:
    """The demo's rounds cloned back in time through SQL, in chunks of whole gaming days, oldest first."""

    #: The records of a round cloned with it: (table, its template's temporary table). Pots (and their awards) go
    #: through a map of their own: the awards refer to them.
    CHILDREN = [("rounds_roundplayer", "hb_players"), ("rake_rakerecord", "hb_rake"),
                ("badbeat_contribution", "hb_contributions"), ("rounds_killrecord", "hb_kills")]

    def __init__(self, url: str, rounds: int, day_rounds: int, chunk_rounds: int):
        self.url, self.target, self.day_rounds, self.chunk_rounds = url, rounds, day_rounds, chunk_rounds
        self.conn = connect(url)
        self.cur = self.conn.cursor()
        self.next_id: dict[str, int] = {}
        self.first_id: dict[str, int] = {}
        self.spent: dict[str, float] = {}  # seconds of INSERT by table
        self.replica = False

    def run(self) -> dict:
        cur = self.cur
        cur.execute("SET synchronous_commit = off")
        cur.execute("SET work_mem = '64MB'")
        # no row-by-row foreign key checks at each commit (the clones' references are checked once at the end,
        # _check_references); a login that may not (not a superuser) pays for them
        try:
            cur.execute("SET session_replication_role = replica")
            self.conn.commit()
            self.replica = True
        except Exception:  # noqa: BLE001 - psycopg.errors.InsufficientPrivilege
            self.conn.rollback()
            self.replica = False
        casino_id, tz, starts_at = cur.execute(
            "SELECT id, time_zone, gaming_day_starts_at FROM casinos_casino WHERE code = 'boardwalk'").fetchone()
        today = cur.execute("SELECT ((now() AT TIME ZONE %s) - %s::time)::date", (tz, starts_at)).fetchone()[0]
        existing = cur.execute("SELECT count(*) FROM rounds_roundofplay").fetchone()[0]
        clones = self.target - existing
        if clones <= 0:
            self.conn.close()
            return {"clones": 0, "existing": existing}
        # the template: every round of the demo room, its moment as seconds into its gaming day by the wall clock
        cur.execute("""
            CREATE TEMP TABLE hb_tmpl AS
            SELECT (row_number() OVER (ORDER BY r.started_at, r.id) - 1)::bigint AS idx, r.*,
                   extract(epoch FROM (r.started_at AT TIME ZONE %(tz)s) - (r.gaming_day + %(start)s::time))
                       AS tod
            FROM rounds_roundofplay r JOIN tables_pokertable t ON t.id = r.table_id
            WHERE t.casino_id = %(casino)s""", {"tz": tz, "start": starts_at, "casino": casino_id})
        cur.execute("CREATE UNIQUE INDEX ON hb_tmpl (idx)")
        cur.execute("CREATE UNIQUE INDEX ON hb_tmpl (id)")
        template = cur.execute("SELECT count(*) FROM hb_tmpl").fetchone()[0]
        newest = cur.execute("SELECT least(%s::date - 1, min(gaming_day)) - 1 FROM hb_tmpl WHERE gaming_day > %s::date - 30",
                             (today, today)).fetchone()[0]
        slots = max(1, round(self.day_rounds / template))
        per_day = slots * template
        days = -(-clones // per_day)
        log(f"growth: {clones:,} clones of {template:,} demo rounds, {slots} copies a day ({per_day:,} rounds a day), "
            f"{days} gaming days from {newest} back")
        for table, source in (*self.CHILDREN, ("rounds_pot", "hb_pots")):
            cur.execute(f"CREATE TEMP TABLE {source} AS SELECT x.* FROM {table} x "
                        "JOIN hb_tmpl t ON t.id = x.round_of_play_id")
            cur.execute(f"CREATE INDEX ON {source} (round_of_play_id)")
        cur.execute("CREATE TEMP TABLE hb_awards AS SELECT a.* FROM rounds_potaward a JOIN hb_pots p ON p.id = a.pot_id")
        cur.execute("CREATE INDEX ON hb_awards (pot_id)")
        cur.execute("CREATE TEMP TABLE hb_map (new_id bigint PRIMARY KEY, old_id bigint, day date, "
                    "started_at timestamptz, created_at timestamptz, delta interval, day_shift integer)")
        cur.execute("CREATE TEMP TABLE hb_potmap (new_id bigint PRIMARY KEY, old_id bigint, new_round bigint)")
        for name in ("hb_tmpl", "hb_players", "hb_pots", "hb_awards", "hb_rake", "hb_contributions", "hb_kills"):
            cur.execute(f"ANALYZE {name}")
        self._check_reserved_ids(clones, template)
        self.conn.commit()

        params = {"tz": tz, "start": starts_at, "newest": newest, "per_day": per_day, "template": template,
                  "slot_secs": f"{86400 / slots:.6f}"}
        days_per_chunk = max(1, self.chunk_rounds // per_day)
        started, done = time.perf_counter(), 0
        for oldest in range(days - 1, -1, -days_per_chunk):  # day k: `newest` - k; clones k*per_day ...
            youngest = max(0, oldest - days_per_chunk + 1)
            lo, hi = youngest * per_day, min(clones, (oldest + 1) * per_day)
            self._chunk(lo, hi, params)
            self.conn.commit()
            done += hi - lo
            spent = time.perf_counter() - started
            log(f"  {done:>10,} / {clones:,} rounds ({100 * done / clones:5.1f} %)  {spent:7.1f} s  "
                f"{done / spent:8,.0f} rounds/s  ETA {spent * (clones - done) / done:6.0f} s")
        cloned_in = time.perf_counter() - started
        log("growth: time by table: " + ", ".join(f"{t} {s:.1f} s" for t, s in sorted(self.spent.items(),
                                                                                     key=lambda kv: -kv[1])))
        oldest_day = cur.execute("SELECT min(gaming_day) FROM rounds_roundofplay WHERE id < %s",
                                 (self.next_id["rounds_roundofplay"],)).fetchone()[0]
        totals_started = time.perf_counter()
        cur.execute("SET session_replication_role = DEFAULT")  # the jackpot's history trigger records the update
        self._totals(casino_id, tz, starts_at, oldest_day, newest)
        self.conn.commit()
        totals_in = time.perf_counter() - totals_started
        if self.replica:
            checked_started = time.perf_counter()
            self._check_references()
            self.conn.commit()
            log(f"growth: the clones' references checked in {time.perf_counter() - checked_started:.1f} s")
        self.conn.autocommit = True
        analyze_started = time.perf_counter()
        cur.execute("ANALYZE")
        log(f"growth: clones {cloned_in:.1f} s, totals and closed days {totals_in:.1f} s, "
            f"ANALYZE {time.perf_counter() - analyze_started:.1f} s")
        self.conn.close()
        return {"clones": clones, "existing": existing, "template": template, "copies_a_day": slots,
                "rounds_a_day": per_day, "days": days, "oldest_day": str(oldest_day), "newest_day": str(newest)}

    def _check_reserved_ids(self, clones: int, template: int) -> None:
        """The clones take ids 1, 2, ... of each table: they must stay below the demo's (fresh_database leaves room).
        Template round i is cloned clones // template times, once more when i < clones % template."""
        full, part = divmod(clones, template)
        for table, source in (("rounds_roundofplay", "hb_tmpl x"),
                              *((t, f"{s} p JOIN hb_tmpl x ON x.id = p.round_of_play_id") for t, s in self.CHILDREN),
                              ("rounds_pot", "hb_pots p JOIN hb_tmpl x ON x.id = p.round_of_play_id"),
                              ("rounds_potaward", "hb_awards a JOIN hb_pots p ON p.id = a.pot_id "
                                                  "JOIN hb_tmpl x ON x.id = p.round_of_play_id")):
            need = self.cur.execute(f"SELECT %s * count(*) + count(*) FILTER (WHERE x.idx < %s) FROM {source}",
                                    (full, part)).fetchone()[0]
            lowest = self.cur.execute(f"SELECT min(id) FROM {table}").fetchone()[0]
            if lowest is not None and need >= lowest:
                raise SystemExit(f"{table}: the clones need ids 1..{need} but the demo's start at {lowest}: drop the "
                                 "database (no --keep-db) so that seeding leaves room")
            self.next_id[table] = self.first_id[table] = 1

    def _timed(self, what: str, sql: str, params=None) -> int:
        started = time.perf_counter()
        self.cur.execute(sql, params)
        self.spent[what] = self.spent.get(what, 0.0) + time.perf_counter() - started
        return self.cur.rowcount

    def _insert(self, table: str, sql: str, params=None) -> int:
        count = self._timed(table, sql, params)
        self.next_id[table] += count
        return count

    def _chunk(self, lo: int, hi: int, p: dict) -> None:
        cur = self.cur
        cur.execute("TRUNCATE hb_map, hb_potmap")
        # clone c: gaming day `newest` - c / per_day, copy (slot) (c % per_day) / template of template round
        # c % template, at its wall-clock moment of the day plus slot * 24 h / copies (wrapped within the day)
        self._timed("hb_map", """
            INSERT INTO hb_map (new_id, old_id, day, started_at, created_at, delta, day_shift)
            SELECT %(next)s + row_number() OVER (ORDER BY x.ts, g.c) - 1, t.id, d.day, x.ts,
                   x.ts + least(greatest(t.created_at - t.started_at, interval '0'), interval '2 minutes'),
                   x.ts - t.started_at, d.day - t.gaming_day
            FROM generate_series(%(lo)s::bigint, %(hi)s::bigint - 1) AS g(c)
            JOIN hb_tmpl t ON t.idx = mod(g.c, %(template)s)
            CROSS JOIN LATERAL (SELECT (%(newest)s::date - (g.c / %(per_day)s)::integer) AS day,
                                       (mod(g.c, %(per_day)s) / %(template)s)::integer AS slot) d
            CROSS JOIN LATERAL (
                SELECT ((d.day + %(start)s::time) + make_interval(
                           secs => mod(mod(t.tod + d.slot * %(slot_secs)s::numeric, 86400) + 86400, 86400)::float8))
                       AT TIME ZONE %(tz)s AS ts) x""",
                    {**p, "lo": lo, "hi": hi, "next": self.next_id["rounds_roundofplay"]})
        names, exprs = clone_select(cur, "rounds_roundofplay", "t", {
            "started_at": "m.started_at", "gaming_day": "m.day", "created_at": "m.created_at",
            "source_digest": "CASE WHEN t.source_digest IS NULL THEN NULL ELSE "
                             "encode(sha256(convert_to(t.source_digest || ':' || m.new_id, 'UTF8')), 'hex') END"})
        self._insert("rounds_roundofplay", f"INSERT INTO rounds_roundofplay (id, {names}) "
                                           f"SELECT m.new_id, {exprs} FROM hb_map m JOIN hb_tmpl t ON t.id = m.old_id")
        moments = {"gaming_day": "m.day", "created_at": "m.created_at"}
        for table, source in self.CHILDREN:
            names, exprs = clone_select(cur, table, "x", {"round_of_play_id": "m.new_id", **moments})
            self._insert(table, f"INSERT INTO {table} (id, {names}) "
                                f"SELECT %s + row_number() OVER (ORDER BY m.new_id, x.id) - 1, {exprs} "
                                f"FROM hb_map m JOIN {source} x ON x.round_of_play_id = m.old_id",
                         (self.next_id[table],))
        self._timed("hb_potmap", "INSERT INTO hb_potmap SELECT %s + row_number() OVER (ORDER BY m.new_id, x.id) - 1, x.id, m.new_id "
                    "FROM hb_map m JOIN hb_pots x ON x.round_of_play_id = m.old_id", (self.next_id["rounds_pot"],))
        names, exprs = clone_select(cur, "rounds_pot", "x", {"round_of_play_id": "pm.new_round", **moments})
        self._insert("rounds_pot", f"INSERT INTO rounds_pot (id, {names}) SELECT pm.new_id, {exprs} FROM hb_potmap pm "
                                   "JOIN hb_map m ON m.new_id = pm.new_round JOIN hb_pots x ON x.id = pm.old_id")
        names, exprs = clone_select(cur, "rounds_potaward", "x", {"pot_id": "pm.new_id", **moments})
        self._insert("rounds_potaward", f"INSERT INTO rounds_potaward (id, {names}) "
                                        f"SELECT %s + row_number() OVER (ORDER BY pm.new_id, x.id) - 1, {exprs} "
                                        "FROM hb_potmap pm JOIN hb_map m ON m.new_id = pm.new_round "
                                        "JOIN hb_awards x ON x.pot_id = pm.old_id", (self.next_id["rounds_potaward"],))

    def _check_references(self) -> None:
        """Each foreign key of the cloned rows points at a row (what PostgreSQL checks row by row otherwise)."""
        broken = []
        for table in self.first_id:
            first, last = self._clone_range(table)
            if last < first:
                continue
            for column, parent, key in self.cur.execute("""
                    SELECT a.attname, c.confrelid::regclass::text, pa.attname
                    FROM pg_constraint c
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                    JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
                    WHERE c.contype = 'f' AND c.conrelid = %s::regclass""", (table,)).fetchall():
                missing = self.cur.execute(
                    f'SELECT count(*) FROM {table} x WHERE x.id BETWEEN %s AND %s AND x."{column}" IS NOT NULL '
                    f'AND NOT EXISTS (SELECT 1 FROM {parent} p WHERE p."{key}" = x."{column}")',
                    (first, last)).fetchone()[0]
                if missing:
                    broken.append(f"{table}.{column}: {missing} clones refer to no {parent} row")
        if broken:
            raise SystemExit("the clones break foreign keys:\n" + "\n".join(broken))

    def _clone_range(self, table: str) -> tuple[int, int]:
        return self.first_id[table], self.next_id[table] - 1

    def _totals(self, casino_id: int, tz: str, starts_at, oldest_day, newest_day) -> None:
        """Add the clones to the running totals, close their gaming days, set the sequences past the largest ids."""
        cur = self.cur
        first, last = self._clone_range("rounds_roundofplay")
        if table_exists(cur, "rounds_tablegamingday"):
            cur.execute("""
                INSERT INTO rounds_tablegamingday (table_id, gaming_day, rounds, dead_rounds, pot_total)
                SELECT table_id, gaming_day, count(*), count(*) FILTER (WHERE is_dead), sum(pot_total)
                FROM rounds_roundofplay WHERE id BETWEEN %s AND %s GROUP BY 1, 2
                ON CONFLICT (table_id, gaming_day) DO UPDATE SET
                    rounds = rounds_tablegamingday.rounds + EXCLUDED.rounds,
                    dead_rounds = rounds_tablegamingday.dead_rounds + EXCLUDED.dead_rounds,
                    pot_total = rounds_tablegamingday.pot_total + EXCLUDED.pot_total""", (first, last))
        first, last = self._clone_range("rake_rakerecord")
        if table_exists(cur, "rake_tablehourrake"):
            cur.execute("""
                INSERT INTO rake_tablehourrake (table_id, gaming_day, hour, game, betting_structure, rounds, basis,
                                                amount)
                SELECT k.table_id, k.gaming_day, date_trunc('hour', r.started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                       r.game, r.betting_structure, count(*), sum(k.basis), sum(k.amount)
                FROM rake_rakerecord k JOIN rounds_roundofplay r ON r.id = k.round_of_play_id
                WHERE k.id BETWEEN %s AND %s GROUP BY 1, 2, 3, 4, 5
                ON CONFLICT (table_id, gaming_day, hour, game, betting_structure) DO UPDATE SET
                    rounds = rake_tablehourrake.rounds + EXCLUDED.rounds,
                    basis = rake_tablehourrake.basis + EXCLUDED.basis,
                    amount = rake_tablehourrake.amount + EXCLUDED.amount""", (first, last))
        first, last = self._clone_range("badbeat_contribution")
        if table_exists(cur, "badbeat_tabledaycontributions"):
            cur.execute("""
                INSERT INTO badbeat_tabledaycontributions (jackpot_id, table_id, gaming_day, amount, count)
                SELECT jackpot_id, table_id, gaming_day, sum(amount), count(*)
                FROM badbeat_contribution WHERE id BETWEEN %s AND %s GROUP BY 1, 2, 3
                ON CONFLICT (jackpot_id, table_id, gaming_day) DO UPDATE SET
                    amount = badbeat_tabledaycontributions.amount + EXCLUDED.amount,
                    count = badbeat_tabledaycontributions.count + EXCLUDED.count""", (first, last))
        cur.execute("""
            INSERT INTO badbeat_gamingdaycontributions (jackpot_id, gaming_day, contributions, to_reset, count)
            SELECT jackpot_id, gaming_day, sum(amount), sum(to_reset), count(*)
            FROM badbeat_contribution WHERE id BETWEEN %s AND %s GROUP BY 1, 2
            ON CONFLICT (jackpot_id, gaming_day) DO UPDATE SET
                contributions = badbeat_gamingdaycontributions.contributions + EXCLUDED.contributions,
                to_reset = badbeat_gamingdaycontributions.to_reset + EXCLUDED.to_reset,
                count = badbeat_gamingdaycontributions.count + EXCLUDED.count""", (first, last))
        total = (", contributions_total = j.contributions_total + s.amount"
                 if column_exists(cur, "badbeat_jackpot", "contributions_total") else "")
        cur.execute(f"""
            UPDATE badbeat_jackpot j SET balance = j.balance + s.amount - s.to_reset,
                                         reset_reserve = j.reset_reserve + s.to_reset{total}
            FROM (SELECT jackpot_id, sum(amount) AS amount, sum(to_reset) AS to_reset FROM badbeat_contribution
                  WHERE id BETWEEN %s AND %s GROUP BY 1) s
            WHERE j.id = s.jackpot_id""", (first, last))
        # the past gaming days closed, as the daily job closes them a few minutes after their end
        days = "(SELECT generate_series(%(oldest)s::date, %(newest)s::date, interval '1 day')::date AS day)"
        closed = "(((g.day + 1) + %(start)s::time) AT TIME ZONE %(tz)s) + interval '5 minutes'"
        p = {"oldest": oldest_day, "newest": newest_day, "start": starts_at, "tz": tz, "casino": casino_id}
        cur.execute(f"""
            INSERT INTO casinos_gamingday (casino_id, gaming_day, closed_at)
            SELECT %(casino)s, g.day, {closed} FROM {days} AS g
            ON CONFLICT (casino_id, gaming_day) DO UPDATE SET
                closed_at = coalesce(casinos_gamingday.closed_at, EXCLUDED.closed_at)""", p)
        cur.execute(f"""
            INSERT INTO badbeat_dailyreset (jackpot_id, gaming_day, contributions, percentage, amount, created_at)
            SELECT j.id, g.day, coalesce(t.contributions, 0), j.reset_percentage, coalesce(t.to_reset, 0), {closed}
            FROM {days} AS g
            JOIN badbeat_jackpot j ON j.casino_id = %(casino)s AND j.funding <> 'primary_portion'
                                  AND j.status <> 'discontinued'
            LEFT JOIN badbeat_gamingdaycontributions t ON t.jackpot_id = j.id AND t.gaming_day = g.day
            ON CONFLICT (jackpot_id, gaming_day) DO NOTHING""", p)
        # the close record of each day, as close_gaming_day writes it: no box was counted and no display adjusted
        # in the cloned history, which the summary says (the demo's own close gives its other keys)
        demo = cur.execute("SELECT summary FROM casinos_gamingdayclose WHERE casino_id = %s ORDER BY gaming_day DESC "
                           "LIMIT 1", (casino_id,)).fetchone()
        extra = {k: ([] if isinstance(v, list) else v) for k, v in (demo[0] if demo else {}).items()}
        cur.execute(f"""
            INSERT INTO casinos_gamingdayclose (casino_id, gaming_day, closed_at, summary)
            SELECT %(casino)s, g.day, {closed}, %(extra)s::jsonb || jsonb_build_object(
                'contributions', to_char(coalesce((SELECT sum(contributions) FROM badbeat_gamingdaycontributions c
                                                   JOIN badbeat_jackpot j ON j.id = c.jackpot_id
                                                   WHERE j.casino_id = %(casino)s AND c.gaming_day = g.day), 0),
                                         'FM9999999999990.00'),
                'resets', coalesce((SELECT jsonb_agg(jsonb_build_object(
                              'jackpot', j.name, 'contributions', to_char(r.contributions, 'FM9999999999990.00'),
                              'percentage', to_char(r.percentage, 'FM990.00'),
                              'amount', to_char(r.amount, 'FM9999999999990.00')) ORDER BY j.id)
                           FROM badbeat_dailyreset r JOIN badbeat_jackpot j ON j.id = r.jackpot_id
                           WHERE j.casino_id = %(casino)s AND r.gaming_day = g.day), '[]'::jsonb),
                'uncounted_tables', coalesce((SELECT jsonb_agg(jsonb_build_object(
                              'table', t.number, 'amount', to_char(c.amount, 'FM9999999999990.00')) ORDER BY t.number)
                           FROM (SELECT table_id, sum(amount) AS amount FROM badbeat_contribution
                                 WHERE gaming_day = g.day AND id BETWEEN %(first)s AND %(last)s GROUP BY 1) c
                           JOIN tables_pokertable t ON t.id = c.table_id), '[]'::jsonb),
                'displays_not_adjusted', coalesce((SELECT jsonb_agg(j.name ORDER BY j.kind, j.id) FROM badbeat_jackpot j
                           WHERE j.casino_id = %(casino)s AND j.status <> 'discontinued'), '[]'::jsonb),
                'in_order', false)
            FROM {days} AS g
            ON CONFLICT (casino_id, gaming_day) DO NOTHING""",
                    {**p, "extra": json.dumps(extra), "first": first, "last": last})
        for table in (*RESERVE_PER_ROUND, "rounds_tablegamingday", "rake_tablehourrake",
                      "badbeat_tabledaycontributions", "badbeat_gamingdaycontributions", "casinos_gamingday",
                      "badbeat_dailyreset", "casinos_gamingdayclose"):
            if table_exists(cur, table):
                sequence = cur.execute("SELECT pg_get_serial_sequence(%s, 'id')", (table,)).fetchone()[0]
                cur.execute(f"SELECT setval(%s, greatest((SELECT max(id) FROM {table}), "
                            f"(SELECT last_value FROM {sequence})))", (sequence,))


# --- 2b. consistency --------------------------------------------------------------------------------------------

#: Each running total against the records it sums, over all of history: (what, SQL giving the rows that differ).
#: A kept row of zeros with no records stands for no row.
CHECKS = [
    ("rounds by table and gaming day (rounds_tablegamingday)", "rounds_tablegamingday", """
        SELECT table_id, gaming_day, k.rounds, k.dead_rounds, k.pot_total, d.rounds, d.dead, d.pot
        FROM rounds_tablegamingday k FULL JOIN (
            SELECT table_id, gaming_day, count(*) AS rounds, count(*) FILTER (WHERE is_dead) AS dead,
                   sum(pot_total) AS pot FROM rounds_roundofplay GROUP BY 1, 2) d USING (table_id, gaming_day)
        WHERE (k.rounds, k.dead_rounds, k.pot_total) IS DISTINCT FROM (d.rounds, d.dead, d.pot)
          AND NOT (d.rounds IS NULL AND k.rounds = 0 AND k.dead_rounds = 0 AND k.pot_total = 0)"""),
    ("rake by table, hour and game (rake_tablehourrake)", "rake_tablehourrake", """
        SELECT table_id, gaming_day, hour, game, betting_structure, k.rounds, k.basis, k.amount, d.rounds, d.basis,
               d.amount
        FROM rake_tablehourrake k FULL JOIN (
            SELECT k.table_id, k.gaming_day,
                   date_trunc('hour', r.started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, r.game,
                   r.betting_structure, count(*) AS rounds, sum(k.basis) AS basis, sum(k.amount) AS amount
            FROM rake_rakerecord k JOIN rounds_roundofplay r ON r.id = k.round_of_play_id GROUP BY 1, 2, 3, 4, 5) d
            USING (table_id, gaming_day, hour, game, betting_structure)
        WHERE (k.rounds, k.basis, k.amount) IS DISTINCT FROM (d.rounds, d.basis, d.amount)
          AND NOT (d.rounds IS NULL AND k.rounds = 0 AND k.basis = 0 AND k.amount = 0)"""),
    ("contributions by jackpot, table and gaming day (badbeat_tabledaycontributions)",
     "badbeat_tabledaycontributions", """
        SELECT jackpot_id, table_id, gaming_day, k.amount, k.count, d.amount, d.count
        FROM badbeat_tabledaycontributions k FULL JOIN (
            SELECT jackpot_id, table_id, gaming_day, sum(amount) AS amount, count(*) AS count
            FROM badbeat_contribution GROUP BY 1, 2, 3) d USING (jackpot_id, table_id, gaming_day)
        WHERE (k.amount, k.count) IS DISTINCT FROM (d.amount, d.count)
          AND NOT (d.count IS NULL AND k.amount = 0 AND k.count = 0)"""),
    ("contributions by jackpot and gaming day (badbeat_gamingdaycontributions)", "badbeat_gamingdaycontributions", """
        SELECT jackpot_id, gaming_day, k.contributions, k.to_reset, k.count, d.amount, d.to_reset, d.count
        FROM badbeat_gamingdaycontributions k FULL JOIN (
            SELECT jackpot_id, gaming_day, sum(amount) AS amount, sum(to_reset) AS to_reset, count(*) AS count
            FROM badbeat_contribution GROUP BY 1, 2) d USING (jackpot_id, gaming_day)
        WHERE (k.contributions, k.to_reset, k.count) IS DISTINCT FROM (d.amount, d.to_reset, d.count)
          AND NOT (d.count IS NULL AND k.contributions = 0 AND k.to_reset = 0 AND k.count = 0)"""),
    ("each jackpot's contributions_total (badbeat_jackpot)", "badbeat_jackpot.contributions_total", """
        SELECT j.id, j.contributions_total, coalesce(sum(c.amount), 0)
        FROM badbeat_jackpot j LEFT JOIN badbeat_contribution c ON c.jackpot_id = j.id GROUP BY j.id
        HAVING j.contributions_total <> coalesce(sum(c.amount), 0)"""),
    ("daily resets against the day's contributions (badbeat_dailyreset)", "badbeat_dailyreset", """
        SELECT r.jackpot_id, r.gaming_day, r.contributions, r.amount, t.contributions, t.to_reset
        FROM badbeat_dailyreset r LEFT JOIN badbeat_gamingdaycontributions t USING (jackpot_id, gaming_day)
        WHERE (r.contributions, r.amount) IS DISTINCT FROM (coalesce(t.contributions, 0), coalesce(t.to_reset, 0))"""),
]


def verify(url: str, env: dict, growth: dict) -> list[str]:
    """Every running total against a re-derivation from its records; each jackpot's balance and reset reserve against
    apps.badbeat.selectors.ledger. One line per difference (the first ten of each check)."""
    problems = []
    with connect(url, autocommit=True) as conn:
        for what, needs, sql in CHECKS:
            table, _, column = needs.partition(".")
            if not conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()[0] or (
                    column and not conn.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = %s "
                                                "AND column_name = %s", (table, column)).fetchone()[0]):
                log(f"check skipped (no {needs} yet): {what}")
                continue
            rows = conn.execute(sql).fetchall()
            problems += [f"{what}: {row}" for row in rows[:10]]
            if len(rows) > 10:
                problems.append(f"{what}: ... {len(rows)} rows differ")
        if growth.get("clones"):
            rows = conn.execute("""
                SELECT g.day FROM generate_series(%s::date, %s::date, interval '1 day') AS g(day)
                JOIN casinos_casino c ON c.code = 'boardwalk'
                LEFT JOIN casinos_gamingday d ON d.casino_id = c.id AND d.gaming_day = g.day
                LEFT JOIN casinos_gamingdayclose x ON x.casino_id = c.id AND x.gaming_day = g.day
                WHERE d.closed_at IS NULL OR x.id IS NULL""", (growth["oldest_day"], growth["newest_day"])).fetchall()
            problems += [f"cloned gaming day {day} not closed" for (day,) in rows[:10]]
        for table in RESERVE_PER_ROUND:
            seq = conn.execute("SELECT pg_get_serial_sequence(%s, 'id')", (table,)).fetchone()[0]
            last, largest = conn.execute(f"SELECT (SELECT last_value FROM {seq}), (SELECT max(id) FROM {table})"
                                         ).fetchone()
            if largest is not None and last < largest:
                problems.append(f"sequence {seq} at {last}, below the largest id {largest} of {table}")
    out = subprocess.run([sys.executable, __file__, "--part", "ledger"], cwd=ROOT, env=env, capture_output=True,
                         text=True)
    if out.returncode:
        problems.append(f"ledger check failed to run:\n{out.stderr[-3000:]}")
    else:
        problems += json.loads(out.stdout.strip().splitlines()[-1])
    return problems


def part_ledger() -> list[str]:
    _django()
    from apps.badbeat.models import Jackpot
    from apps.badbeat.selectors import ledger

    problems = []
    for jackpot in Jackpot.objects.order_by("pk"):
        derived = ledger(jackpot=jackpot)
        if (derived.balance, derived.reset_reserve) != (jackpot.balance, jackpot.reset_reserve):
            problems.append(f"jackpot {jackpot.pk} ({jackpot.name}): kept balance {jackpot.balance}, reset reserve "
                            f"{jackpot.reset_reserve}; its records say {derived.balance}, {derived.reset_reserve}")
    return problems


# --- 3. the URLs of each role and their queries (in-process) ----------------------------------------------------------

def _django():
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


#: Short names of the URLs whose own name says too little; the others are named after their URL name.
ALIASES = {"floor:contributions": "ledger", "decks:board": "decks", "decks:distribution": "deck_distribution",
           "irregularities:list": "irregularities", "dealers:rotation": "dealer_rotation",
           "badbeat:display": "jackpot_display", "badbeat:rules": "jackpot_rules", "multicasino:status": "multicasino",
           "multicasino:posting": "multicasino_posting", "table-list": "tables", "table-detail": "table",
           "rake-record-list": "rake_records", "rake-record-detail": "rake_record", "round-detail": "round"}
SKIPPED_ROUTES = {"login", "logout", "api-root", "api-token", "api-token-logout", "api-token-logout-all", "schema",
                  "swagger-ui", "multicasino-inbox"}


def _routes():
    """(url name, route, callback, path parameters) of every URL pattern, the admin site's aside."""
    from django.urls import URLResolver, get_resolver

    def walk(resolver, prefix, namespace, params):
        for entry in resolver.url_patterns:
            found = params | set(entry.pattern.regex.groupindex)
            if isinstance(entry, URLResolver):
                if entry.app_name != "admin":
                    yield from walk(entry, prefix + str(entry.pattern),
                                    ":".join(filter(None, [namespace, entry.namespace])), found)
            else:
                yield ":".join(filter(None, [namespace, entry.name or ""])), prefix + str(entry.pattern), \
                    entry.callback, frozenset(found)

    return list(walk(get_resolver(), "/", "", frozenset()))


def _next_links(response) -> list[tuple[str, str]]:
    """(suffix, URL) of the next page of each keyset list in a response: the JSON's `next`, or each link of a page
    whose query parameter is a cursor (base64 of p=/r=/o=...) — on a first page every such link is a next one."""
    kind = response.get("Content-Type", "")
    if "json" in kind:
        try:
            data = json.loads(response.content)
        except ValueError:
            return []
        if isinstance(data, dict) and data.get("next"):
            parts = urlsplit(data["next"])
            return [("p2", parts.path + "?" + parts.query)]
        return []
    if "html" not in kind:
        return []
    found = {}
    for href in re.findall(r'href="([^"]+)"', response.content.decode(errors="replace")):
        href = html.unescape(href)
        parts = urlsplit(href)
        for param, values in parse_qs(parts.query).items():
            try:
                decoded = b64decode(values[0] + "=" * (-len(values[0]) % 4)).decode()
            except (ValueError, UnicodeDecodeError):
                continue
            if re.match(r"^(p|r|o)=", decoded) and param not in found:
                found[param] = href
    return [("p2" if param == "cursor" else f"{param}_p2", href) for param, href in found.items()]


def part_urls(clients: int) -> dict:
    """The URLs each role may open, with the SQL queries of one request; sessions and tokens for the HTTP pass; the
    tables a round may be posted to."""
    _django()
    from datetime import timedelta

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from knox.models import AuthToken

    from apps.badbeat.models import Claim, Jackpot
    from apps.casinos.models import Casino, User
    from apps.casinos.selectors import current_gaming_day
    from apps.core.policy import policy_of
    from apps.feed.models import ImportJob
    from apps.rake.models import RakeRecord
    from apps.rounds.models import RoundOfPlay, RoundSource
    from apps.tables.models import Game, PokerTable

    casino = Casino.objects.get(code="boardwalk")
    today = current_gaming_day(casino=casino)
    yesterday, pastday = today - timedelta(days=1), today - timedelta(days=2)
    table = PokerTable.objects.get(casino=casino, number=1)
    # the newest round the demo dealt at table 1 (not one this benchmark posted on an earlier --keep-db run)
    newest_round = (RoundOfPlay.objects.filter(table=table).exclude(source=RoundSource.JSON)
                    .order_by("-started_at", "-id").first())
    claim = Claim.objects.filter(jackpot__casino=casino).order_by("-pk").first()
    jackpot = Jackpot.objects.filter(casino=casino).order_by("pk").first()
    rake = RakeRecord.objects.filter(table=table).order_by("-id").first()
    job = ImportJob.objects.order_by("-pk").first()
    fill = {"pk": {"floor:table": table.pk, "floor:table-sign": table.pk, "floor:round": newest_round.pk,
                   "round-detail": newest_round.pk, "table-detail": table.pk, "badbeat:claim": claim and claim.pk,
                   "rake-record-detail": rake and rake.pk, "display-adjustments": jackpot.pk,
                   "rule-changes": jackpot.pk, "phh-import": job and job.pk},
            "table_id": table.pk, "day": yesterday.isoformat()}
    #: extra variants: a full past gaming day (cloned history; empty at --rounds 0), and the API's filters
    variants = {"rake:revenue": [("pastday", f"?day={pastday}")], "rake:revenue-csv": [("pastday", f"?day={pastday}")],
                "counts:counts": [("pastday", f"?day={pastday}")],
                "irregularities:list": [("pastday", f"?day={pastday}")],
                "rounds": [("table", f"?table={table.pk}"), ("pastday", f"?gaming_day={pastday}")],
                "rake-record-list": [("table", f"?table={table.pk}"), ("pastday", f"?gaming_day={pastday}")]}
    path_variants = {"counts:mgr": pastday, "counts:mgr-pdf": pastday, "counts:mgr-csv": pastday,
                     "counts:reconciliation-day": pastday}

    candidates = []  # (name, path)
    skipped = []
    for name, route, callback, params in _routes():
        if name in SKIPPED_ROUTES or name.startswith("admin:"):
            continue
        policy = policy_of(callback)
        if policy is None or "GET" not in policy.methods or "format" in params:  # not the router's .json twins
            continue
        short = ALIASES.get(name, name.split(":")[-1].removesuffix("-list").replace("-", "_"))
        prefix = "api" if route.startswith("/api/") else "page"
        values = {}
        for param in params:
            value = fill.get(param)
            if isinstance(value, dict):
                value = value.get(name)
            if value is None:
                break
            values[param] = value
        else:
            path = _reverse(name, values)
            if any(f"{prefix}_{short}" == known for known, _ in candidates):
                short = name.replace(":", "_").replace("-", "_")  # two URLs of one short name: the full one
            candidates.append((f"{prefix}_{short}", path))
            for suffix, query in variants.get(name, []):
                candidates.append((f"{prefix}_{short}_{suffix}", path + query))
            if name in path_variants:
                candidates.append((f"{prefix}_{short}_pastday", _reverse(name, {**values,
                                                                                "day": path_variants[name].isoformat()})))
            continue
        skipped.append({"name": f"{prefix}_{short}", "route": route, "why": "no value for its path"})

    out = {"entries": [], "skipped": skipped, "sessions": {}, "tokens": {}}
    for username, role in ROLES.items():
        user = User.objects.get(username=username)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        _, token = AuthToken.objects.create(user=user, expiry=timedelta(hours=3))
        out["sessions"][role] = client.cookies["sessionid"].value
        out["tokens"][role] = token
        queue = list(candidates)
        while queue:
            name, path = queue.pop(0)
            headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if path.startswith("/api/") else {}
            started = time.perf_counter()
            response = client.get(path, **headers)  # warm: the first request of a URL loads its templates
            body = b"".join(response.streaming_content) if response.streaming else response.content
            first_ms = (time.perf_counter() - started) * 1000
            if response.status_code != 200:
                skipped.append({"name": name, "role": role, "path": path, "why": f"status {response.status_code}"})
                continue
            with CaptureQueriesContext(connection) as queries:  # a streamed body's queries run as it is read
                response = client.get(path, **headers)
                body = b"".join(response.streaming_content) if response.streaming else response.content
            # the same statement run again and again with other values: an N+1 candidate
            shapes: dict[str, int] = {}
            for query in queries.captured_queries:
                shape = re.sub(r"'[^']*'|\b\d+\b", "?", query["sql"])
                shapes[shape] = shapes.get(shape, 0) + 1
            shape, repeats = max(shapes.items(), key=lambda kv: kv[1], default=("", 0))
            table = re.search(r'FROM "(\w+)"', shape)
            out["entries"].append({"name": name, "role": role, "path": path, "queries": len(queries),
                                   "repeated": f"{repeats}x {table.group(1) if table else shape[:40]}"
                                   if repeats >= 3 else "",
                                   "first_ms": round(first_ms, 1), "bytes": len(body),
                                   "api": path.startswith("/api/")})
            if not name.endswith("p2"):
                queue[0:0] = [(f"{name}_{suffix}", link) for suffix, link in _next_links(response)]
    # a round each client may post: the open single-game hold 'em tables that take one
    poster = User.objects.get(username=POSTER)
    tokens = [AuthToken.objects.create(user=poster, expiry=timedelta(hours=3))[1] for _ in range(max(1, clients))]
    client = Client(HTTP_HOST="127.0.0.1")
    tables = []
    for candidate in PokerTable.objects.filter(casino=casino, is_open=True, game=Game.HOLDEM).order_by("number"):
        if candidate.rotation.exists() if hasattr(candidate, "rotation") else False:
            continue
        response = client.post("/api/rounds/", round_body(candidate.pk), content_type="application/json",
                               HTTP_AUTHORIZATION=f"Token {tokens[0]}", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
        if response.status_code == 201:
            tables.append(candidate.pk)
        else:
            skipped.append({"name": f"post_rounds table {candidate.number}", "why":
                            f"status {response.status_code}: {response.content[:300]!r}"})
    out.update(post_tokens=tokens, post_tables=tables)
    return out


def _reverse(name: str, values: dict) -> str:
    from django.urls import reverse

    return reverse(name, kwargs=values)


def round_body(table_id: int) -> dict:
    """A valid round of hold 'em (as tests/feed/test_apis.py posts): two players in, seat 1 wins a $100 pot."""
    return {"table": table_id, "board": "Ah Kd 5c 9s 3h", "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}


# --- 4. pages over HTTP ---------------------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def time_urls(base: str, urls: dict, requests_each: int) -> dict:
    import requests

    sessions = {}
    for role in ROLES.values():
        session = requests.Session()
        session.cookies.set("sessionid", urls["sessions"][role], domain="127.0.0.1")
        sessions[role] = session
    # each URL requested 8 times over the 4 gunicorn workers before any is timed, so that each worker has most
    # likely served it once (the kernel hands connections to the workers, not in turn): no template compiled while
    # timed
    for entry in urls["entries"]:
        headers = {"Authorization": f"Token {urls['tokens'][entry['role']]}"} if entry["api"] else {}
        for _ in range(8 if entry["first_ms"] < 5000 else 2):
            sessions[entry["role"]].get(base + entry["path"], headers=headers, allow_redirects=False, timeout=300)
    results = {}
    for entry in urls["entries"]:
        session, token = sessions[entry["role"]], urls["tokens"][entry["role"]]
        headers = {"Authorization": f"Token {token}"} if entry["api"] else {}
        # an export that takes seconds is timed fewer times (the run stays in minutes)
        count = requests_each if entry["first_ms"] < 5000 else max(3, min(requests_each, 5))
        timings, statuses = [], set()
        for n in range(2 + count):
            started = time.perf_counter()
            response = session.get(base + entry["path"], headers=headers, allow_redirects=False, timeout=300)
            elapsed = (time.perf_counter() - started) * 1000
            statuses.add(response.status_code)
            if n >= 2:
                timings.append(elapsed)
        results[(entry["name"], entry["role"])] = {
            "p50_ms": round(statistics.median(timings), 1), "p95_ms": round(percentile(timings, 0.95), 1),
            "queries": entry["queries"], "n": count, "statuses": sorted(statuses), "bytes": entry["bytes"],
            "repeated": entry["repeated"]}
    return results


# --- 5. rounds posted by concurrent clients ---------------------------------------------------------------------

#: The ceiling run's URL: the lightest authenticated API read (the jackpot's figures, 5 queries), requested by the
#: same clients as the posting runs, to show what the HTTP stack itself allows on this machine.
CEILING_PATH = "/api/jackpot/"


def post_client(base: str, token: str, table_id: int, start: float, warm_until: float, stop: float, queue,
                batch: int = 0) -> None:
    """One client posting rounds back to back: one a request to POST /api/rounds/ (batch 0), or `batch` rounds a
    request to POST /api/rounds/batch/; batch -1: GET CEILING_PATH instead (the ceiling run)."""
    import requests

    session = requests.Session()
    session.headers.update({"Authorization": f"Token {token}", "Content-Type": "application/json"})
    path = "/api/rounds/batch/" if batch > 0 else "/api/rounds/"
    body = json.dumps({"rounds": [round_body(table_id)] * batch} if batch > 0 else round_body(table_id))
    latencies, statuses = [], {}
    while time.time() < start:
        time.sleep(0.005)
    while (now := time.time()) < stop:
        started = time.perf_counter()
        try:
            status = (session.get(base + CEILING_PATH, timeout=60).status_code if batch < 0 else
                      session.post(base + path, data=body, timeout=60,
                                   headers={"Idempotency-Key": str(uuid.uuid4())}).status_code)
        except requests.RequestException:
            status = 0
        if now >= warm_until and time.time() <= stop:
            latencies.append((time.perf_counter() - started) * 1000)
            statuses[status] = statuses.get(status, 0) + 1
    queue.put({"latencies": latencies, "statuses": statuses})


def cpu_seconds(server: int, clients: set[int]) -> dict[str, float] | None:
    """CPU seconds used so far (user + system, from /proc; None where there is none) by each part of the machine:
    `app` gunicorn (the arbiter `server` and its workers), `database` every PostgreSQL process, `clients` the
    posting clients, `other` the rest (Redis, this bench, the system); `busy` and `cores` the machine's own count
    (/proc/stat), so that a run says what each request costs and whether the machine had a core to spare. A process
    counts the time of its children that ended (a backend whose connection a worker closed after CONN_MAX_AGE)."""
    try:
        with open("/proc/stat") as f:
            ticks = [int(n) for n in f.readline().split()[1:]]
    except OSError:
        return None
    hz = os.sysconf("SC_CLK_TCK")
    used = {"app": 0.0, "database": 0.0, "clients": 0.0, "other": 0.0,
            "busy": (sum(ticks) - ticks[3] - (ticks[4] if len(ticks) > 4 else 0)) / hz, "cores": os.cpu_count() or 1}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                head, _, tail = f.read().rpartition(")")
        except OSError:
            continue
        # from the state on: ppid is fields[1]; utime, stime, and the children's that ended, fields[11] to [14]: a
        # PostgreSQL backend or a worker that ends inside the window leaves its time to its parent's
        fields = tail.split()
        pid, ppid, seconds = int(name), int(fields[1]), sum(int(n) for n in fields[11:15]) / hz
        part = ("app" if server in (pid, ppid) else "clients" if pid in clients else
                "database" if head.endswith("(postgres") else "other")
        used[part] += seconds
    return used


def cpu_per_request(before: dict | None, after: dict | None, requests: int, seconds: float) -> dict:
    """Milliseconds of CPU a request took from each part of the machine over a timed window (cpu_seconds at its
    start and end), their sum, the cores kept busy, and the requests a second the machine's cores would allow at that
    cost if they did nothing else (`bound_per_s`). Empty without /proc or without a request."""
    if not before or not after or not requests:
        return {}
    out = {part: round((after[part] - before[part]) * 1000 / requests, 2)
           for part in ("app", "database", "clients", "other")}
    out["total"] = round(sum(out.values()), 2)
    out["busy_cores"] = round((after["busy"] - before["busy"]) / seconds, 2)
    out["cores"] = after["cores"]
    out["bound_per_s"] = round(out["cores"] * 1000 / out["total"], 1) if out["total"] else 0.0
    return out


def cpu_line(cpu: dict) -> str:
    """cpu_per_request's figures, for the table: the indented line under a run, or nothing."""
    if not cpu:
        return ""
    return (f"\n    CPU a request {cpu['total']} ms (app {cpu['app']}, PostgreSQL {cpu['database']}, clients "
            f"{cpu['clients']}, other {cpu['other']}); {cpu['busy_cores']} of {cpu['cores']} cores busy; "
            f"the cores allow at most {cpu['bound_per_s']} requests/s at that cost")


def post_rounds(base: str, urls: dict, clients: int, seconds: float, *, server: int, batch: int = 0) -> dict:
    """`clients` processes posting (post_client) for `seconds` after 2 s of warm-up, against the gunicorn whose
    arbiter is `server`: rates, latencies, answers and the CPU a request took (cpu_per_request)."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    start = time.time() + 1
    warm_until, stop = start + 2, start + 2 + seconds
    tables = urls["post_tables"]
    if not tables:
        return {"rps": 0.0, "p50_ms": 0.0, "p99_ms": 0.0, "errors": 0, "note": "no table took a round"}
    processes = [context.Process(target=post_client, args=(base, urls["post_tokens"][i % len(urls["post_tokens"])],
                                                           tables[i % len(tables)], start, warm_until, stop, queue,
                                                           batch))
                 for i in range(clients)]
    for process in processes:
        process.start()
    pids = {process.pid for process in processes}
    time.sleep(max(0.0, warm_until - time.time()))
    cpu_before = cpu_seconds(server, pids)
    time.sleep(max(0.0, stop - time.time()))
    cpu_after = cpu_seconds(server, pids)
    results = [queue.get(timeout=seconds + 180) for _ in processes]
    for process in processes:
        process.join()
    latencies = [ms for r in results for ms in r["latencies"]]
    statuses: dict[int, int] = {}
    for r in results:
        for status, n in r["statuses"].items():
            statuses[status] = statuses.get(status, 0) + n
    created = statuses.get(200 if batch < 0 else 201, 0)
    return {"rps": round(created * max(1, batch) / seconds, 1), "requests_per_s": round(created / seconds, 1),
            "p50_ms": round(statistics.median(latencies), 1) if latencies else 0.0,
            "p99_ms": round(percentile(latencies, 0.99), 1) if latencies else 0.0,
            "errors": sum(n for s, n in statuses.items() if s != (200 if batch < 0 else 201)),
            "server_errors": sum(n for s, n in statuses.items() if s >= 500 or s == 0),
            "statuses": {str(s): n for s, n in sorted(statuses.items())}, "requests": len(latencies),
            "tables": tables, "cpu_ms": cpu_per_request(cpu_before, cpu_after, len(latencies), seconds)}


# --- the conductor --------------------------------------------------------------------------------------------------

def pdf_subsetter() -> str:
    """What subsets the fonts of weasyprint's PDFs here: HarfBuzz's library when installed (`make pdf-fonts`, the
    Dockerfile), else fontTools, which makes every PDF export several times slower."""
    try:
        from weasyprint.text.ffi import harfbuzz_subset
    except Exception as exc:  # noqa: BLE001 - Pango missing: the PDFs fail, and the table says so
        return f"weasyprint cannot load ({type(exc).__name__})"
    return "HarfBuzz" if harfbuzz_subset else "fontTools (no libharfbuzz-subset0: make pdf-fonts)"


def start_gunicorn(env: dict, port: int, log_path: Path) -> subprocess.Popen:
    import requests

    with log_path.open("ab") as sink:  # weasyprint's font subsetting chatters on stderr
        process = subprocess.Popen([str(ROOT / ".venv" / "bin" / "gunicorn"), "pokerroom.wsgi", "-b",
                                    f"127.0.0.1:{port}", "-w", "4", "--timeout", "300", "--log-level", "warning",
                                    "--error-logfile", str(log_path)], cwd=ROOT, env=env, stdout=sink, stderr=sink)
    for _ in range(150):
        try:
            if requests.get(f"http://127.0.0.1:{port}/accounts/login/", timeout=2).status_code == 200:
                return process
        except requests.RequestException:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.terminate()
    raise SystemExit(f"gunicorn did not start (log: {log_path})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=0, help="rounds of play in all (0: the demo's only)")
    parser.add_argument("--keep-db", action="store_true", help="reuse the database if grown to --rounds already")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warm-seconds", type=float, default=30,
                        help=f"untimed GET {CEILING_PATH} from the clients before the first timed post (0: none)")
    parser.add_argument("--batch", type=int, default=20,
                        help="rounds a request in the second posting run, to POST /api/rounds/batch/ (0: none)")
    parser.add_argument("--requests", type=int, default=20, help="timed requests a URL (after 2 warm-up ones)")
    parser.add_argument("--post-runs", default="",
                        help="more posting runs after the two, as CLIENTS:BATCH,... (BATCH 0: one round a request to "
                             "POST /api/rounds/), e.g. 1:20,2:10,4:5")
    parser.add_argument("--ceiling-runs", default="1,8",
                        help=f"CLIENTS,...: GET {CEILING_PATH} from that many clients for --seconds each, after the "
                             "posting runs: what the HTTP stack allows a request at all on this machine ('' for none)")
    parser.add_argument("--skip-pages", action="store_true", help="post only: time no page (the table is empty)")
    parser.add_argument("--port", type=int, default=8124)
    parser.add_argument("--day-rounds", type=int, default=13500, help="rounds of each past gaming day (about)")
    parser.add_argument("--chunk-rounds", type=int, default=100000, help="rounds cloned a transaction (about)")
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"))
    parser.add_argument("--part", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part:
        kind = args.part[0]
        result = part_ledger() if kind == "ledger" else part_urls(int(args.part[1]))
        print(json.dumps(result, default=str))
        return

    url = args.database_url
    workdir = Path(tempfile.mkdtemp(prefix="history_scale_"))
    args.static_root = str(workdir / "static")
    env = app_env(url, args)
    left = marker(url) if args.keep_db else None
    growth = {}
    if left and left.get("rounds") == args.rounds:
        log(f"--keep-db: {url} was grown to {args.rounds:,} rounds on {left.get('grown_at')}; no growth")
        manage(env, "migrate", "--noinput", "-v0")
        growth = left.get("growth", {})
        grown_s = None
        # the rounds earlier runs posted since the growth's ANALYZE: fresh statistics, as autovacuum keeps them where
        # it runs (a PostgreSQL started with autovacuum off, as this machine's, would otherwise plan the lists for
        # the room as grown: at the demo size, GET /api/rounds/ sorted 119,361 rounds its statistics put at 84)
        started = time.perf_counter()
        with connect(url, autocommit=True) as conn:
            conn.execute("ANALYZE")
        log(f"--keep-db: ANALYZE in {time.perf_counter() - started:.1f} s")
    else:
        fresh_database(url, args, env)
        started = time.perf_counter()
        growth = Growth(url, args.rounds, args.day_rounds, args.chunk_rounds).run()
        grown_s = time.perf_counter() - started
        if growth.get("clones"):
            log(f"grew the database to {args.rounds:,} rounds in {grown_s:.1f} s")
    started = time.perf_counter()
    problems = verify(url, env, growth)
    log(f"consistency checked in {time.perf_counter() - started:.1f} s: "
        f"{'no difference' if not problems else f'{len(problems)} difference(s)'}")
    if problems:
        for line in problems:
            print("INCONSISTENT:", line)
        raise SystemExit(1)
    name = url.rsplit("/", 1)[1]
    if grown_s is not None:
        with connect(admin_url(url), autocommit=True) as conn:
            note = json.dumps({"rounds": args.rounds, "grown_at": time.strftime("%Y-%m-%d %H:%M"), "growth": growth,
                               "seconds": round(grown_s, 1)})
            conn.execute(f'COMMENT ON DATABASE "{name}" IS ' + _literal(MARKER + " " + note))
    with connect(url, autocommit=True) as conn:
        counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("rounds_roundofplay", "rounds_roundplayer", "rake_rakerecord", "badbeat_contribution")}
        days = conn.execute("SELECT count(DISTINCT gaming_day) FROM rounds_roundofplay").fetchone()[0]
    log(f"database: {counts['rounds_roundofplay']:,} rounds, {counts['rounds_roundplayer']:,} seats, "
        f"{counts['rake_rakerecord']:,} rake records, {counts['badbeat_contribution']:,} contributions, {days} gaming days")

    manage(env, "collectstatic", "--noinput", "-v0")
    log("URLs and their queries (in-process) ...")
    runs = [tuple(int(n) for n in run.split(":")) for run in args.post_runs.split(",") if run.strip()]
    most_clients = max([args.clients, *(c for c, _ in runs)])
    out = subprocess.run([sys.executable, __file__, "--part", "urls", str(most_clients)], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    if out.returncode:
        sys.stderr.write(out.stderr[-5000:])
        raise SystemExit("the in-process pass failed")
    urls = json.loads(out.stdout.strip().splitlines()[-1])
    for entry in urls["skipped"]:
        log(f"  left out: {entry}")

    gunicorn_log = workdir / "gunicorn.log"
    gunicorn = start_gunicorn(env, args.port, gunicorn_log)
    base = f"http://127.0.0.1:{args.port}"
    load_before = os.getloadavg()[0]
    try:
        log(f"timing {len(urls['entries'])} URLs over HTTP ({args.requests} requests each) ...")
        timed = {} if args.skip_pages else time_urls(base, urls, args.requests)
        if args.warm_seconds > 0:
            # A worker collects its garbage every 20 requests and freezes what survives after its 100th and 1000th
            # (gunicorn.conf.py): until then each collection scans what the first requests loaded, some 2.5 ms a
            # request. A worker that has served a day is past that; so are these before any post is timed.
            log(f"warming the workers: {args.clients} clients GET {CEILING_PATH} for {args.warm_seconds:g} s "
                "(untimed) ...")
            post_rounds(base, urls, args.clients, args.warm_seconds, server=gunicorn.pid, batch=-1)
        log(f"posting rounds: {args.clients} clients for {args.seconds:g} s at tables {urls['post_tables']} ...")
        posted = post_rounds(base, urls, args.clients, args.seconds, server=gunicorn.pid)
        batched = None
        if args.batch:
            log(f"posting batches of {args.batch} rounds: {args.clients} clients for {args.seconds:g} s ...")
            batched = post_rounds(base, urls, args.clients, args.seconds, batch=args.batch, server=gunicorn.pid)
        more = []
        for clients, batch in runs:
            log(f"posting {batch or 1} round(s) a request: {clients} clients for {args.seconds:g} s ...")
            more.append({"clients": clients, "batch": batch,
                         **post_rounds(base, urls, clients, args.seconds, batch=batch, server=gunicorn.pid)})
        ceiling = []
        for clients in [int(n) for n in args.ceiling_runs.split(",") if n.strip()]:
            log(f"the ceiling: GET {CEILING_PATH}, {clients} clients for {args.seconds:g} s ...")
            ceiling.append({"clients": clients, **post_rounds(base, urls, clients, args.seconds, batch=-1,
                                                                 server=gunicorn.pid)})
    finally:
        gunicorn.terminate()
        gunicorn.wait(timeout=30)
    load_after = os.getloadavg()[0]
    tracebacks = gunicorn_log.read_text().count("Traceback") if gunicorn_log.exists() else 0

    # names: a URL both roles open carries the role's name
    roles_of: dict[str, set] = {}
    for name, role in timed:
        roles_of.setdefault(name, set()).add(role)
    pages, lines = {}, []
    for (name, role), figures in timed.items():
        key = f"{name}_{role}" if len(roles_of[name]) > 1 else name
        pages[key] = {"p50_ms": figures["p50_ms"], "p95_ms": figures["p95_ms"], "queries": figures["queries"]}
        odd = "" if figures["statuses"] == [200] else f"  statuses {figures['statuses']}"
        lines.append(f"{key:<46} {figures['p50_ms']:>9.1f} {figures['p95_ms']:>9.1f} {figures['queries']:>8} "
                     f"{figures['n']:>4} {figures['bytes']:>10,}  {figures['repeated']}{odd}")
    print(f"History: {counts['rounds_roundofplay']:,} rounds of play over {days} gaming days "
          f"({growth.get('copies_a_day', '-')} copies of the demo a day)"
          + (f"; grown in {grown_s:.1f} s" if grown_s and growth.get("clones") else "")
          + f"; load average {load_before:.1f} before timing, {load_after:.1f} after ({os.cpu_count()} CPUs)"
          + f"; PDF fonts subset by {pdf_subsetter()}")
    print(f"{'page or list':<46} {'p50 ms':>9} {'p95 ms':>9} {'queries':>8} {'n':>4} {'bytes':>10}  "
          "one statement run 3+ times (N+1?)")
    print("\n".join(lines))
    print(f"POST /api/rounds/ x {args.clients} clients, {args.seconds:g} s: {posted['rps']} rounds/s, "
          f"p50 {posted['p50_ms']} ms, p99 {posted['p99_ms']} ms, {posted['errors']} errors "
          f"({posted.get('server_errors', 0)} 5xx or no answer; answers {posted.get('statuses')})" + cpu_line(posted["cpu_ms"]))
    if batched:
        print(f"POST /api/rounds/batch/ ({args.batch} rounds a request) x {args.clients} clients, {args.seconds:g} s: "
              f"{batched['rps']} rounds/s ({batched['requests_per_s']} requests/s), p50 {batched['p50_ms']} ms, "
              f"p99 {batched['p99_ms']} ms a request, {batched['errors']} errors "
              f"({batched.get('server_errors', 0)} 5xx or no answer; answers {batched.get('statuses')})"
              + cpu_line(batched["cpu_ms"]))
    for run in more:
        print(f"POST {'/api/rounds/batch/' if run['batch'] else '/api/rounds/'} ({run['batch'] or 1} round(s) a request) "
              f"x {run['clients']} clients: {run['rps']} rounds/s ({run['requests_per_s']} requests/s), "
              f"p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms a request, {run['errors']} errors" + cpu_line(run["cpu_ms"]))
    for run in ceiling:
        print(f"ceiling: GET {CEILING_PATH} x {run['clients']} clients: {run['requests_per_s']} requests/s, "
              f"p50 {run['p50_ms']} ms, p99 {run['p99_ms']} ms, {run['errors']} errors" + cpu_line(run["cpu_ms"]))
    if tracebacks:
        print(f"gunicorn logged {tracebacks} traceback(s): {gunicorn_log}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"rounds": args.rounds, "pages": pages,
                      "post_rounds": {k: posted[k] for k in ("rps", "p50_ms", "p99_ms", "errors")},
                      "post_rounds_cpu_ms": posted["cpu_ms"],
                      **({"post_rounds_batch": {"batch": args.batch, **{k: batched[k] for k in (
                          "rps", "requests_per_s", "p50_ms", "p99_ms", "errors", "cpu_ms")}}} if batched else {}),
                      **({"post_runs": [{k: run[k] for k in ("clients", "batch", "rps", "requests_per_s", "p50_ms",
                                                              "p99_ms", "errors", "cpu_ms")} for run in more]} if more else {}),
                      **({"ceiling": [{k: run[k] for k in ("clients", "requests_per_s", "p50_ms", "p99_ms", "errors",
                                                           "cpu_ms")}
                                      for run in ceiling]} if ceiling else {})}))


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


if __name__ == "__main__":
    main()
