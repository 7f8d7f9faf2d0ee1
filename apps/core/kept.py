"""Queries of the hand feed's hot path whose SQL the ORM builds once and keeps (`KeptQuery`).

Building and compiling a queryset costs the ORM about 0.4 ms of Python, more than the database takes to answer it
(a poker table with its casino: 0.89 ms in all, 0.34 ms of it the round trip and the rows). A round of play posted
by a dealer's tablet runs the same few queries every time, only with other values: the token, the table, its rake,
the jackpots' lock. Here the ORM builds such a query the first time with stand-in values, and their places among
the SQL's parameters are kept; each later call puts its own values there and runs the kept SQL through the same
compiler, so that the rows come back as the ORM gives them (select_related objects, annotations, the database's
converters, prefetch_related).
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from threading import Lock

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql import Query

_YEAR_ONE = date(1, 1, 1)
_INT_BASE = -(10**15)  # no primary key, count or sequence value is this small


class KeptQuery:
    """`build(*values, **shape)` -> a QuerySet, built by the ORM once for each shape and kept.

    Call the KeptQuery with the values (ints, strs or dates; or lists, tuples or sets of them, for `__in` lookups)
    and keyword arguments that decide the query's shape (passed to `build` as they are, part of the key a query is
    kept under; hashable). It returns a QuerySet to iterate (list(), a for loop) and nothing else: filtering,
    counting or slicing it raises TypeError, as it would run another query.

    The first call for a shape (the number of values of each list, the keyword arguments, the database vendor) calls
    `build` with stand-ins: distinct negative ints, strs no one stores, dates in the year 1. Each must reach the SQL
    as a parameter, where a call's value goes; `build` must treat every value as opaque (no branching on it). A
    stand-in the ORM wrote into the SQL text itself, or dropped, raises RuntimeError at that first call. Each length
    of a list is a shape of its own: keep lists bounded (the hand feed's are, by its batch of at most 100 rounds).
    """

    def __init__(self, build: Callable[..., QuerySet]) -> None:
        self._build = build
        self._kept: dict[tuple, _Compiled] = {}
        self._lock = Lock()

    def __call__(self, *values, **shape) -> QuerySet:
        lengths = tuple(len(v) if isinstance(v, list | tuple | set | frozenset) else None for v in values)
        values = [sorted(v) if isinstance(v, set | frozenset) else v for v in values]
        key = (lengths, tuple(sorted(shape.items())))
        compiled = self._kept.get(key)
        if compiled is None or connections[compiled.alias].vendor != compiled.vendor:
            with self._lock:
                compiled = self._kept[key] = self._compile(values, shape, lengths)
        return compiled.queryset(values)

    def _compile(self, values: list, shape: dict, lengths: tuple) -> _Compiled:
        places = {}
        numbers = iter(range(1, 10**6))

        def stand_in(value, where):
            if isinstance(value, bool | datetime) or not isinstance(value, int | str | date):
                raise TypeError(f"KeptQuery: a value is an int, a str or a date, not {type(value).__name__}")
            n = next(numbers)
            made = (_INT_BASE - n if isinstance(value, int) else f"\ufdd0kept-{n}\ufdd0" if isinstance(value, str)
                    else _YEAR_ONE + timedelta(days=n))
            places[where] = made
            return made

        stand_ins = [stand_in(value, (index, None)) if length is None else
                     [stand_in(item, (index, i)) for i, item in enumerate(value)]
                     for index, (value, length) in enumerate(zip(values, lengths, strict=True))]
        queryset = self._build(*stand_ins, **shape)
        alias = queryset.db
        ops = connections[alias].ops
        adapted = {}
        for where, made in places.items():
            made = ops.adapt_datefield_value(made) if isinstance(made, date) else made  # a str on SQLite
            adapted[(type(made), made)] = where
        compiler = queryset.query.get_compiler(using=alias)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # e.g. `pk__in` an empty list: no query to run
            return _Compiled(queryset, compiler, None, [], alias)
        slots = [(True, adapted[(type(p), p)]) if isinstance(p, int | str | date) and (type(p), p) in adapted
                 else (False, p) for p in params]
        if {where for kept, where in slots if kept} != set(places):  # written into the SQL text, or dropped
            raise RuntimeError("KeptQuery: a value did not reach the SQL as a parameter")
        return _Compiled(queryset, compiler, sql, slots, alias)


class _Compiled:
    """One shape's kept SQL and the compiler that built it (what turns the rows into objects)."""

    def __init__(self, queryset: QuerySet, compiler, sql: str | None, slots: list, alias: str) -> None:
        self.model, self.compiler, self.sql, self.slots = queryset.model, compiler, sql, slots
        self.alias, self.vendor = alias, connections[alias].vendor
        self.prefetch, self.for_write = queryset._prefetch_related_lookups, queryset._for_write

    def queryset(self, values: list) -> QuerySet:
        if self.sql is None:
            return self.model._default_manager.none()
        ops = connections[self.alias].ops
        params = []
        for kept, where in self.slots:
            if kept:
                index, item = where
                value = values[index] if item is None else values[index][item]
                params.append(ops.adapt_datefield_value(value) if isinstance(value, date) else value)
            else:
                params.append(where)
        queryset = QuerySet(model=self.model, query=_KeptSQL(self, params), using=self.alias)
        queryset._prefetch_related_lookups, queryset._for_write = self.prefetch, self.for_write
        return queryset


class _KeptSQL(Query):
    """The Query of a kept queryset: its compiler is a copy of the one that built the SQL, which runs the kept SQL
    with this call's parameters."""

    def __init__(self, compiled: _Compiled, params: list) -> None:
        super().__init__(compiled.model)
        self.compiled, self.params = compiled, params

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        template = self.compiled.compiler
        compiler = object.__new__(type(template))  # a shallow copy (copy.copy takes four times as long)
        compiler.__dict__.update(template.__dict__)
        compiler.connection = connection or connections[using or self.compiled.alias]
        compiler.using = compiler.connection.alias
        sql, params = self.compiled.sql, self.params
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler

    def chain(self, klass=None):
        raise TypeError("A kept query runs as it was built: iterate it.")

    def clone(self):
        raise TypeError("A kept query runs as it was built: iterate it.")
