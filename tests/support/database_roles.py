"""The suite as production runs it: connected as an app role that owns nothing, the test databases created and migrated
by an owner role (README, "Database roles"; apps/core/database_roles.py).

The roles are the cluster's, so each suite names its own after its database (DATABASE_URL `.../pokerroom_h2` gives
`test_pokerroom_h2_owner` and `test_pokerroom_h2_app`): runs on other databases never touch them, and the two xdist
workers of one run share them. They are created once, under an advisory lock, by the login of DATABASE_URL (a
superuser, `postgres` with trust auth), with no password (local trust auth), and kept: creating them again is a
no-op."""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg import sql


@dataclass(frozen=True)
class SuiteRoles:
    owner: str  # LOGIN CREATEDB: creates, migrates, flushes and drops the test databases
    app: str    # LOGIN, no superuser, no CREATEDB, no CREATEROLE, owns nothing: every test runs as it


in_use: SuiteRoles | None = None  # set by tests/conftest.py when the suite runs as the app role


def roles_for(database_name: str) -> SuiteRoles:
    stem = "test_" + re.sub(r"[^a-z0-9_]", "_", database_name.lower())[:48]
    return SuiteRoles(owner=f"{stem}_owner", app=f"{stem}_app")


def admin_connection(settings_dict: dict, dbname: str = "postgres") -> psycopg.Connection:
    """A connection as the login of the settings (the superuser), to a maintenance database."""
    params = {"host": settings_dict.get("HOST") or None, "port": settings_dict.get("PORT") or None,
              "user": settings_dict.get("USER") or None, "password": settings_dict.get("PASSWORD") or None}
    return psycopg.connect(dbname=dbname, autocommit=True, **{k: v for k, v in params.items() if v is not None})


def ensure_roles(admin: psycopg.Connection, roles: SuiteRoles) -> None:
    """Create the two roles when missing; safe when several processes do it at once."""
    with admin.transaction():
        admin.execute("SELECT pg_advisory_xact_lock(hashtext('pokerroom test database roles'))")
        for role, createdb in ((roles.owner, sql.SQL("CREATEDB")), (roles.app, sql.SQL("NOCREATEDB"))):
            if admin.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone() is None:
                admin.execute(sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER {} NOCREATEROLE NOREPLICATION NOBYPASSRLS")
                              .format(sql.Identifier(role), createdb))


def url(settings_dict: dict, *, user: str, dbname: str) -> str:
    """A URL of `dbname` on the settings' server for `user` (no password: local trust auth), for a subprocess's
    DATABASE_URL: a unix socket's directory (HOST beginning with /, the embedded server's) as libpq's `?host=`."""
    host, port = settings_dict.get("HOST") or "", settings_dict.get("PORT") or ""
    if host.startswith("/"):
        return (f"postgresql://{quote(user)}@/{quote(dbname)}?host={quote(host, safe='/')}"
                + (f"&port={port}" if port else ""))
    return f"postgres://{quote(user)}@{host or '127.0.0.1'}{f':{port}' if port else ''}/{quote(dbname)}"


def hand_over_test_database(admin: psycopg.Connection, name: str, owner: str) -> None:
    """A test database left by an earlier run as another login is handed to the owner, so that the owner can clobber
    it as Django does at the start of a run."""
    row = admin.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s", [name]).fetchone()
    if row is not None and row[0] != owner:
        admin.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(sql.Identifier(name), sql.Identifier(owner)))


def log_in_as(role: str, alias: str = DEFAULT_DB_ALIAS) -> None:
    """From now on, every connection to `alias` (in any thread) logs in as `role`."""
    from django.conf import settings

    connection = connections[alias]
    connection.close()
    for settings_dict in (connection.settings_dict, settings.DATABASES[alias]):
        settings_dict["USER"], settings_dict["PASSWORD"] = role, ""


@contextmanager
def connected_as(role: str, alias: str = DEFAULT_DB_ALIAS) -> Iterator:
    """In this thread only, `connections[alias]` is a connection of its own that logs in as `role`; the thread's
    usual connection (and its transaction) is back afterwards, untouched."""
    usual = connections[alias]
    own = usual.__class__({**usual.settings_dict, "USER": role, "PASSWORD": ""}, alias)
    connections[alias] = own
    try:
        yield own
    finally:
        own.close()
        connections[alias] = usual
