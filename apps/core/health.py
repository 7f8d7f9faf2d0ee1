"""Health endpoints for docker-compose and a load balancer (django-health-check; design.md, "Faults").

- `GET /health/live/` — liveness: the process answers. No database, no cache, no broker: a restart would not
  cure any of those. 200 `{"status": "alive"}`.
- `GET /health/ready/` — readiness: whether this process should be sent traffic. 200 `{"status": "ready", ...}` when
  the database answers and every migration is applied, else 503 `{"status": "unavailable", ...}`. The cache
  (Redis) and the Celery broker are reported (`"ok"` or `"unavailable"`) but never make it unready: the app answers
  without them (apps.core.cache fails open; work for Celery is recorded and swept). `cache_fail_open` counts this
  process's cache operations that failed open (apps.core.cache.stats).

Both are public (a probe has no login) and say nothing sensitive: no host, port, user, version or error text — the
checks' errors go to the log (django-health-check logs each failed check with its exception).
"""
from __future__ import annotations

import asyncio
import dataclasses
import datetime
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views import View
from health_check.base import HealthCheck, HealthCheckResult
from health_check.checks import Cache, Database
from health_check.exceptions import ServiceUnavailable

from .policy import public


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Every migration of the code is applied to the database (a new release before its `migrate` is not ready).
    Once true it stays true for the process (its code cannot gain a migration)."""

    timeout = datetime.timedelta(seconds=3)
    _applied = False

    def run(self) -> None:
        from django.db import connection
        from django.db.migrations.executor import MigrationExecutor

        if MigrationsApplied._applied:
            return
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        finally:
            connection.close()  # a thread of the check's executor, outside any request: not kept open
        if plan:
            raise ServiceUnavailable(f"{len(plan)} migrations not applied")
        MigrationsApplied._applied = True


@dataclasses.dataclass
class Broker(HealthCheck):
    """The Celery broker accepts a connection (within settings.CELERY_BROKER_TIMEOUT_S)."""

    timeout = datetime.timedelta(seconds=3)

    def run(self) -> None:
        from django.conf import settings

        from pokerroom.celery import app

        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=settings.CELERY_BROKER_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - any failure to connect is "unavailable"
            raise ServiceUnavailable("broker unreachable") from exc


#: (check, what it reports under, fatal: makes the process unready)
READINESS = ((Database, "database", True), (MigrationsApplied, "migrations", True), (Cache, "cache", False),
             (Broker, "broker", False))


def run_checks(checks: tuple[type[HealthCheck], ...]) -> list[HealthCheckResult]:
    """Each check's result, in order (django-health-check runs each within its own timeout, synchronous checks in a
    thread pool). The checks run on an event loop of their own, in a thread of their own: the view stays a plain
    synchronous one, which a WSGI worker serves without asgiref's bridge (and whatever loop its thread may hold)."""

    async def gather() -> list[HealthCheckResult]:
        with ThreadPoolExecutor(max_workers=len(checks) or 1) as pool:
            return list(await asyncio.gather(*(check().get_result(pool) for check in checks)))

    with ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, gather()).result()


@public("Liveness probe of docker-compose and the load balancer: says only that the process answers.")
class LivenessView(View):
    """GET /health/live/: 200 while the process serves requests; touches nothing else."""

    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        response = JsonResponse({"status": "alive"})
        add_never_cache_headers(response)
        return response


@public("Readiness probe of docker-compose and the load balancer: ready or not, and which service is down, no more.")
class ReadinessView(View):
    """GET /health/ready/: 200 ready, or 503 when the database or its migrations are not (the module's docstring)."""

    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
        from .cache import stats

        results = run_checks(tuple(check for check, _, _ in READINESS))
        report, ready = {}, True
        for (_, name, fatal), result in zip(READINESS, results, strict=True):
            report[name] = "ok" if result.error is None else "unavailable"
            ready = ready and (result.error is None or not fatal)
        cache = stats()
        body = {"status": "ready" if ready else "unavailable", "checks": report,
                "cache_fail_open": {"failed": cache["failed"], "skipped": cache["skipped"],
                                    "failing_open": cache["failing_open"]}}
        response = JsonResponse(body, status=200 if ready else 503)
        add_never_cache_headers(response)
        if not ready:
            response["Retry-After"] = "5"
        return response
