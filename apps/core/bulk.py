"""Inserting many append-only rows at once: PostgreSQL's COPY through psycopg, with the ids taken from the table's
sequence first so that other rows can refer to them at once; Django's bulk_create on other databases (the demo's
SQLite). (django-pgbulk's copy leaves automatic primary keys out, so it cannot give rows their ids.)

A few values (a round of play posted by a table) go in one INSERT ... VALUES (... RETURNING id) instead: one round
trip to the server, where the sequence and COPY take two or three. But psycopg quotes an INSERT's values one by one in
Python, and COPY sends them in its own fast format: 30 seats of a batch of rounds (480 values) take 1.9 ms as an
INSERT and 0.7 ms by COPY, 2 seats 0.4 ms either way. So the choice is by the number of values."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

from django.db import connections, models, router

M = TypeVar("M", bound=models.Model)

#: Up to this many values (rows × columns), one multi-row INSERT; more, COPY (which streams any number of rows in one
#: statement). With ids wanted, COPY needs the sequence read first (another round trip): up to SMALL_WITH_IDS values,
#: one INSERT ... RETURNING id.
SMALL_VALUES = 64
SMALL_WITH_IDS = 160


def _small(rows: Sequence, columns: int, *, with_ids: bool) -> bool:
    return len(rows) * columns <= (SMALL_WITH_IDS if with_ids else SMALL_VALUES)


def _insert_statement(quote, table: str, columns: Sequence[str], rows: Sequence[Sequence],
                      pk_column: str | None = None) -> Statement:
    """One INSERT of `rows` (values in the order of `columns`), RETURNING `pk_column` when it is given."""
    placeholders = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (f"INSERT INTO {quote(table)} ({', '.join(map(quote, columns))}) VALUES "
           + ", ".join([placeholders] * len(rows)) + (f" RETURNING {quote(pk_column)}" if pk_column else ""))
    return Statement(sql, [value for row in rows for value in row])


def _joined(statements: Sequence[Statement]) -> Statement:
    """Statements as one, for one execute (PostgreSQL through psycopg's client-side binding runs them in order)."""
    return Statement(";\n".join(s.sql for s in statements), [p for s in statements for p in s.params])


def _insert_returning(cursor, quote, table: str, columns: Sequence[str], rows: Sequence[Sequence],
                      pk_column: str | None, before: Sequence[Statement] = ()) -> list[int]:
    """One INSERT of `rows` (values in the order of `columns`), after the writes `before` in the same round trip; the
    new ids, in order, when `pk_column` is given."""
    cursor.execute(*_joined([*before, _insert_statement(quote, table, columns, rows, pk_column)]))
    if not pk_column:
        return []
    while cursor.nextset():  # the INSERT's ids are the last result, after those of `before`
        pass
    return [pk for (pk,) in cursor.fetchall()]


def insert_rows(model: type[M], rows: Sequence[M], *, before: Sequence[Statement | None] = ()) -> Sequence[M]:
    """Insert unsaved `rows` of `model` and give each its id (one INSERT ... RETURNING for a few, the sequence and
    one COPY for many); returns the rows. The writes `before` (e.g. a running total the rows add to) run first, in
    the same round trip as a few rows (`run_together` otherwise).

    Field values are prepared as Django saves them (defaults, auto_now_add, JSON); model signals are not sent (as
    with bulk_create). Use inside the transaction that writes them."""
    before = [b for b in before if b is not None]
    alias = router.db_for_write(model)
    connection = connections[alias]
    if not rows or connection.vendor != "postgresql":
        run_together(model, before)
        return model.objects.bulk_create(rows) if rows else rows
    meta = model._meta
    fields = list(meta.concrete_fields)
    quote = connection.ops.quote_name
    attnames = [f.attname for f in fields]
    values_of = _values_of(fields)
    with connection.cursor() as cursor:
        if _small(rows, len(fields), with_ids=True):  # one statement: the ids come back from the INSERT
            keep = [i for i, name in enumerate(attnames) if name != meta.pk.attname]
            with connection.wrap_database_errors:
                ids = _insert_returning(cursor, quote, meta.db_table, [fields[i].column for i in keep],
                                        [[values[i] for i in keep] for values in map(values_of, rows)], meta.pk.column,
                                        before)
            for row, pk in zip(rows, ids, strict=True):
                row.pk = pk
        else:
            run_together(model, before)
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                           [meta.db_table, meta.pk.column, len(rows)])
            for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
                row.pk = pk
            columns = ", ".join(quote(f.column) for f in fields)
            with connection.wrap_database_errors, \
                    cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(values_of(row))
    for row in rows:
        row._state.adding, row._state.db = False, alias
    return rows


def _values_of(fields: Sequence[models.Field]):
    """row -> the values of `fields` as PostgreSQL takes them through psycopg: psycopg adapts Decimal, str, int, bool,
    dates and aware datetimes itself; JSON needs its wrapper and the automatic times their pre_save (Django's
    get_db_prep_save for every value would triple the cost)."""
    from psycopg.types.json import Jsonb

    attnames = [f.attname for f in fields]
    special = {i: f for i, f in enumerate(fields)
               if isinstance(f, models.JSONField) or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)}

    def values_of(row):
        values = [getattr(row, name) for name in attnames]
        for i, field in special.items():
            values[i] = Jsonb(values[i]) if isinstance(field, models.JSONField) else field.pre_save(row, True)
        return values

    return values_of


def insert_then(model: type[M], rows: Sequence[M], *, then: Sequence[Statement | None]) -> None:
    """Insert unsaved `rows` of `model` — records whose ids nobody needs at once: a few get none — and then run the
    writes `then` (e.g. the running totals the records add to): for a few values all in one round trip on
    PostgreSQL (`run_together` of one INSERT and them), else `insert_rows` and `run_together`. Field values as
    insert_rows prepares them; raises as they raise (in the caller's transaction, nothing is written)."""
    connection = connections[router.db_for_write(model)]
    meta = model._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    if not rows or connection.vendor != "postgresql" or not _small(rows, len(fields), with_ids=False):
        insert_rows(model, rows)
        run_together(model, then)
        return
    values_of = _values_of(fields)
    insert = _insert_statement(connection.ops.quote_name, meta.db_table, [f.column for f in fields],
                               [values_of(row) for row in rows])
    run_together(model, [insert, *then])


def _fields_of(model: type[models.Model], columns: Sequence[str]) -> list[models.Field]:
    """The fields of `model` named by attnames (e.g. "round_of_play_id")."""
    return [model._meta.get_field(c[:-3] if c.endswith("_id") and c != "id" else c) for c in columns]


def _adapted(fields: Sequence[models.Field], rows: Sequence[tuple]) -> Sequence[tuple]:
    """`rows` (values in the order of `fields`) as psycopg takes them: JSON wrapped (psycopg adapts the rest)."""
    from psycopg.types.json import Jsonb

    json = [i for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
    if not json:
        return rows
    return [tuple(Jsonb(v) if i in json else v for i, v in enumerate(row)) for row in rows]


class Rows(NamedTuple):
    """Rows to insert without building model instances: `model`, the columns (attnames, e.g. "round_of_play_id")
    and tuples of values in their order."""

    model: type[models.Model]
    columns: Sequence[str]
    rows: Sequence[tuple]


def insert_family(parents: Rows, *, key: Sequence[str], children: Rows, first: Rows | None = None) -> list[int]:
    """Insert `parents` with ids from their sequence, then `children` pointing at them, after the unrelated rows
    `first`; returns the parents' ids in their order.

    key: columns of `parents` (attnames) whose values are unique among them, e.g. ("round_of_play_id", "index").
    children.rows: each child's parent by its `key` values, then the values of `children.columns`; the child's
    foreign key to the parents' model (it has one) gets that parent's id. E.g. a pot's awards: (round, pot index,
    seat, amount).

    On PostgreSQL, with few values (as `copy_rows` chooses), in one round trip: the INSERT of `first`, then one
    statement, `WITH parent AS (INSERT ... RETURNING id, key), child AS (INSERT ... SELECT parent.id, ... FROM parent
    JOIN (VALUES ...) ON key) SELECT id, key FROM parent`; else `copy_rows` for each (COPY for many; bulk_create on
    other databases). Raises ValueError for a key not unique among the parents or a child whose parent is not among
    them (before any write), and as the INSERTs raise (in the caller's transaction, nothing is written then)."""
    positions = [list(parents.columns).index(name) for name in key]
    id_keys = [tuple(row[p] for p in positions) for row in parents.rows]
    known = set(id_keys)
    if len(known) != len(id_keys):
        raise ValueError(f"{parents.model.__name__}: {key} is not unique among the rows")
    if any(tuple(child[:len(key)]) not in known for child in children.rows):
        raise ValueError(f"{children.model.__name__}: a row's parent is not among the {parents.model.__name__} rows")
    foreign_key = next(f for f in children.model._meta.concrete_fields
                       if f.is_relation and f.related_model is parents.model)
    connection = connections[router.db_for_write(parents.model)]
    few = (connection.vendor == "postgresql"
           and _small(parents.rows, len(parents.columns), with_ids=True)
           and _small(children.rows, len(key) + len(children.columns), with_ids=False)
           and (first is None or _small(first.rows, len(first.columns), with_ids=False)))
    if not few or not parents.rows:
        if first is not None:
            copy_rows(*first)
        ids = copy_rows(*parents, with_ids=True)
        id_of = dict(zip(id_keys, ids, strict=True))
        copy_rows(children.model, (foreign_key.attname, *children.columns),
                  [(id_of[tuple(child[:len(key)])], *child[len(key):]) for child in children.rows])
        return ids
    quote = connection.ops.quote_name
    statements = []
    if first is not None and first.rows:
        fields = _fields_of(first.model, first.columns)
        statements.append(_insert_statement(quote, first.model._meta.db_table, [f.column for f in fields],
                                            _adapted(fields, first.rows)))
    meta = parents.model._meta
    fields = _fields_of(parents.model, parents.columns)
    returned = ", ".join(quote(c) for c in [meta.pk.column, *(fields[p].column for p in positions)])
    insert = _insert_statement(quote, meta.db_table, [f.column for f in fields], _adapted(fields, parents.rows))
    sql, params = f"WITH parent AS ({insert.sql} RETURNING {returned}) ", list(insert.params)
    if children.rows:
        child_fields = _fields_of(children.model, children.columns)
        casts = [fields[p].cast_db_type(connection) for p in positions] + \
            [f.cast_db_type(connection) for f in child_fields]
        names = [f"k{i}" for i in range(len(key))] + [f"c{i}" for i in range(len(child_fields))]
        row = "(" + ", ".join(["%s"] * len(names)) + ")"
        sql += (f", child AS (INSERT INTO {quote(children.model._meta.db_table)} "
                f"({', '.join(quote(c) for c in [foreign_key.column, *(f.column for f in child_fields)])}) "
                f"SELECT parent.{quote(meta.pk.column)}, "
                + ", ".join(f"v.c{i}::{casts[len(key) + i]}" for i in range(len(child_fields)))
                + f" FROM parent JOIN (VALUES {', '.join([row] * len(children.rows))}) AS v ({', '.join(names)}) ON "
                + " AND ".join(f"parent.{quote(fields[p].column)} = v.k{i}::{casts[i]}"
                               for i, p in enumerate(positions)) + ") ")
        params += [value for child in _adapted([*(fields[p] for p in positions), *child_fields], children.rows)
                   for value in child]
    statements.append(Statement(sql + f"SELECT {returned} FROM parent", params))
    with connection.cursor() as cursor, connection.wrap_database_errors:
        cursor.execute(*_joined(statements))
        while cursor.nextset():  # the parents' ids and keys are the last result
            pass
        id_of = {tuple(found[1:]): found[0] for found in cursor.fetchall()}
    return [id_of[k] for k in id_keys]


def copy_rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple], *,
              with_ids: bool = False) -> list[int]:
    """Insert `rows` (tuples of values in the order of `columns`, the fields' attnames, e.g. "round_of_play_id")
    into `model`'s table in one statement on PostgreSQL (an INSERT for a few, COPY for many; bulk_create elsewhere),
    without building model instances. With `with_ids`, each row gets an id from the table's sequence; the ids are
    returned in order. Use inside the
    transaction that writes them."""
    if not rows:
        return []
    alias = router.db_for_write(model)
    connection = connections[alias]
    meta = model._meta
    fields = _fields_of(model, columns)
    if connection.vendor != "postgresql":
        made = model.objects.using(alias).bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows])
        return [m.pk for m in made]
    quote = connection.ops.quote_name
    names = [f.column for f in fields]
    ids: list[int] = []
    rows = _adapted(fields, rows)
    with connection.cursor() as cursor:
        if _small(rows, len(names), with_ids=with_ids):  # one statement: the ids come back from the INSERT
            with connection.wrap_database_errors:
                return _insert_returning(cursor, quote, meta.db_table, names, rows,
                                         meta.pk.column if with_ids else None)
        if with_ids:
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                           [meta.db_table, meta.pk.column, len(rows)])
            ids = [pk for (pk,) in cursor.fetchall()]
            names = [meta.pk.column, *names]
        with connection.wrap_database_errors, \
                cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({', '.join(map(quote, names))}) FROM STDIN") as copy:
            for index, row in enumerate(rows):
                copy.write_row((ids[index], *row) if with_ids else row)
    return ids


def save_fields(instance: models.Model, fields: Sequence[str]) -> None:
    """`instance.save(update_fields=fields)` in one UPDATE by its primary key whose SQL the ORM does not build (0.3 ms
    less on each round of play, which saves a jackpot and its Idempotency-Key this way): `run_together` of
    `update_statement`. Raises DatabaseError as save() does when the row breaks a constraint."""
    run_together(type(instance), [update_statement(instance, fields)])


def update_statement(instance: models.Model, fields: Sequence[str]) -> Statement:
    """The UPDATE of `instance`'s `fields` (field names) by its primary key, for `run_together`. An auto_now field
    among them is set to now on the instance, as save() sets it; values are adapted as save() adapts them (Decimal
    dollars, JSON). No signals are sent (as with QuerySet.update)."""
    meta = instance._meta
    connection = connections[router.db_for_write(type(instance), instance=instance)]
    quote = connection.ops.quote_name
    chosen = [meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    sql = (f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in chosen)} "
           f"WHERE {quote(meta.pk.column)} = %s")
    return Statement(sql, [*values, meta.pk.get_db_prep_value(instance.pk, connection)])


class Statement(NamedTuple):
    """A write that returns nothing: SQL with %s placeholders and its parameters."""

    sql: str
    params: list


def run_together(model: type[models.Model], statements: Sequence[Statement | None]) -> None:
    """Run writes that return nothing, in their order, on `model`'s database: in one round trip on PostgreSQL (one
    execute of the statements joined by ';', which psycopg binds on the client and sends as one query), one by one
    elsewhere (SQLite runs one statement an execute). None is skipped. The row locks they take are taken in their
    order; an error in any raises as it would alone (and, in the caller's transaction, writes nothing)."""
    statements = [s for s in statements if s is not None]
    if not statements:
        return
    connection = connections[router.db_for_write(model)]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(statements) > 1:
            cursor.execute(*_joined(statements))
        else:
            for statement in statements:
                cursor.execute(statement.sql, statement.params)


def total_differences(kept: dict, derived: dict, describe) -> list[str]:
    """Running totals (key -> kept values) against their re-derivation from the records (key -> values): for each
    key where they differ, in key order, `describe(key, kept or None, derived or None)`; empty when they agree."""
    return [describe(key, kept.get(key), derived.get(key)) for key in sorted(set(kept) | set(derived))
            if kept.get(key) != derived.get(key)]


def add_to_totals(model: type[models.Model], *, key: Sequence[str], rows: Sequence[dict]) -> None:
    """Add amounts to running totals (one row of `model` per `key`, e.g. ("table_id", "gaming_day")) in one
    statement: `totals_statement`, run."""
    run_together(model, [totals_statement(model, key=key, rows=rows)])


def totals_statement(model: type[models.Model], *, key: Sequence[str], rows: Sequence[dict]) -> Statement | None:
    """The statement that adds amounts to running totals (one row of `model` per `key`, e.g. ("table_id",
    "gaming_day")): INSERT ... ON CONFLICT (key) DO UPDATE SET total = total + EXCLUDED.total, on PostgreSQL and
    SQLite; None without rows. For `run_together` (or `add_to_totals`).

    rows: dicts of the key's attnames and the amounts to add (Decimal dollars or counts); rows of the same key are
    added up first, and the keys are written in sorted order, so that concurrent writers lock the total rows in the
    same order (no deadlock). The row lock the upsert takes is held to the commit: call inside the transaction that
    writes the records the totals summarise. The key must be a unique constraint of `model`."""
    if not rows:
        return None
    amounts = [name for name in rows[0] if name not in key]
    merged: dict[tuple, list] = {}
    for row in rows:
        k = tuple(row[name] for name in key)
        total = merged.setdefault(k, [0] * len(amounts))
        for i, name in enumerate(amounts):
            total[i] += row[name]
    meta = model._meta
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    column = {f.attname: f.column for f in meta.concrete_fields}
    table = quote(meta.db_table)
    names = [*key, *amounts]
    values = ", ".join(["(" + ", ".join(["%s"] * len(names)) + ")"] * len(merged))
    updates = ", ".join(f"{quote(column[n])} = {table}.{quote(column[n])} + EXCLUDED.{quote(column[n])}"
                        for n in amounts)
    sql = (f"INSERT INTO {table} ({', '.join(quote(column[n]) for n in names)}) VALUES {values} "
           f"ON CONFLICT ({', '.join(quote(column[n]) for n in key)}) DO UPDATE SET {updates}")
    return Statement(sql, [value for k in sorted(merged) for value in (*k, *merged[k])])
