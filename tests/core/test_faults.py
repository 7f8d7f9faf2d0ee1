"""Bounded waits and degraded modes (issue 32; design.md, "Faults"): every connection's lock and statement timeouts,
the 503 with Retry-After in the API's JSON shape (and nothing written, the Idempotency-Key free again), the cache
failing open with Redis down or hung (API, pages and the public feed answer, throttles skipped, counted and logged),
the broker down (the import job recorded and answered 202, swept once the broker is back), every API 5xx in JSON
with its request id (X-Request-ID, and in the log line), and the health endpoints."""
import io
import logging
import random
import socket
import threading
import time
from contextlib import contextmanager
from decimal import Decimal

import psycopg
import pytest
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient

from apps.badbeat.models import Contribution, Jackpot
from apps.core import cache as fail_open
from apps.core.models import IdempotencyKey
from apps.core.unavailable import statement_timeout, unavailable
from apps.feed.models import ImportJob, ImportStatus
from apps.rake.models import RakeRecord
from apps.rounds.models import RoundOfPlay
from tests.factories import JackpotFactory, RakeStructureFactory
from tests.support.phh_hands import random_file

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def table(casino):
    table = RakeStructureFactory(table__casino=casino).table
    JackpotFactory(casino=casino, balance=D("0.00"), minimum_pot=D("0"))
    return table


def round_body(table, external_id=""):
    return {"table": table.pk, "board": "Ah Kd 5c 9s 3h", "external_id": external_id, "players": [
        {"seat": 1, "name": "Ana", "contributed": "50.00", "hole_cards": "As Ks"},
        {"seat": 2, "name": "Ben", "contributed": "50.00", "hole_cards": "2c 7d"}]}


def money_rows():
    return RoundOfPlay.objects.count(), RakeRecord.objects.count(), Contribution.objects.count()


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def hung_server():
    """A socket server on loopback that accepts connections and never answers: a hung Redis."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted, stop = [], threading.Event()

    def serve():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for sock in accepted:
            sock.close()
        server.close()


@pytest.fixture
def breaker():
    """The process's cache breaker, reset before and after (it is shared by every test of this worker)."""
    fresh = fail_open.Breaker()
    saved = fail_open.BREAKER.__dict__.copy()
    fail_open.BREAKER.__dict__.update(fresh.__dict__)
    yield fail_open.BREAKER
    fail_open.BREAKER.__dict__.update(saved | {"open_until": 0.0})


def redis_cache_at(settings, port: int) -> None:
    """The cache as settings.py configures it for production, pointed at 127.0.0.1:`port`."""
    settings.CACHES = {"default": {
        "BACKEND": "django_redis.cache.RedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0",
        "KEY_PREFIX": f"faults-{port}",
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": settings.CACHE_SOCKET_TIMEOUT_S,
                    "SOCKET_TIMEOUT": settings.CACHE_SOCKET_TIMEOUT_S, "IGNORE_EXCEPTIONS": True,
                    "CONNECTION_POOL_CLASS": "apps.core.cache.FailOpenConnectionPool"}}}


class TestTimeouts:
    def test_every_connection_has_its_lock_and_statement_timeouts(self, settings):
        """settings.DATABASES OPTIONS: 3 s and 10 s by default, under gunicorn's 30 s."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')")
            assert cursor.fetchone() == ("3s", "10s")
        assert settings.DATABASE_LOCK_TIMEOUT_MS == 3000 and settings.DATABASE_STATEMENT_TIMEOUT_MS == 10000

    def test_long_work_lifts_the_statement_timeout_for_itself_and_sets_it_back(self):
        with statement_timeout(0):
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('statement_timeout'), current_setting('lock_timeout')")
                assert cursor.fetchone() == ("0", "3s")  # the lock timeout kept
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('statement_timeout')")
            assert cursor.fetchone() == ("10s",)

    @pytest.mark.parametrize(("error", "reason", "retry_after"), [
        (psycopg.errors.LockNotAvailable, "lock_timeout", 2),
        (psycopg.errors.QueryCanceled, "statement_timeout", 2),
        (psycopg.errors.DeadlockDetected, "deadlock", 2),
        (psycopg.errors.TooManyConnections, "too_many_connections", 5),
        (psycopg.errors.CannotConnectNow, "database_starting", 5),
        (psycopg.errors.AdminShutdown, "database_restarted", 5),
        (psycopg.errors.ConnectionFailure, "database_unreachable", 5),
    ])
    def test_the_database_conditions_that_answer_503(self, error, reason, retry_after):
        try:
            try:
                raise error("from the server")
            except psycopg.Error as exc:
                raise OperationalError(str(exc)) from exc
        except OperationalError as wrapped:
            condition = unavailable(wrapped)
        assert (condition.reason, condition.retry_after) == (reason, retry_after)

    def test_a_connection_refused_answers_503_and_other_errors_do_not(self):
        with pytest.raises(psycopg.OperationalError) as refused:
            psycopg.connect(host="127.0.0.1", port=closed_port(), dbname="x", connect_timeout=2)
        assert unavailable(refused.value).reason == "database_unreachable"
        assert unavailable(psycopg.errors.UniqueViolation("duplicate")) is None
        assert unavailable(RuntimeError("a bug")) is None


@pytest.mark.django_db(transaction=True)
class TestLockHeldByAnotherConnection:
    def test_a_jackpot_row_locked_elsewhere_answers_503_json_with_retry_after_and_writes_nothing(
            self, supervisor, table):
        """Another session holds the jackpot's row lock: the round waits lock_timeout (lowered to 300 ms here), then
        answers 503 {detail, request_id} with Retry-After; no round, rake or contribution, and the Idempotency-Key is
        free: the same key once the lock is gone records the round (201, not a replay)."""
        jackpot = Jackpot.objects.get()
        settings_dict = connection.settings_dict
        holder = psycopg.connect(dbname=settings_dict["NAME"], user=settings_dict["USER"],
                                 host=settings_dict["HOST"] or None, port=settings_dict["PORT"] or None)
        try:
            holder.execute("SELECT id FROM badbeat_jackpot WHERE id = %s FOR UPDATE", [jackpot.pk])
            api = APIClient()
            api.force_authenticate(supervisor)
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '300ms'")
            started = time.monotonic()
            response = api.post("/api/rounds/", round_body(table, "ext-1"), format="json",
                                HTTP_IDEMPOTENCY_KEY="tablet-1")
            waited = time.monotonic() - started
        finally:
            holder.rollback()
            holder.close()
        assert response.status_code == 503, response.content
        body = response.json()
        assert set(body) == {"detail", "request_id"} and "Nothing was recorded" in body["detail"]
        assert response["Retry-After"] == "2" and response["X-Request-ID"] == body["request_id"]
        assert waited < 5
        assert money_rows() == (0, 0, 0) and Jackpot.objects.get().balance == D("0.00")
        assert not IdempotencyKey.objects.filter(key="tablet-1").exists()
        retry = api.post("/api/rounds/", round_body(table, "ext-1"), format="json", HTTP_IDEMPOTENCY_KEY="tablet-1")
        assert retry.status_code == 201 and not retry.has_header("Idempotent-Replayed")
        assert money_rows() == (1, 1, 1)


class TestStatementTimeout:
    def test_a_statement_past_its_timeout_answers_503(self, supervisor, table, monkeypatch):
        """A read that runs past statement_timeout (lowered to 100 ms; the read made to sleep 1 s) answers 503 in the
        API's shape; a page, the 503 page."""
        from apps.badbeat import apis as badbeat_apis

        def slow(*args, **kwargs):
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL statement_timeout = '100ms'")
                cursor.execute("SELECT pg_sleep(1)")

        monkeypatch.setattr(badbeat_apis.JackpotApi, "get", lambda self, request, *a, **k: slow())
        api = APIClient()
        api.force_authenticate(supervisor)
        response = api.get("/api/jackpot/")
        assert response.status_code == 503 and response["Retry-After"] == "2"
        assert "took too long" in response.json()["detail"] and response.json()["request_id"]

    def test_a_page_whose_database_is_down_answers_the_503_page(self, supervisor, monkeypatch):
        """The database unreachable while a page reads the session: the 503 page (no navigation: it would read the
        database), Retry-After and the request id."""

        def down(*args, **kwargs):
            raise OperationalError("connection failed") from psycopg.OperationalError("connection refused")

        page = Client(raise_request_exception=False)
        page.force_login(supervisor)
        monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.load", down)
        response = page.get("/", HTTP_ACCEPT="text/html")
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert b"try again in a moment" in response.content.lower() and response["X-Request-ID"]
        assert response["X-Request-ID"].encode() in response.content


class TestServerErrors:
    def test_an_api_500_is_json_with_its_request_id_also_in_the_log(self, supervisor, table, monkeypatch):
        from apps.feed import apis

        def broken(**kwargs):
            raise RuntimeError("a bug")

        monkeypatch.setattr(apis, "record_round_of_play", broken)
        console = next(h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler))
        stream = io.StringIO()
        previous = console.setStream(stream)
        try:
            api = APIClient(raise_request_exception=False)
            api.force_authenticate(supervisor)
            response = api.post("/api/rounds/", round_body(table), format="json")
        finally:
            console.setStream(previous)
        assert response.status_code == 500 and response["Content-Type"] == "application/json"
        body = response.json()
        assert set(body) == {"detail", "request_id"} and body["request_id"] == response["X-Request-ID"]
        assert f"[request {body['request_id']}]" in stream.getvalue() and "RuntimeError: a bug" in stream.getvalue()
        assert money_rows() == (0, 0, 0)

    def test_a_sane_incoming_request_id_is_kept_and_another_replaced(self, client):
        kept = "0b3e0b4c-7a5e-4f51-8f0e-3c2d1a9b8e7f"
        assert client.get("/health/live/", HTTP_X_REQUEST_ID=kept)["X-Request-ID"] == kept
        replaced = client.get("/health/live/", HTTP_X_REQUEST_ID="<script>")["X-Request-ID"]
        assert replaced != "<script>" and len(replaced) == 32

    def test_a_page_500_to_a_json_client_is_json(self, supervisor, monkeypatch):
        def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        page = Client(raise_request_exception=False)
        page.force_login(supervisor)
        monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.load", broken)
        response = page.get("/", HTTP_ACCEPT="application/json")
        assert response.status_code == 500 and response.json()["request_id"] == response["X-Request-ID"]
        html = page.get("/", HTTP_ACCEPT="text/html")  # a browser still gets the 500 page
        assert html.status_code == 500 and html["Content-Type"].startswith("text/html")


class TestRedisDown:
    def test_api_pages_and_public_feed_answer_with_the_cache_at_a_closed_port(
            self, settings, breaker, supervisor, casino, caplog):
        """Redis's port closed: the API (throttled per user), a page and the public feed and page all answer; the
        throttles were skipped (no history kept: 3 requests over a 2/min rate pass); the failures are counted and
        one warning is logged."""
        redis_cache_at(settings, closed_port())
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "user": "2/min", "public_feed": "2/min"}}
        api = APIClient()
        api.force_authenticate(supervisor)
        with caplog.at_level(logging.WARNING, logger="apps.core.cache"):
            for _ in range(3):
                assert api.get("/api/jackpots/").status_code == 200
                assert Client().get(f"/api/public/{casino.code}/").status_code == 200
            assert Client().get(f"/public/{casino.code}/").status_code == 200
            page = Client()
            page.force_login(supervisor)
            assert page.get("/").status_code == 200
        stats = fail_open.stats()
        assert stats["failed"] >= 1 and stats["failed"] + stats["skipped"] >= 6 and stats["failing_open"]
        warnings = [r for r in caplog.records if r.name == "apps.core.cache"]
        assert len(warnings) == 1 and "fails open" in warnings[0].getMessage()

    def test_a_hung_redis_costs_a_request_about_one_socket_timeout(self, settings, breaker, supervisor):
        """A Redis that accepts and never answers: the first request waits one socket timeout (250 ms), then the
        breaker skips Redis: the next requests wait for nothing."""
        api = APIClient()
        api.force_authenticate(supervisor)
        api.get("/api/jackpots/")  # warm (URL resolvers, serializers)
        started = time.monotonic()
        api.get("/api/jackpots/")
        baseline = time.monotonic() - started
        with hung_server() as port:
            redis_cache_at(settings, port)
            timings = []
            for _ in range(3):
                started = time.monotonic()
                assert api.get("/api/jackpots/").status_code == 200
                timings.append(time.monotonic() - started - baseline)
        assert timings[0] < settings.CACHE_SOCKET_TIMEOUT_S + 0.5, timings
        assert max(timings[1:]) < 0.2, timings
        assert fail_open.stats()["failed"] == 1 and fail_open.stats()["skipped"] >= 3

    def test_the_multicasino_inbox_refuses_a_heartbeat_it_cannot_check_for_replay(self, settings, breaker):
        """With the cache down the inbox cannot tell a replayed heartbeat: 503, not applied (a batch goes on: each of
        its messages is stored once by the database)."""
        from apps.core.cache import try_add

        redis_cache_at(settings, closed_port())
        assert try_add("k", timeout=10) is None
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                       "LOCATION": "faults-locmem"}}
        assert try_add("k", timeout=10) is True and try_add("k", timeout=10) is False


@pytest.fixture
def broker_at():
    """broker_at(url): the Celery app publishes to `url`, tasks not run eagerly; its connection pools made anew (and
    as they were afterwards). The settings are set by their names in the app's CELERY namespace (pokerroom/celery.py):
    celery 5.6 reads those, not the lower-case aliases. (Celery has no public way to drop the pools of a live app:
    `app.close()` also unregisters it, and every shared task with it.)"""
    from pokerroom.celery import app

    names = ("CELERY_TASK_ALWAYS_EAGER", "CELERY_BROKER_URL")
    saved = {name: app.conf[name] for name in names}, app._pool, app.amqp._producer_pool

    def point(url: str, *, eager: bool = False) -> None:
        app.conf.update({"CELERY_TASK_ALWAYS_EAGER": eager, "CELERY_BROKER_URL": url})
        app._pool, app.amqp._producer_pool = None, None

    yield point
    conf, app._pool, app.amqp._producer_pool = saved
    app.conf.update(conf)


@pytest.fixture
def phh_table(casino):
    table = RakeStructureFactory(table__casino=casino, table__small_blind=D("50"), table__big_blind=D("100"),
                                 table__seats=6).table
    JackpotFactory(casino=casino, minimum_pot=D("20.00"), contribution_amount=D("1.00"))
    return table


class TestBrokerDown:
    def test_a_phh_import_job_is_recorded_answered_202_and_swept_once_the_broker_is_back(
            self, supervisor, phh_table, broker_at, monkeypatch, django_capture_on_commit_callbacks, settings):
        from apps.feed import apis, services

        monkeypatch.setattr(apis, "ASYNC_IMPORT_HANDS", 2)
        broker_at(f"redis://127.0.0.1:{closed_port()}/0")
        api = APIClient()
        api.force_authenticate(supervisor)
        text = random_file("NT", random.Random(32), 4)
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post("/api/rounds/phh/", {"phh": text, "name": "big.phhs", "table": phh_table.pk},
                                format="json", HTTP_IDEMPOTENCY_KEY="import-1")
        assert time.monotonic() - started < 5  # the broker's refusal is bounded
        assert response.status_code == 202, response.content
        job = ImportJob.objects.get()
        assert (job.status, job.enqueued_at, job.attempts) == (ImportStatus.QUEUED, None, 0)
        settings.IMPORT_JOB_SEND_GRACE_S = 0
        assert services.sweep_import_jobs() == []  # still down: nothing sent, nothing lost
        broker_at("memory://", eager=True)  # back (run in this process, as a worker would)
        assert services.sweep_import_jobs() == [job.pk]
        job.refresh_from_db()
        assert (job.status, job.attempts, job.hands) == (ImportStatus.DONE, 1, 4) and job.enqueued_at is not None
        assert RoundOfPlay.objects.count() == 4
        assert services.sweep_import_jobs() == []  # done: never sent again

    def test_the_sweeper_sends_a_job_whose_worker_died_and_leaves_live_ones(self, supervisor, phh_table, settings,
                                                                           monkeypatch):
        from datetime import timedelta

        from django.utils import timezone

        from apps.core import tasks as core_tasks
        from apps.feed import services

        sent = []
        monkeypatch.setattr(core_tasks, "send_task", lambda task, **kwargs: sent.append(kwargs["job_id"]) or True)
        now = timezone.now()
        settings.IMPORT_JOB_STALE_AFTER_S, settings.IMPORT_JOB_RESEND_AFTER_S = 60, 60

        def job(**fields):
            return ImportJob.objects.create(casino=phh_table.casino, requested_by=supervisor, name="x", text="",
                                            hands=2000, **fields)

        dead = job(status=ImportStatus.RUNNING, started_at=now - timedelta(minutes=5),
                   heartbeat_at=now - timedelta(minutes=2), attempts=1, enqueued_at=now - timedelta(minutes=5))
        job(status=ImportStatus.RUNNING, started_at=now - timedelta(minutes=5), heartbeat_at=now, attempts=1,
            enqueued_at=now - timedelta(minutes=5))
        waiting = job(status=ImportStatus.QUEUED, attempts=1, enqueued_at=now - timedelta(seconds=10))
        lost = job(status=ImportStatus.QUEUED, attempts=1, enqueued_at=now - timedelta(minutes=2))
        assert services.sweep_import_jobs(now=now) == [dead.pk, lost.pk] == sent
        assert waiting.pk not in sent

    def test_a_round_whose_outbox_task_cannot_be_sent_still_answers_201(self, supervisor, table, broker_at,
                                                                          django_capture_on_commit_callbacks):
        """send_task never raises after a commit: a refused publish is logged and the work's own record is swept."""
        from apps.core.tasks import send_task
        from apps.feed.tasks import run_import

        broker_at(f"redis://127.0.0.1:{closed_port()}/0")
        started = time.monotonic()
        assert send_task(run_import, job_id=0) is False
        assert time.monotonic() - started < 5
        api = APIClient()
        api.force_authenticate(supervisor)
        with django_capture_on_commit_callbacks(execute=True):
            assert api.post("/api/rounds/", round_body(table), format="json").status_code == 201


class TestHealth:
    def test_liveness_touches_nothing(self, client, django_assert_num_queries):
        with django_assert_num_queries(0):
            response = client.get("/health/live/")
        assert response.status_code == 200 and response.json() == {"status": "alive"}

    def test_readiness_reports_each_service_and_reveals_nothing_sensitive(self, client, settings, breaker):
        response = client.get("/health/ready/")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["status"] == "ready" and body["checks"] == {
            "database": "ok", "migrations": "ok", "cache": "ok", "broker": "ok"}
        assert "127.0.0.1" not in response.content.decode() and "postgres" not in response.content.decode()

    def test_readiness_stays_ready_without_cache_or_broker(self, client, settings, breaker, broker_at):
        redis_cache_at(settings, closed_port())
        broker_at(f"redis://127.0.0.1:{closed_port()}/0")
        response = client.get("/health/ready/")
        assert response.status_code == 200
        assert response.json()["checks"] == {"database": "ok", "migrations": "ok", "cache": "unavailable",
                                             "broker": "unavailable"}

    def test_readiness_is_503_while_migrations_are_missing(self, client, monkeypatch):
        from django.db.migrations.executor import MigrationExecutor

        from apps.core.health import MigrationsApplied

        monkeypatch.setattr(MigrationsApplied, "_applied", False)
        monkeypatch.setattr(MigrationExecutor, "migration_plan", lambda self, targets: [("feed", "0099")])
        response = client.get("/health/ready/")
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert response.json()["status"] == "unavailable" and response.json()["checks"]["migrations"] == "unavailable"


class TestMulticasinoWithoutCache:
    @pytest.mark.proves("14.20(e)3")
    def test_a_heartbeat_whose_replay_cannot_be_checked_is_refused_503_and_a_batch_goes_in(self, settings, breaker):
        """N.J.A.C. 13:69F-14.20(e)3 with Redis down: the inbox cannot tell a replayed heartbeat, so it refuses it
        (503, nothing applied, not logged as a replay); a batch goes in, each message stored once by the database,
        and the same batch again changes nothing."""
        from apps.multicasino.models import PoolEntry, RejectedMessage
        from apps.multicasino.services.setup import add_site, set_up_system
        from tests.multicasino.support import receive
        from tests.multicasino.test_inbox import RULES, SITE_TO_HOST, batch, message

        system = set_up_system(code="nj-bad-beat", name="NJ Bad Beat", host_name="Boardwalk Casino Hotel LLC",
                               host_address="1 Boardwalk, Atlantic City", rules=RULES)
        add_site(system=system, code="boardwalk", name="Boardwalk", is_host=True, is_self=True)
        add_site(system=system, code="borgata", name="Borgata", inbox_url="http://borgata.test/inbox",
                 inbound_secrets=[SITE_TO_HOST], outbound_secrets=["whsec_" + "aG9zdC10by1zaXRl"])
        redis_cache_at(settings, closed_port())
        headers, raw = message(None, kind="heartbeat", mid="hb_1")
        status, answer = receive(headers=headers, raw=raw)
        assert status == 503 and "Replay check unavailable" in answer["error"]
        assert not RejectedMessage.objects.exists()
        headers, raw, _ = batch([1, 2])
        assert receive(headers=headers, raw=raw)[0] == 200
        assert receive(headers=headers, raw=raw)[0] in (200, 409)  # replayed: acknowledged again, nothing applied
        system.refresh_from_db()
        assert PoolEntry.objects.count() == 2 and system.pool == D("3.00")

    def test_the_outbox_sender_takes_a_database_lock_when_the_cache_cannot_hold_one(self, settings, breaker):
        from apps.multicasino.services.outbox import _release_send_lock, _take_send_lock

        redis_cache_at(settings, closed_port())
        held = _take_send_lock("multicasino:pump:1", link_pk=1, timeout=30)
        assert held == "database"
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
            assert cursor.fetchone()[0] == 1
        _release_send_lock(held, "multicasino:pump:1", link_pk=1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
            assert cursor.fetchone()[0] == 0
