"""The one writer of the money path: domain services say what to record, this module alone knows how.

A unit of work (a round of play, a batch of rounds, an import's batch) collects what it records in a `Writer`:

- `add(rows)`: append-only records, unsaved model instances (rounds of play, their seats and pots, rake records,
  contributions, ...). A record may point at another record of the same unit by its related object
  (`RakeRecord(round_of_play=round_)`): each gets its id when the writer flushes, and the pointers follow.
- `add_totals(Totals(...))`: amounts to add to running totals kept beside the records (a table's gaming day, an
  hour's rake, a jackpot's contributions of the day), one row per key, created at its first amount.
- `save(instance, fields)`: state kept beside the records and already row-locked by the caller (a jackpot's
  balance, under `select_for_update`), written by its primary key.

`flush()` writes all of it, and is the only code that knows the statements, COPY, the round trips and the order
of the locks. The lock order, written once here (`flush`), is: the rows the caller locked before (jackpots, read
`FOR UPDATE` in primary-key order), then the saved rows, in (model, primary key) order, then the running totals, in
(model, key) order — an upsert locks its row until the commit — then the new records, which take no lock another
writer waits for. Every writer of money follows it, so two never wait for each other in a circle.

What it costs: one round trip for the ids of the new records (one statement over every sequence concerned), then
one round trip for the rest (the statements joined into one query, which psycopg binds on the client); a model
with many values goes by COPY in a round trip of its own (psycopg quotes an INSERT's values one by one in Python;
COPY sends them in its own fast format). Values are prepared as Django saves them (defaults, `auto_now`, JSON);
model signals are not sent, as with `bulk_create`. Foreign keys are checked at the commit (Django's PostgreSQL
constraints are DEFERRABLE INITIALLY DEFERRED), so the order of the INSERTs is free; they go in the order of each
model's first `add`.

Errors: a broken constraint raises django.db.IntegrityError from `flush` (nothing is written in the caller's
transaction then); apps.core.exceptions tells which (`broken_constraint`, `unique_violation_on`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from threading import Lock
from typing import Any, Generic, TypeAlias, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

#: Up to this many values (rows x columns) of one model, an INSERT joined with the unit's other statements; more, a
#: COPY of its own (psycopg sends COPY's rows in its own format instead of quoting each value; where
#: the two cross is measured in bench/README.md, "The writer").
INSERT_MAX_VALUES = 160

AnyField: TypeAlias = "models.Field[Any, Any]"


@dataclass(frozen=True)
class Totals:
    """Amounts to add to a running total: `model`, its unique `key` (attnames, e.g. ("table_id", "gaming_day")),
    and `rows`, dicts of the key's values and the amounts to add (Decimal dollars or counts), every row with the same
    names. Rows of one key are added up before they are written."""

    model: type[models.Model]
    key: tuple[str, ...]
    rows: Sequence[dict[str, Any]]


@dataclass(frozen=True)
class Statement:
    """A write that returns nothing: SQL with %s placeholders and its parameters."""

    sql: str
    params: list[Any]


@dataclass
class Writer:
    """What a unit of work records, until `flush` writes it (see the module). Use inside the transaction that holds
    the locks the records rely on; a writer may be flushed again after more is added."""

    using: str = DEFAULT_DB_ALIAS
    _rows: dict[type[models.Model], list[models.Model]] = field(default_factory=dict)
    _totals: dict[tuple[type[models.Model], tuple[str, ...]], dict[tuple[Any, ...], dict[str, Any]]] = \
        field(default_factory=dict)
    _saves: dict[tuple[type[models.Model], Any], tuple[models.Model, set[str]]] = field(default_factory=dict)

    def add(self, rows: Iterable[models.Model]) -> None:
        """Records to insert (unsaved instances, append-only): each gets its id at the flush."""
        for row in rows:
            self._rows.setdefault(type(row), []).append(row)

    def add_totals(self, *totals: Totals) -> None:
        """Amounts to add to running totals (see Totals)."""
        for each in totals:
            merged = self._totals.setdefault((each.model, each.key), {})
            for row in each.rows:
                key = tuple(row[name] for name in each.key)
                kept = merged.get(key)
                if kept is None:
                    merged[key] = dict(row)
                    continue
                for name, value in row.items():
                    if name not in each.key:
                        kept[name] += value

    def save(self, instance: models.Model, fields: Sequence[str]) -> None:
        """Write `fields` of `instance` (a row the caller holds locked) by its primary key at the flush; an auto_now
        field among them is set to now then, as save() sets it."""
        kept = self._saves.setdefault((type(instance), instance.pk), (instance, set()))
        kept[1].update(fields)

    def flush(self) -> None:
        """Write what was added, in the lock order of the module's docstring: ids of the new records (one round trip),
        then the saves, the running totals and the records (one round trip, and one for each COPY). Afterwards the
        records have their ids. Raises IntegrityError (and writes nothing, in the caller's
        transaction) when a record or a total breaks a constraint."""
        connection = connections[self.using]
        rows, totals, saves = self._rows, self._totals, self._saves
        self._rows, self._totals, self._saves = {}, {}, {}
        self._take_ids(connection, rows)
        for model, model_rows in rows.items():
            point_at_related = _pointing_at_related(model)
            for row in model_rows:
                point_at_related(row)
        statements = [_update(instance, sorted(names), connection)
                      for _, (instance, names) in sorted(saves.items(), key=lambda item: _order(item[0]))]
        statements += [_upsert(model, key, merged, connection)
                       for (model, key), merged in sorted(totals.items(), key=lambda item: item[0][0]._meta.label)
                       if merged]
        copies = []
        for model, model_rows in rows.items():
            fields = list(model._meta.concrete_fields)
            if len(model_rows) * len(fields) <= INSERT_MAX_VALUES:
                statements.append(_insert(model, fields, model_rows, connection))
            else:
                copies.append((model, fields, model_rows))
        with connection.cursor() as cursor, connection.wrap_database_errors:
            if statements:
                cursor.execute(";\n".join(s.sql for s in statements), [p for s in statements for p in s.params])
            for model, fields, model_rows in copies:
                quote = connection.ops.quote_name
                values_of = _values_of(fields)
                with cursor.cursor.copy(f"COPY {quote(model._meta.db_table)} "
                                        f"({', '.join(quote(_column(f)) for f in fields)}) FROM STDIN") as copy:
                    for row in model_rows:
                        copy.write_row(values_of(row))

    def _take_ids(self, connection: BaseDatabaseWrapper, rows: dict[type[models.Model], list[models.Model]]) -> None:
        """Give every new record its id from its table's sequence: one statement for all of them."""
        wanted = [(model, len(model_rows)) for model, model_rows in rows.items() if model_rows]
        if not wanted:
            return
        parts: list[str] = []
        params: list[int | str] = []
        for index, (model, count) in enumerate(wanted):
            parts.append("SELECT %s, nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)")
            params += [index, model._meta.db_table, _column(model._meta.pk), count]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            ids: dict[int, list[int]] = {}
            for index, pk in cursor.fetchall():
                ids.setdefault(index, []).append(pk)
        for index, (model, _) in enumerate(wanted):
            for row, pk in zip(rows[model], sorted(ids[index]), strict=True):
                row.pk = pk


def _order(key: tuple[type[models.Model], Any]) -> tuple[str, Any]:
    model, pk = key
    return model._meta.label, pk


def _pointing_at_related(model: type[models.Model]) -> Callable[[models.Model], None]:
    """row -> None: set each foreign key's id of a `model` row from its related object when the row was given the
    object (`round_of_play=...`), which may have got its id only at this flush."""
    keys = [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]  # OneToOneField is one too

    def point_at_related(row: models.Model) -> None:
        for field_ in keys:
            if field_.is_cached(row):
                related = field_.get_cached_value(row)
                if related is not None:
                    setattr(row, field_.attname, related.pk)

    return point_at_related


def _column(field_: AnyField) -> str:
    """The column of a concrete field (Django leaves it None only for fields with no column)."""
    if field_.column is None:
        raise ValueError(f"{field_!r} has no column")
    return field_.column


def _values_of(fields: Sequence[AnyField]) -> Callable[[models.Model], list[Any]]:
    """row -> the values of `fields` as PostgreSQL takes them through psycopg: psycopg adapts Decimal, str, int, bool,
    dates and aware datetimes itself; JSON needs its wrapper and the automatic times their pre_save (Django's
    get_db_prep_save for every value would triple the cost)."""
    from psycopg.types.json import Jsonb

    attnames = [f.attname for f in fields]
    special = {i: f for i, f in enumerate(fields)
               if isinstance(f, models.JSONField) or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)}

    def values_of(row: models.Model) -> list[Any]:
        values = [getattr(row, name) for name in attnames]
        for i, field_ in special.items():
            values[i] = Jsonb(values[i]) if isinstance(field_, models.JSONField) else field_.pre_save(row, True)
        return values

    return values_of


def _insert(model: type[models.Model], fields: Sequence[AnyField], rows: Sequence[models.Model],
            connection: BaseDatabaseWrapper) -> Statement:
    quote = connection.ops.quote_name
    values_of = _values_of(fields)
    row_sql = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return Statement(f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(_column(f)) for f in fields)}) "
                     f"VALUES {', '.join([row_sql] * len(rows))}", [v for row in rows for v in values_of(row)])


def _update(instance: models.Model, names: Sequence[str], connection: BaseDatabaseWrapper) -> Statement:
    """The UPDATE of `instance`'s fields by its primary key; values adapted as save() adapts them."""
    meta = instance._meta
    quote = connection.ops.quote_name
    chosen = [_concrete(meta.get_field(name)) for name in names]
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    return Statement(f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(_column(f))} = %s' for f in chosen)} "
                     f"WHERE {quote(_column(meta.pk))} = %s", [*values, meta.pk.get_db_prep_value(instance.pk, connection)])


def _concrete(field_: object) -> AnyField:
    """A field that `get_field` found, when it is a concrete one (a column of the table)."""
    if not isinstance(field_, models.Field) or not field_.concrete:
        raise ValueError(f"{field_!r} is not a concrete field")
    return field_


def _upsert(model: type[models.Model], key: tuple[str, ...], merged: dict[tuple[Any, ...], dict[str, Any]],
            connection: BaseDatabaseWrapper) -> Statement:
    """INSERT ... ON CONFLICT (key) DO UPDATE SET total = total + EXCLUDED.total, the keys in sorted order (the row
    locks the upsert takes, held to the commit, are taken in that order)."""
    quote = connection.ops.quote_name
    column = {f.attname: _column(f) for f in model._meta.concrete_fields}
    table = quote(model._meta.db_table)
    first = next(iter(merged.values()))
    amounts = [name for name in first if name not in key]
    names = [*key, *amounts]
    values = ", ".join(["(" + ", ".join(["%s"] * len(names)) + ")"] * len(merged))
    updates = ", ".join(f"{quote(column[n])} = {table}.{quote(column[n])} + EXCLUDED.{quote(column[n])}"
                        for n in amounts)
    return Statement(f"INSERT INTO {table} ({', '.join(quote(column[n]) for n in names)}) VALUES {values} "
                     f"ON CONFLICT ({', '.join(quote(column[n]) for n in key)}) DO UPDATE SET {updates}",
                     [merged[k][n] for k in sorted(merged) for n in names])


def total_differences(kept: dict[Any, Any], derived: dict[Any, Any],
                      describe: Callable[[Any, Any, Any], str]) -> list[str]:
    """Running totals (key -> kept values) against their re-derivation from the records (key -> values): for each
    key where they differ, in key order, `describe(key, kept or None, derived or None)`; empty when they agree."""
    return [describe(key, kept.get(key), derived.get(key)) for key in sorted(set(kept) | set(derived))
            if kept.get(key) != derived.get(key)]




# --- kept reads ------------------------------------------------------------------------------------------------------
# The money path reads the same few rows for every round of play, only with other values: the API token with its
# user, the tables, their rake, the jackpots' lock. Building and compiling such a query costs the ORM more Python than
# the database takes to answer it (bench/README.md, "Issue 33"), so the writer keeps their SQL: the ORM builds a query
# once a shape, with stand-in values whose places among the parameters are kept; each later call runs that SQL with
# its own values and makes the model instances with Model.from_db, as the ORM does. A kept read that locks (FOR
# UPDATE) refuses to run outside a transaction, as Django's own guard does.

_YEAR_ONE = date(1, 1, 1)
_INT_BASE = -(10**15)  # no primary key, count or sequence value is this small

M = TypeVar("M", bound=models.Model)
Value: TypeAlias = int | str | date
Values: TypeAlias = "Value | Sequence[Value]"


class KeptRead(Generic[M]):
    """`build(*values, **shape)` -> a QuerySet of M, built by the ORM once a shape; calling the KeptRead with values
    runs its kept SQL and returns the model instances, a list.

    values: ints (compared with ids: primary and foreign keys), strs or dates, or sequences of them (for `__in`
    lookups; each length is a shape of its own, so keep them bounded). shape: keyword arguments that change the query's form (hashable, passed to `build` as they are).
    `build` must treat every value as opaque and may use `filter`, `order_by`, `annotate`, `select_for_update` and
    `select_related` of the foreign keys named in `related` (one level). Raises RuntimeError at the first call of a
    shape when a value does not reach the SQL as a parameter or the columns are not the ones expected, and
    TransactionManagementError when a locking read is called outside a transaction."""

    def __init__(self, build: Callable[..., QuerySet[M]], *, related: tuple[str, ...] = ()) -> None:
        self._build = build
        self._related = related
        self._kept: dict[tuple[Any, ...], _KeptSql[M]] = {}
        self._lock = Lock()

    def __call__(self, *values: Values, **shape: Any) -> list[M]:
        lengths = tuple(None if isinstance(v, int | str | date) else len(v) for v in values)
        key = (lengths, tuple(sorted(shape.items())))
        kept = self._kept.get(key)
        if kept is None:
            with self._lock:
                kept = self._kept[key] = self._compile(values, shape)
        return kept.run(values)

    def _compile(self, values: Sequence[Values], shape: dict[str, Any]) -> _KeptSql[M]:
        places: dict[tuple[type, Value], tuple[int, int | None]] = {}
        numbers = iter(range(1, 10**6))

        def stand_in(value: Value, where: tuple[int, int | None]) -> Value:
            if isinstance(value, bool | datetime) or not isinstance(value, int | str | date):
                raise TypeError(f"KeptRead: a value is an int, a str or a date, not {type(value).__name__}")
            n = next(numbers)
            made: Value = (_INT_BASE - n if isinstance(value, int) else f"\ufdd0kept-{n}\ufdd0"
                           if isinstance(value, str) else _YEAR_ONE + timedelta(days=n))
            places[(type(made), made)] = where
            return made

        stand_ins = [stand_in(value, (index, None)) if isinstance(value, int | str | date) else
                     [stand_in(item, (index, i)) for i, item in enumerate(value)]
                     for index, value in enumerate(values)]
        queryset = self._build(*stand_ins, **shape)
        try:
            sql, params = queryset.query.sql_with_params()
        except EmptyResultSet:  # e.g. `pk__in` an empty list: no query to run
            return _KeptSql(queryset, None, [], self._related)
        slots: list[tuple[bool, Any]] = [
            (True, places[(type(p), p)]) if isinstance(p, int | str | date) and not isinstance(p, bool)
            and (type(p), p) in places else (False, p) for p in params]
        if {where for kept, where in slots if kept} != set(places.values()):
            raise RuntimeError("KeptRead: a value did not reach the SQL as a parameter")
        return _KeptSql(queryset, sql, slots, self._related)


class _KeptSql(Generic[M]):
    """One shape's SQL, where each value goes, and how a row becomes a model instance."""

    def __init__(self, queryset: QuerySet[M], sql: str | None, slots: list[tuple[bool, Any]],
                 related: tuple[str, ...]) -> None:
        self.model = queryset.model
        self.using = queryset.db
        self.sql, self.slots = sql, slots
        self.locks = bool(queryset.query.select_for_update)
        connection = connections[self.using]
        own = list(self.model._meta.concrete_fields)
        annotations = list(queryset.query.annotation_select.items())
        self.parts: list[tuple[str | None, type[models.Model], list[str]]] = [
            (None, self.model, [f.attname for f in own])]
        columns = [_column(f) for f in own] + [name for name, _ in annotations]
        converters = [_field_converters(f, connection) for f in own]
        converters += [_expression_converters(expression, connection) for _, expression in annotations]
        self.annotations = [name for name, _ in annotations]
        for name in related:
            foreign = _concrete(self.model._meta.get_field(name))
            other = foreign.related_model
            if not isinstance(other, type) or not issubclass(other, models.Model):
                raise TypeError(f"KeptRead: {name} is not a foreign key")
            fields_ = list(other._meta.concrete_fields)
            self.parts.append((name, other, [f.attname for f in fields_]))
            columns += [_column(f) for f in fields_]
            converters += [_field_converters(f, connection) for f in fields_]
        self.columns = tuple(columns)
        self.converters = converters
        self.checked = False

    def run(self, values: Sequence[Values]) -> list[M]:
        connection = connections[self.using]
        if self.sql is None:
            return []
        if self.locks and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = [_value(values, where) if kept else where for kept, where in self.slots]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            if not self.checked:
                names = tuple(column[0] for column in cursor.description)
                if names != self.columns:
                    raise RuntimeError(f"KeptRead: the SQL's columns {names} are not {self.columns}")
                self.checked = True
            rows = cursor.fetchall()
        return [self._instance(row, connection) for row in rows]

    def _instance(self, row: Sequence[Any], connection: BaseDatabaseWrapper) -> M:
        values = list(row)
        for i, converters in enumerate(self.converters):
            for convert, expression in converters:
                values[i] = convert(values[i], expression, connection)
        _, model, attnames = self.parts[0]
        start = len(attnames)
        instance = model.from_db(self.using, attnames, values[:start])
        for name in self.annotations:
            setattr(instance, name, values[start])
            start += 1
        for foreign_key, other, other_attnames in self.parts[1:]:
            related = other.from_db(self.using, other_attnames, values[start:start + len(other_attnames)])
            start += len(other_attnames)
            setattr(instance, foreign_key or "", related)
        return instance  # type: ignore[return-value]


def _value(values: Sequence[Values], where: tuple[int, int | None]) -> Value:
    index, item = where
    value = values[index]
    if item is None:
        return value  # type: ignore[return-value]
    return value[item]  # type: ignore[index]


Converter: TypeAlias = "tuple[Callable[[Any, Any, BaseDatabaseWrapper], Any], Any]"


def _field_converters(field_: AnyField, connection: BaseDatabaseWrapper) -> list[Converter]:
    col = field_.get_col(field_.model._meta.db_table)
    return [(convert, col) for convert in
            connection.ops.get_db_converters(col) + field_.get_db_converters(connection)]


def _expression_converters(expression: Any, connection: BaseDatabaseWrapper) -> list[Converter]:
    return [(convert, expression) for convert in
            connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)]
