"""The cache (Redis) helps and never decides: with Redis down or hung, everything still answers (design.md, "Faults").

settings.CACHES uses django-redis with IGNORE_EXCEPTIONS: a cache operation that fails returns what a miss returns
(`get` its default, `add` and `set` None, `delete` None) instead of raising. Its sockets give up after
CACHE_SOCKET_TIMEOUT_S (250 ms): a Redis whose port is closed fails at once, one that accepts and never answers
after 250 ms. And so that a hung Redis costs a request at most one such wait, not one per cache operation (a
throttled API request makes four), the connections of this module share a circuit breaker: after a failure, every
operation of the process skips Redis for CACHE_FAIL_OPEN_SECONDS and fails open at once; then one operation tries
again. Each failure and each skip is counted (`stats()`, shown by /health/ready/); a warning is logged when the
breaker opens (with the count so far) and when Redis answers again, not once per operation.

What each use of the cache does when it fails open:

- DRF's throttles (settings.REST_FRAMEWORK): no history read, none kept: the request is allowed.
- The public feed's "content unchanged since" (apps.public.feed): not remembered, so `updated_at` is the time of the
  request and the ETag changes with it (a client downloads the feed again, as after the cache forgot it).
- The compliance matrix's PDF (apps.compliance.views): rendered again.
- The multi-casino inbox's replay check of unsequenced envelopes (apps.multicasino.services.inbox, `try_add`):
  a batch goes on (each message in it is stored once by the database's unique (link, id)); a heartbeat is refused
  with 503, never applied unchecked.
- The multi-casino outbox's one-sender-per-link lock (apps.multicasino.services.outbox.pump): a PostgreSQL advisory
  lock takes its place.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from redis.connection import Connection, ConnectionPool, SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: What this module counts as Redis being unreachable (a refused or reset connection, a socket timeout).
FAILURES = (RedisConnectionError, RedisTimeoutError, OSError)

if TYPE_CHECKING:
    _ConnectionBase = Connection  # _FailFast is a mixin of redis-py's Connection: typed as one, a plain class at run time
else:
    _ConnectionBase = object


class Breaker:
    """The process's view of Redis: closed (use it) or open until a moment (skip it). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open_until = 0.0
        self.failures = 0   # operations that met a refused connection or a timeout
        self.skipped = 0    # operations that did not try, the breaker being open
        self.last_error = ""
        self.last_failure_at: float | None = None

    @staticmethod
    def _seconds() -> float:
        from django.conf import settings

        return float(getattr(settings, "CACHE_FAIL_OPEN_SECONDS", 5.0))

    def allow(self) -> bool:
        """Whether an operation may try Redis now; counts a skip when not."""
        if time.monotonic() < self.open_until:
            with self._lock:
                self.skipped += 1
            return False
        return True

    def trip(self, exc: BaseException) -> None:
        """A failure: open the breaker for CACHE_FAIL_OPEN_SECONDS (logged when it was closed). One exception is
        counted once (a connect fails in its handshake's read, and then as a connect)."""
        if getattr(exc, "_counted_by_breaker", False):
            return
        try:
            exc._counted_by_breaker = True  # type: ignore[attr-defined]  # a mark of this module's on the exception
        except AttributeError:
            pass
        now = time.monotonic()
        with self._lock:
            was_open = self.open_until > 0
            self.failures += 1
            self.last_error = f"{type(exc).__name__}: {exc}"[:200]
            self.last_failure_at = now
            self.open_until = now + self._seconds()
            failures, skipped = self.failures, self.skipped
        if not was_open:
            logger.warning("Redis unreachable (%s): the cache fails open for %.0f s at a time; %d operations failed "
                           "and %d skipped in this process so far", self.last_error, self._seconds(), failures,
                           skipped)

    def succeeded(self) -> None:
        """An answer from Redis: close the breaker (logged when it was open)."""
        if self.open_until:  # a failure since the last answer
            with self._lock:
                self.open_until = 0.0
            logger.warning("Redis answers again: the cache is in use (%d operations failed and %d skipped in this "
                           "process so far)", self.failures, self.skipped)

    def stats(self) -> dict[str, Any]:
        return {"failed": self.failures, "skipped": self.skipped, "failing_open": time.monotonic() < self.open_until,
                "last_error": self.last_error}


BREAKER = Breaker()


def stats() -> dict[str, Any]:
    """This process's count of cache operations that failed open: `failed` (Redis refused or timed out), `skipped`
    (not tried, the breaker open), `failing_open` (now), `last_error`."""
    return BREAKER.stats()


class _FailFast(_ConnectionBase):
    """A redis-py connection that consults BREAKER before each connect and send, and trips it on a failure."""

    def connect_check_health(self, *args: Any, **kwargs: Any) -> Any:
        if self._sock is None and not BREAKER.allow():
            raise RedisConnectionError("Redis skipped: it failed moments ago (the cache fails open)")
        try:
            return super().connect_check_health(*args, **kwargs)
        except FAILURES as exc:
            BREAKER.trip(exc)
            raise

    def send_packed_command(self, *args: Any, **kwargs: Any) -> Any:
        if not BREAKER.allow():
            self.disconnect()
            raise RedisConnectionError("Redis skipped: it failed moments ago (the cache fails open)")
        try:
            return super().send_packed_command(*args, **kwargs)
        except FAILURES as exc:
            BREAKER.trip(exc)
            raise

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            response = super().read_response(*args, **kwargs)
        except FAILURES as exc:
            BREAKER.trip(exc)
            raise
        BREAKER.succeeded()
        return response


class FailFastConnection(_FailFast, Connection):
    pass


class FailFastSSLConnection(_FailFast, SSLConnection):
    pass


class FailOpenConnectionPool(ConnectionPool):
    """django-redis's CONNECTION_POOL_CLASS (settings.CACHES): redis-py's pool of FailFast connections."""

    def __init__(self, connection_class: type[Connection] = Connection, **kwargs: Any) -> None:
        fail_fast = FailFastSSLConnection if issubclass(connection_class, SSLConnection) else FailFastConnection
        super().__init__(connection_class=fail_fast, **kwargs)


def try_add(key: str, *, timeout: int) -> bool | None:
    """`cache.add(key, 1, timeout)` that tells a cache that failed open from a key already there: True (added),
    False (there already), None (the cache cannot say now: Redis down, hung, or skipped)."""
    from django.core.cache import cache

    before = BREAKER.failures + BREAKER.skipped
    added = cache.add(key, 1, timeout=timeout)
    if added:
        return True
    if added is None or BREAKER.failures + BREAKER.skipped != before:
        return None
    return False
