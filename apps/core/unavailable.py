"""Bounded waits and the answer that says "not now" (design.md, "Faults"; issue 32).

Every connection to PostgreSQL runs with a `lock_timeout` and a `statement_timeout` (settings.DATABASES OPTIONS,
from DATABASE_LOCK_TIMEOUT_MS and DATABASE_STATEMENT_TIMEOUT_MS), so a request or a task never waits longer than a
few seconds for a row another session holds, nor runs one statement past its bound. What PostgreSQL then raises, and
what it raises when it cannot be reached, is one of the errors `unavailable()` recognises — the one place where a
database error becomes "retry later":

=============================  ==========  ==================================================  ===========
condition                      SQLSTATE    raised when                                          Retry-After
=============================  ==========  ==================================================  ===========
lock_not_available             55P03       a row lock waited past lock_timeout                  BUSY
query_canceled                 57014       a statement ran past statement_timeout               BUSY
deadlock_detected              40P01       two transactions waited for each other               BUSY
serialization_failure          40001       (SERIALIZABLE/REPEATABLE READ) a concurrent change   BUSY
too_many_connections           53300       the server's max_connections reached                 DOWN
cannot_connect_now             57P03       the server is starting or shutting down              DOWN
admin_shutdown, crash_shutdown 57P01, 57P02 the server stopped under the connection              DOWN
connection_exception           08xxx       the connection failed or was lost                    DOWN
(no SQLSTATE)                              psycopg could not connect, or lost the connection    DOWN
InterfaceError                             a connection already closed (lost earlier)           DOWN
=============================  ==========  ==================================================  ===========

The API answers such an error 503 `{"detail": ..., "request_id": ...}` with `Retry-After` (pokerroom.api), a page
answers the 503 page (apps.core.middleware); a Celery task retries with backoff (DATABASE_UNAVAILABLE, for
`autoretry_for`). The transaction that met it was rolled back whole, so the request wrote nothing: its
Idempotency-Key stays free (apps.core.idempotency releases the key of any 5xx) and a retry runs it again.
"""
from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypedDict

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, InterfaceError, OperationalError, connections

logger = logging.getLogger(__name__)

#: Seconds a client is asked to wait (Retry-After): a lock or a statement that ran out of time goes through once
#: the other transaction ends; a database that is down or full takes longer.
BUSY_RETRY_AFTER = 2
DOWN_RETRY_AFTER = 5

#: For Celery's `autoretry_for`: the Django errors under which every condition of the table above arrives (and
#: only errors of the database's state, never of the request: IntegrityError, DataError and ProgrammingError are
#: not among them).
DATABASE_UNAVAILABLE = (OperationalError, InterfaceError)


class RetryOptions(TypedDict):
    """Options of Celery's task decorator for retrying (RETRY_ON_DATABASE), typed so that `**` them type-checks."""

    autoretry_for: tuple[type[BaseException], ...]
    retry_backoff: bool
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


#: `@shared_task(acks_late=True, **RETRY_ON_DATABASE)` for an idempotent task: run again after 1, 2, 4 ... up to 60
#: seconds (with jitter), six times, while the database cannot serve it.
RETRY_ON_DATABASE: RetryOptions = {"autoretry_for": DATABASE_UNAVAILABLE, "retry_backoff": True,
                                   "retry_backoff_max": 60, "retry_jitter": True, "max_retries": 6}

_BUSY = {
    "55P03": ("lock_timeout", "a record this request needs is held by another request"),
    "57014": ("statement_timeout", "the database took too long to answer"),
    "40P01": ("deadlock", "this request and another one waited for each other"),
    "40001": ("serialization_failure", "another request changed the same records at the same time"),
}
_DOWN = {
    "53300": ("too_many_connections", "the database has no connection free"),
    "57P03": ("database_starting", "the database is starting or stopping"),
    "57P01": ("database_restarted", "the database was restarted"),
    "57P02": ("database_restarted", "the database was restarted"),
}


@dataclass(frozen=True, slots=True)
class Unavailable:
    """Why the database could not serve a request now: `reason` (a code for logs and the harness), `message` (a
    sentence for the user) and `retry_after` (seconds)."""

    reason: str
    message: str
    retry_after: int

    @property
    def detail(self) -> str:
        """The API's `detail`: what happened, that nothing was recorded, when to retry."""
        return (f"The service is unavailable for a moment: {self.message}. Nothing was recorded; retry in "
                f"{self.retry_after} seconds.")


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """`exc` and the database errors it was raised from — only while each is a database error: an error of the app
    raised while handling one (`raise KeyInUse() from exc`) says something else, and keeps its own answer."""
    import psycopg
    from django.db import Error as DjangoDatabaseError

    seen: set[int] = set()
    while isinstance(exc, DjangoDatabaseError | psycopg.Error) and id(exc) not in seen and len(seen) < 8:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def unavailable(exc: BaseException | None) -> Unavailable | None:
    """The database condition `exc` (or an exception it was raised from) reports, as the module's table says, or
    None when it is any other error (a bug, a broken rule: a 500 or a 400 as before)."""
    import psycopg

    if exc is None:
        return None
    for error in _chain(exc):
        if isinstance(error, psycopg.Error):
            state = error.sqlstate or ""
            if state in _BUSY:
                reason, message = _BUSY[state]
                return Unavailable(reason, message, BUSY_RETRY_AFTER)
            if state in _DOWN:
                reason, message = _DOWN[state]
                return Unavailable(reason, message, DOWN_RETRY_AFTER)
            if state.startswith("08") or (not state and isinstance(error, psycopg.OperationalError | psycopg.InterfaceError)):
                return Unavailable("database_unreachable", "the database cannot be reached", DOWN_RETRY_AFTER)
            return None
        if isinstance(error, InterfaceError):  # Django's own: "connection already closed"
            return Unavailable("database_unreachable", "the database cannot be reached", DOWN_RETRY_AFTER)
    return None


@contextmanager
def statement_timeout(milliseconds: int, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Run the block with the connection's statement timeout at `milliseconds` (0: none), then set it back to
    settings.DATABASE_STATEMENT_TIMEOUT_MS. For work whose long statements are legitimate — the daily close's
    checks over a day's records, a migration, an administrator's import — never for a request. The lock timeout is
    kept: such work still gives up on a row another session holds (and is run again). On the session, not
    `SET LOCAL`: it holds across the transactions the work commits one after another."""
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('statement_timeout', %s, false)", [str(int(milliseconds))])
    try:
        yield
    finally:
        if connection.connection is not None and not connection.needs_rollback:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT set_config('statement_timeout', %s, false)",
                                   [str(int(settings.DATABASE_STATEMENT_TIMEOUT_MS))])
            except DatabaseError:  # the connection is broken, or its transaction failed: not reused as it is
                logger.warning("statement_timeout not restored; the connection is closed", exc_info=True)
                if not connection.in_atomic_block:
                    connection.close()
