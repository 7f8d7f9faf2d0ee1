"""Inserting many append-only rows at once: PostgreSQL's COPY through psycopg, with the ids taken from the table's
sequence first so that other rows can refer to them at once; Django's bulk_create on other databases (the demo's
SQLite). (django-pgbulk's copy leaves automatic primary keys out, so it cannot give rows their ids.)"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.db import connections, models, router

M = TypeVar("M", bound=models.Model)


def insert_rows(model: type[M], rows: Sequence[M]) -> Sequence[M]:
    """Insert unsaved `rows` of `model` in one statement and give each its id; returns the rows.

    Field values are prepared as Django saves them (defaults, auto_now_add, JSON); model signals are not sent (as
    with bulk_create). Use inside the transaction that writes them."""
    if not rows:
        return rows
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return model.objects.bulk_create(rows)
    from psycopg.types.json import Jsonb

    meta = model._meta
    fields = list(meta.concrete_fields)
    quote = connection.ops.quote_name
    # psycopg adapts Decimal, str, int, bool, dates and aware datetimes itself; JSON needs its wrapper and the
    # automatic times their pre_save (Django's get_db_prep_save for every value would triple the cost)
    attnames = [f.attname for f in fields]
    special = {i: f for i, f in enumerate(fields)
               if isinstance(f, models.JSONField) or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)}
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                       [meta.db_table, meta.pk.column, len(rows)])
        for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = pk
        columns = ", ".join(quote(f.column) for f in fields)
        with connection.wrap_database_errors, \
                cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                values = [getattr(row, name) for name in attnames]
                for i, field in special.items():
                    values[i] = (Jsonb(values[i]) if isinstance(field, models.JSONField)
                                 else field.pre_save(row, True))
                copy.write_row(values)
    for row in rows:
        row._state.adding, row._state.db = False, alias
    return rows


def copy_rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[tuple], *,
              with_ids: bool = False) -> list[int]:
    """Insert `rows` (tuples of values in the order of `columns`, the fields' attnames, e.g. "round_of_play_id")
    into `model`'s table in one COPY on PostgreSQL (bulk_create elsewhere), without building model instances. With
    `with_ids`, each row gets an id from the table's sequence; the ids are returned in order. Use inside the
    transaction that writes them."""
    if not rows:
        return []
    alias = router.db_for_write(model)
    connection = connections[alias]
    meta = model._meta
    fields = [meta.get_field(c[:-3] if c.endswith("_id") and c != "id" else c) for c in columns]
    if connection.vendor != "postgresql":
        made = model.objects.using(alias).bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows])
        return [m.pk for m in made]
    from psycopg.types.json import Jsonb

    json = [i for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
    quote = connection.ops.quote_name
    names = [f.column for f in fields]
    ids: list[int] = []
    with connection.cursor() as cursor:
        if with_ids:
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                           [meta.db_table, meta.pk.column, len(rows)])
            ids = [pk for (pk,) in cursor.fetchall()]
            names = [meta.pk.column, *names]
        with connection.wrap_database_errors, \
                cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({', '.join(map(quote, names))}) FROM STDIN") as copy:
            for index, row in enumerate(rows):
                if json:
                    row = list(row)
                    for i in json:
                        row[i] = Jsonb(row[i])
                copy.write_row((ids[index], *row) if with_ids else row)
    return ids
