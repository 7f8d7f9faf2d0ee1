"""The embedded PostgreSQL (pokerroom/embedded_db.py): `make demo`'s server when no DATABASE_URL is given, and
`make test`'s when no TEST_DATABASE_URL is given and nothing answers on 127.0.0.1:5432 — on a machine with no
PostgreSQL server of its own: each test here starts one from the pip package in a directory of its own, never the
machine's (which stays up for the rest of the suite), and stops it."""
import os
import socket
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from pokerroom import embedded_db

ROOT = Path(__file__).resolve().parents[1]
NO_DATABASE = {"DATABASE_URL", "TEST_DATABASE_URL", "DATABASE_APP_ROLE", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER",
               "DJANGO_SETTINGS_MODULE"}


def clean_env(**extra: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in NO_DATABASE} | {"DJANGO_DEBUG": "true"} | extra


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (as 5432 on a machine with no PostgreSQL server)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def pgdata(tmp_path):
    """A data directory of the test's own; its server, if one was started, is stopped at the end."""
    data = tmp_path / "pgdata"
    yield data
    embedded_db.stop(data)


@pytest.mark.long
def test_make_demos_server_has_productions_roles_and_the_app_role_only_its_privileges(pgdata):
    """make demo's path: the server started in its data directory (socket there, no TCP port), `migrate` as the owner
    grants the app role its privileges, and the app role — what the demo connects as — can do no more: PostgreSQL's
    own check (apps.core.database_roles.privilege_problems, through grant_app_role --check) finds nothing, and it may
    not rewrite a money record."""
    assert embedded_db.start(pgdata) is True
    assert embedded_db.is_running(pgdata) and embedded_db.start(pgdata) is False  # running: started once
    assert (pgdata / ".s.PGSQL.5432").is_socket()
    app, owner = embedded_db.url(embedded_db.APP, pgdata=pgdata), embedded_db.url(embedded_db.OWNER, pgdata=pgdata)
    assert app == f"postgresql://pokerroom_app@/pokerroom?host={pgdata}"
    with psycopg.connect(embedded_db.url(embedded_db.SUPERUSER, pgdata=pgdata), autocommit=True) as admin:
        assert admin.execute("SHOW listen_addresses").fetchone() == ("",)  # the socket only
        roles = dict(admin.execute("SELECT rolname, (rolsuper OR rolcreatedb OR rolcreaterole) FROM pg_roles "
                                   "WHERE rolname IN ('pokerroom_owner', 'pokerroom_app')").fetchall())
        assert roles == {"pokerroom_owner": False, "pokerroom_app": False}
        assert admin.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'pokerroom'"
                             ).fetchone() == ("pokerroom_owner",)

    manage = [sys.executable, str(ROOT / "manage.py")]
    for command, url in ((["migrate", "--noinput", "-v0"], owner), (["grant_app_role", "--check"], app)):
        done = subprocess.run(manage + command, cwd=ROOT, capture_output=True, text=True, timeout=900,
                              env=clean_env(DATABASE_URL=url, DATABASE_APP_ROLE=embedded_db.APP))
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "pokerroom_app: SELECT, INSERT on the append-only tables; nothing more." in done.stdout

    with psycopg.connect(app, autocommit=True) as connection:
        assert connection.execute("SELECT current_user").fetchone() == ("pokerroom_app",)
        assert connection.execute("SELECT count(*) FROM rounds_roundofplay").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("DELETE FROM rake_rakerecord")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("CREATE TABLE mine (id int)")
        # the time charges' exclusion constraint, which needs btree_gist (rake 0009): the package ships it
        assert connection.execute("SELECT count(*) FROM pg_constraint WHERE conname = "
                                  "'time_charge_periods_do_not_overlap'").fetchone() == (1,)

    assert embedded_db.stop(pgdata) is True
    assert not embedded_db.is_running(pgdata) and embedded_db.stop(pgdata) is False
    assert (pgdata / "PG_VERSION").exists()  # the data is kept


def test_make_test_takes_the_given_url_first():
    assert embedded_db.suite_database(given="postgres://someone@db.example:5433/x")[:2] == (
        "postgres://someone@db.example:5433/x", False)


def test_make_test_takes_the_server_answering_on_the_port(tmp_path):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert embedded_db.suite_database(port=port, pgdata=tmp_path / "unused")[:2] == (
            f"postgres://postgres@127.0.0.1:{port}/pokerroom", False)
    assert not (tmp_path / "unused").exists()  # no embedded server was started


def test_with_no_url_and_nothing_on_the_port_make_test_runs_on_the_embedded_server_and_stops_it(pgdata):
    """make test's `embedded_db suite -- COMMAND` with no TEST_DATABASE_URL and nothing answering on the port:
    COMMAND runs with DATABASE_URL set to the embedded server's superuser (the suite makes its roles with it), its
    exit status is make test's, and the server it started is stopped after."""
    command = ("import os, sys, psycopg; url = os.environ['DATABASE_URL']; print(url); "
               "print(psycopg.connect(url).execute('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')"
               ".fetchone()[0]); sys.exit(3)")
    done = subprocess.run([sys.executable, "-m", "pokerroom.embedded_db", "--pgdata", str(pgdata), "suite",
                           "--port", str(free_port()), "--", sys.executable, "-c", command],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=clean_env())
    assert done.returncode == 3, done.stderr[-3000:]
    assert done.stdout.split() == [f"postgresql://postgres@/pokerroom?host={pgdata}", "True"]
    assert "the embedded PostgreSQL" in done.stderr
    assert (pgdata / "PG_VERSION").exists() and not embedded_db.is_running(pgdata)


def test_with_no_database_url_settings_connect_as_the_embedded_servers_app_role():
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings; "
                               "d = settings.DATABASES['default']; print(d['ENGINE'], d['USER'], d['HOST'], d['NAME'])"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env=clean_env(DJANGO_SETTINGS_MODULE="pokerroom.settings"))
    assert shown.returncode == 0, shown.stderr[-3000:]
    assert shown.stdout.split() == ["django.db.backends.postgresql", "pokerroom_app", str(ROOT / ".pgdata"),
                                    "pokerroom"]


@pytest.mark.parametrize("url", ["sqlite:///demo.sqlite3", "mysql://root@127.0.0.1/pokerroom"])
def test_settings_take_no_other_engine(url):
    refused = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, capture_output=True,
                             text=True, timeout=120,
                             env=clean_env(DJANGO_SETTINGS_MODULE="pokerroom.settings", DATABASE_URL=url))
    assert refused.returncode != 0
    assert "DATABASE_URL must name a PostgreSQL database" in refused.stderr
