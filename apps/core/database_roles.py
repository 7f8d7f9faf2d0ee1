"""The database refuses tampering: the role the app connects as owns nothing and holds only the privileges it needs.

Two roles (README, "Database roles"): the owner owns the tables and runs `migrate`; the app role (DATABASE_URL's
user, named by the DATABASE_APP_ROLE setting) is no superuser and owns nothing. After every `migrate` the owner gives
the app role exactly this, in one transaction, and then checks what PostgreSQL says the role can do:

- USAGE on the schema, and no CREATE on it (nor on the database);
- SELECT, INSERT on every append-only table: each model whose `Meta.triggers` has a `pgtrigger.Protect` named
  "append_only" (rounds of play, rake, contributions, payouts, counts and forms, the pool's entries, ...) and the
  pghistory event tables (the audit trail);
- SELECT on `django_migrations` and on views;
- SELECT, INSERT, UPDATE, DELETE on every other table (state kept beside the records: jackpots, claims, decks, ...);
- USAGE, SELECT on the sequences (`apps.core.writer` takes ids with nextval() before it inserts); never setval();
- no TRUNCATE, REFERENCES or TRIGGER anywhere.

So PostgreSQL itself refuses the app's UPDATE, DELETE and TRUNCATE of a money record, whatever the session sets
(`SET LOCAL pgtrigger.ignore=...` only silences a trigger; `session_replication_role` is the superuser's), and the
append-only trigger stays as the second line for the owner. The append-only rule is the project's (design.md,
"Money"); for the jackpot's records it serves N.J.A.C. 13:69F-14.19(k)-official-record.

Default privileges give tables created later SELECT, INSERT only (the least), until the pass after the migration that
created them; that pass is the source of truth. Nothing happens without DATABASE_APP_ROLE."""
from __future__ import annotations

import re
from typing import Any

import pgtrigger
from django.apps import AppConfig
from django.apps import apps as global_apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models.signals import post_migrate
from django.dispatch import receiver

APPEND_ONLY_TRIGGER = "append_only"
APPEND_ONLY = frozenset({"SELECT", "INSERT"})
MUTABLE = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE"})
READ_ONLY = frozenset({"SELECT"})
TABLE_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
READ_ONLY_TABLES = frozenset({"django_migrations"})  # migrate (the owner) writes it; the app only reads it
ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def is_append_only(model: type[models.Model]) -> bool:
    """A model's rows are never changed nor deleted: a pgtrigger.Protect named "append_only", or a pghistory
    event."""
    from pghistory.models import Event

    if issubclass(model, Event):
        return True
    return any(isinstance(trigger, pgtrigger.Protect) and trigger.name == APPEND_ONLY_TRIGGER
               for trigger in getattr(model._meta, "triggers", ()))


def append_only_tables() -> list[str]:
    """The tables of every append-only model (concrete, managed), sorted."""
    return sorted({m._meta.db_table for m in global_apps.get_models()
                   if m._meta.managed and not m._meta.proxy and is_append_only(m)})


def _role(role: str) -> str:
    if not ROLE_NAME.match(role):
        raise ImproperlyConfigured(f"DATABASE_APP_ROLE {role!r} is not a plain PostgreSQL role name.")
    return role


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _relations(cursor: CursorWrapper) -> dict[str, str]:
    """Tables and views of the current schema: {name: relkind}."""
    cursor.execute("SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                   "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY c.relname")
    return dict(cursor.fetchall())


def expected_privileges(relations: dict[str, str]) -> dict[str, frozenset[str]]:
    """What the app role may do on each table or view of the schema."""
    append_only = set(append_only_tables())
    expected = {}
    for name, kind in relations.items():
        if kind in ("v", "m") or name in READ_ONLY_TABLES:
            expected[name] = READ_ONLY
        elif name in append_only:
            expected[name] = APPEND_ONLY
        else:
            expected[name] = MUTABLE
    return expected


def grant_app_role(*, role: str, using: str = DEFAULT_DB_ALIAS) -> None:
    """Give `role` exactly the privileges above, as the connection's user (the owner), then check them.

    Raises ImproperlyConfigured when the role is missing or PostgreSQL says it can do more or less (a GRANT or REVOKE
    by a user that does not own a table only warns)."""
    name, role = _role(role), _ident(role)
    with transaction.atomic(using=using), connections[using].cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [name])
        if cursor.fetchone() is None:
            raise ImproperlyConfigured(f"The database role {name} does not exist (deploy/postgres/init-roles.sh).")
        cursor.execute("SELECT current_schema()")
        schema = _ident(cursor.fetchone()[0])
        relations = _relations(cursor)
        by_privileges: dict[frozenset[str], list[str]] = {}
        for table, privileges in expected_privileges(relations).items():
            by_privileges.setdefault(privileges, []).append(_ident(table))
        statements = [
            f"REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC",
            f"GRANT USAGE ON SCHEMA {schema} TO {role}",
            f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}",
            f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}",
            *(f"GRANT {', '.join(p for p in TABLE_PRIVILEGES if p in privileges)} ON TABLE {', '.join(names)} "
              f"TO {role}" for privileges, names in by_privileges.items()),
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT SELECT, INSERT ON TABLES TO {role}",
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {schema} GRANT USAGE, SELECT ON SEQUENCES TO {role}",
        ]
        if by_privileges.get(APPEND_ONLY):  # nobody gets them through PUBLIC either
            statements.append(f"REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON TABLE "
                              f"{', '.join(by_privileges[APPEND_ONLY])} FROM PUBLIC")
        for statement in statements:
            cursor.execute(statement)
        problems = privilege_problems(role=name, using=using)
        if problems:  # nothing of this pass is kept
            raise ImproperlyConfigured(f"The database role {name} can do more or less than it should (run migrate "
                                       "as the owner of the tables):\n  " + "\n  ".join(problems))


def privilege_problems(*, role: str, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """What PostgreSQL says `role` can do beyond (or short of) the privileges above; empty when all is right."""
    problems = []
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls FROM pg_roles "
                       "WHERE rolname = %s", [_role(role)])
        attributes = cursor.fetchone()
        if attributes is None:
            return [f"the role {role} does not exist"]
        for name, value in zip(("SUPERUSER", "CREATEDB", "CREATEROLE", "REPLICATION", "BYPASSRLS"), attributes,
                               strict=True):
            if value:
                problems.append(f"{role} has {name}")
        cursor.execute(
            "SELECT 'database ' || datname FROM pg_database WHERE datname = current_database() "
            "  AND pg_has_role(%(r)s, datdba, 'MEMBER') "
            "UNION ALL SELECT 'schema ' || nspname FROM pg_namespace "
            "  WHERE pg_has_role(%(r)s, nspowner, 'MEMBER') AND nspname NOT LIKE 'pg\\_temp\\_%%' "
            "  AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%%' "
            "UNION ALL SELECT 'relation ' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "  WHERE pg_has_role(%(r)s, c.relowner, 'MEMBER') AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') "
            "  AND n.nspname NOT LIKE 'pg\\_temp\\_%%' "
            "UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pg_has_role(%(r)s, proowner, 'MEMBER') "
            "  AND pronamespace <> 'pg_catalog'::regnamespace",
            {"r": role})
        problems += [f"{role} owns (or is a member of the owner of) {what}" for (what,) in cursor.fetchall()]
        cursor.execute("SELECT has_database_privilege(%(r)s, current_database(), 'CREATE'), "
                       "has_schema_privilege(%(r)s, current_schema(), 'CREATE'), "
                       "has_schema_privilege(%(r)s, current_schema(), 'USAGE'), "
                       "current_setting('server_version_num')::int", {"r": role})
        create_db, create_schema, usage, version = cursor.fetchone()
        if create_db:
            problems.append(f"{role} may create schemas in the database")
        if create_schema:
            problems.append(f"{role} may create objects in the schema")
        if not usage:
            problems.append(f"{role} may not use the schema")
        if version >= 150000:
            cursor.execute("SELECT has_parameter_privilege(%s, 'session_replication_role', 'SET')", [role])
            if cursor.fetchone()[0]:
                problems.append(f"{role} may SET session_replication_role")
        relations = _relations(cursor)
        checks = ", ".join(f"has_table_privilege(%(r)s, c.oid, '{p}')" for p in TABLE_PRIVILEGES)
        cursor.execute(
            f"SELECT c.relname, {checks}, has_any_column_privilege(%(r)s, c.oid, 'UPDATE') FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
            "AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY c.relname", {"r": role})
        expected = expected_privileges(relations)
        for name, *flags, column_update in cursor.fetchall():
            held = frozenset(p for p, has in zip(TABLE_PRIVILEGES, flags, strict=True) if has)
            if held != expected[name]:
                problems.append(f"{name}: {role} holds {', '.join(sorted(held)) or 'nothing'}; "
                                f"expected {', '.join(sorted(expected[name]))}")
            elif column_update and "UPDATE" not in expected[name]:
                problems.append(f"{name}: {role} may UPDATE some of its columns")
        cursor.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'S' AND (has_sequence_privilege(%(r)s, c.oid, 'UPDATE') "
            "OR NOT has_sequence_privilege(%(r)s, c.oid, 'USAGE')) ORDER BY c.relname", {"r": role})
        problems += [f"sequence {name}: {role} may setval() it or may not use it" for (name,) in cursor.fetchall()]
    return problems


@receiver(post_migrate, dispatch_uid="core.grant_app_role")
def grant_after_migrate(sender: AppConfig, *, using: str = DEFAULT_DB_ALIAS, **kwargs: Any) -> None:
    """post_migrate: grant the app role its privileges once per `migrate` (flush sends the signal too, with no
    plan, and changes no privilege), after the last app's handlers."""
    role = getattr(settings, "DATABASE_APP_ROLE", "")
    if not role or "plan" not in kwargs:
        return
    last = [config for config in global_apps.get_app_configs() if config.models_module is not None][-1]
    if sender.label == last.label:
        grant_app_role(role=role, using=using)
