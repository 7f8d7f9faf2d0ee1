"""Suite-wide fixtures. The suite runs on PostgreSQL (as production does); in CI nothing may be skipped."""
import json
import os
import shutil
import uuid

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from apps.core.roles import Role
from tests.factories import CasinoFactory, StaffFactory
from tests.support import database_roles

IN_CI = os.environ.get("CI", "").lower() == "true"
# The suite connects as the app's database role, as production does (README, "Database roles"): TEST_DATABASE_APP_ROLE=1
# (make test does). The test databases are created, migrated, flushed and dropped by an owner role.
APP_ROLE = os.environ.get("TEST_DATABASE_APP_ROLE", "").lower() in {"1", "true", "yes"}
# Debian's Chromium, driven by Playwright (no browser download). One browser a worker, for every test that takes
# `browser` (tests/browser's pages, the three deployments of tests/multicasino): Playwright's sync API runs one at once.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium; `make test` does it)."
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"])
        yield browser
        browser.close()


def pytest_configure(config):
    # pages render {% static %} without a collectstatic run; WhiteNoise serves from the finders
    settings.STORAGES = {**settings.STORAGES,
                         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    settings.WHITENOISE_AUTOREFRESH = True
    # A staff member's password is hashed in a blink: production's PBKDF2 (1,000,000 iterations, a third of a second
    # a hash) would spend most of the suite making test logins. Servers the suite starts in their own processes
    # (the fault harnesses, the demo, the restore drill) keep production's hashers.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The files that hold a test marked `long` first, in their collected order, then the rest as collected (a
    stable sort, after pytest-django's). make test runs xdist with --dist loadfile --no-loadscope-reorder, which
    hands files to the workers in this order: the long ones go out first and the short ones fill in around them,
    so that neither worker is left running a long file alone at the end."""
    long_files = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("long")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in long_files)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """With APP_ROLE: the roles exist (made by DATABASE_URL's superuser), and the owner creates and migrates the test
    database, which then grants the app role its privileges (apps/core/database_roles.py, after migrate)."""
    if not APP_ROLE:
        return
    default = settings.DATABASES["default"]
    roles = database_roles.roles_for(default["NAME"])
    # the test database's name as Django documents it: TEST's NAME (with xdist's suffix set just before), else
    # "test_" and the database's NAME
    test_name = (default.get("TEST") or {}).get("NAME") or f"test_{default['NAME']}"
    with database_roles.admin_connection(default) as admin:
        database_roles.ensure_roles(admin, roles)
        database_roles.hand_over_test_database(admin, test_name, roles.owner)
    database_roles.log_in_as(roles.owner)
    settings.DATABASE_APP_ROLE = roles.app
    database_roles.in_use = roles


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """With APP_ROLE, every test runs as the app role; a transactional test's flush (TRUNCATE, which the app may not)
    runs as the owner on a connection of its own; the owner drops the test database at the end."""
    if not APP_ROLE:
        yield
        return
    from django.core.management.commands import flush

    roles = database_roles.in_use
    truncate = flush.Command.handle

    def flush_as_owner(self, **options):
        with database_roles.connected_as(roles.owner, options.get("database") or "default"):
            return truncate(self, **options)

    with django_db_blocker.unblock():
        database_roles.log_in_as(roles.app)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush.Command, "handle", flush_as_owner)
        yield
    with django_db_blocker.unblock():
        database_roles.log_in_as(roles.owner)


@pytest.fixture
def database_roles_in_use(django_db_setup):
    """The suite's owner and app roles; fails in CI (skips elsewhere) when the suite is not run as the app role."""
    if not APP_ROLE:
        message = "The suite runs as the superuser: set TEST_DATABASE_APP_ROLE=1 (make test does)."
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return database_roles.in_use


@pytest.fixture(autouse=True)
def own_cache(settings):
    """Each test gets a cache of its own. The suite's cache is the shared Redis server, which outlives a run and
    is shared by the xdist workers, whose databases both number their rows from 1: without this, a replay
    check or a link's send lock keyed by a row's id would see another test's entry (or a previous run's)."""
    settings.CACHES = {name: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
                       for name, config in settings.CACHES.items()}


@pytest.fixture
def casino(db):
    return CasinoFactory()


@pytest.fixture
def staff(casino):
    """staff(role) -> a user of `casino` with that role."""

    def make(role: Role, **kwargs):
        return StaffFactory(casino=casino, roles=[role], **kwargs)

    return make


@pytest.fixture
def supervisor(staff):
    return staff(Role.POKER_SHIFT_SUPERVISOR)


@pytest.fixture
def api():
    return APIClient()


# --- the schema fuzz's summary line (tests/core/test_schema_fuzz.py) ------------------------------------------------
# Each process (an xdist worker, or the run itself) adds up its runs in `fuzz_tally`; a worker sends its tally to the
# controller at the end, which prints one line after the run, e.g. "schemathesis: 36 operations x 8 roles (324 runs),
# 6,170 examples, 0 failures; max 5 examples an operation, seed 1313; 69.3 s" — the figures of issue 13's closing note.
# Here, in the suite's top conftest, because xdist's controller loads no other.

TALLY = pytest.StashKey[dict]()


def _tally(config) -> dict:
    if TALLY not in config.stash:
        config.stash[TALLY] = {"operations": [], "roles": [], "runs": 0, "examples": 0, "failures": 0, "seconds": 0.0,
                               "max_examples": None, "seed": None}
    return config.stash[TALLY]


def _merge(into: dict, other: dict) -> None:
    into["operations"] = sorted(set(into["operations"]) | set(other["operations"]))
    into["roles"] = sorted(set(into["roles"]) | set(other["roles"]))
    for key in ("runs", "examples", "failures", "seconds"):
        into[key] += other[key]
    into["max_examples"] = into["max_examples"] or other["max_examples"]
    into["seed"] = into["seed"] if into["seed"] is not None else other["seed"]


@pytest.fixture(scope="session")
def fuzz_tally(request) -> dict:
    """This process's tally of the schema fuzz: operations and roles run, runs, examples, failures, seconds."""
    return _tally(request.config)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)  # an xdist worker
    if workeroutput is not None and TALLY in session.config.stash:
        workeroutput["schema_fuzz"] = json.dumps(session.config.stash[TALLY])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    sent = getattr(node, "workeroutput", {}).get("schema_fuzz")
    if sent:
        _merge(_tally(node.config), json.loads(sent))


def pytest_terminal_summary(terminalreporter, config):
    tally = config.stash.get(TALLY, None)
    if not tally or not tally["runs"]:
        return
    terminalreporter.write_line(
        f"schemathesis: {len(tally['operations'])} operations x {len(tally['roles'])} roles ({tally['runs']} runs), "
        f"{tally['examples']:,} examples, {tally['failures']} failures; max {tally['max_examples']} examples an "
        f"operation, seed {tally['seed']}; {tally['seconds']:.1f} s")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call" and report.failed and item.module.__name__.endswith("test_schema_fuzz"):
        _tally(item.config)["failures"] += 1
    return report
