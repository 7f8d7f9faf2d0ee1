"""The services the suite runs against, the API's OpenAPI documents, and docker-compose's backups."""
import configparser
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from tests.conftest import IN_CI

pytestmark = pytest.mark.django_db


def test_suite_runs_on_postgresql():
    assert connection.vendor == "postgresql"  # settings take no other engine (tests/test_embedded_db.py)


def test_redis_cache_round_trip_when_configured():
    if not settings.REDIS_URL:
        assert not IN_CI, "CI must set REDIS_URL"
        pytest.skip("REDIS_URL is not set (demo mode)")
    cache.set("pokerroom-test-key", "♠", timeout=5)
    assert cache.get("pokerroom-test-key") == "♠"


def test_openapi_schema_and_swagger_ui_need_login(client, supervisor):
    assert client.get("/api/schema/").status_code in (401, 403)
    client.force_login(supervisor)
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/rounds/phh/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content and b"cdn" not in docs.content.lower()


# --- backups and point-in-time recovery (README, "Backups and point-in-time recovery") ----------------------------------

ROOT = Path(__file__).resolve().parents[1]
DEPLOY_POSTGRES = ROOT / "deploy" / "postgres"


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _postgres_settings(command: list[str]) -> dict[str, str]:
    """The `-c name=value` settings of a `postgres` command line."""
    assert command[0] == "postgres" and len(command) % 2 == 1
    assert command[1::2] == ["-c"] * (len(command) // 2)
    return dict(setting.split("=", 1) for setting in command[2::2])


def _mounts(service: dict) -> dict[str, str]:
    """{path in the container: volume or host path} of a service."""
    return {target: source for source, target, *_ in (volume.split(":") for volume in service["volumes"])}


def _pgbackrest_conf() -> configparser.ConfigParser:
    conf = configparser.ConfigParser(interpolation=None)
    conf.read_string((DEPLOY_POSTGRES / "pgbackrest.conf").read_text())
    return conf


def test_compose_database_archives_every_wal_segment_within_a_minute():
    """docker-compose's db is postgres:16 with pgBackRest, and pushes every WAL segment to pgBackRest's repository (a
    volume of its own) as it fills and at least every 60 s when anything was written, so an outage that takes the
    server's disk loses at most a minute of play (N.J.A.C. 13:69D-2.2; GLI-24's backup and recovery)."""
    compose = _compose()
    db = compose["services"]["db"]
    assert db["build"] == "./deploy/postgres"
    dockerfile = (DEPLOY_POSTGRES / "Dockerfile").read_text()
    assert "FROM postgres:16\n" in dockerfile and "apt-get install -y --no-install-recommends pgbackrest" in dockerfile
    settings = _postgres_settings(db["command"])
    assert settings["wal_level"] in {"replica", "logical"} and settings["archive_mode"] == "on"
    assert settings["archive_command"] == "pgbackrest --stanza=pokerroom archive-push %p"
    assert 0 < int(settings["archive_timeout"]) <= 60
    conf = _pgbackrest_conf()
    mounts = _mounts(db)
    assert mounts[conf["pokerroom"]["pg1-path"]] == "pgdata"
    assert mounts[conf["global"]["repo1-path"]] == "pgbackrest" and "pgbackrest" in compose["volumes"]
    assert mounts[conf["pokerroom"]["pg1-socket-path"]] == "pgsocket"
    assert conf["global"]["repo1-retention-full-type"] == "count" and int(conf["global"]["repo1-retention-full"]) >= 7


def test_compose_backup_service_runs_the_schedule_beside_the_database():
    """The backup service runs the schedule (deploy/postgres/backup-schedule.sh, copied into the image) as postgres,
    with the db's data directory, socket and the repository at the paths pgbackrest.conf names, once db is healthy,
    and reports unhealthy when no backup succeeded for two hours."""
    services = _compose()["services"]
    backup, db = services["backup"], services["db"]
    assert backup["build"] == db["build"] and backup["user"] == "postgres"
    assert backup["command"] == ["bash", "/usr/local/bin/backup-schedule.sh"]
    assert "COPY backup-schedule.sh /usr/local/bin/backup-schedule.sh" in (DEPLOY_POSTGRES / "Dockerfile").read_text()
    assert {path: _mounts(db)[path] for path in _mounts(backup)} == _mounts(backup)  # the same volumes, same paths
    assert set(_mounts(backup).values()) == {"pgdata", "pgbackrest", "pgsocket"}
    assert backup["depends_on"]["db"]["condition"] == "service_healthy"
    assert "/tmp/last-backup-ok -mmin -125" in " ".join(backup["healthcheck"]["test"])
    assert backup["restart"] == "unless-stopped"


def test_backup_schedule_takes_a_nightly_full_and_hourly_differential_backups(tmp_path):
    """The schedule, run with stand-ins for pgbackrest, pg_isready, date and sleep over a day and an hour: the stanza
    created, archiving checked, a full backup at start (the repository has none), then one backup on every hour: full
    at BACKUP_FULL_HOUR, differential at the other 23."""
    calls = tmp_path / "calls"
    hour = tmp_path / "hour"
    hour.write_text("0")
    stubs = {
        "pg_isready": "exit 0",
        "sleep": "exit 0",
        # `date +%s`: one second past an hour; `date +%-H`: the next hour of the day at each call
        "date": f'if [ "$1" = "+%s" ]; then echo 3601; else h=$(cat {hour}); echo $(( h % 24 )); '
                f'echo $(( h + 1 )) > {hour}; fi',
        # every call recorded; `info` finds no backup; the 26th backup (start, then 25 hours) stops the schedule
        "pgbackrest": f'echo "$*" >> {calls}; case "$*" in *info*) echo "[]";; esac; '
                      f'if [ "$(grep -c " backup$" {calls})" -ge 26 ]; then kill -TERM $PPID; fi',
    }
    for name, body in stubs.items():
        (tmp_path / name).write_text(f"#!/usr/bin/env bash\n{body}\n")
        (tmp_path / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "BACKUP_FULL_HOUR": "8",
           "BACKUP_STAMP": str(tmp_path / "stamp")}
    done = subprocess.run(["bash", str(DEPLOY_POSTGRES / "backup-schedule.sh")], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = calls.read_text().splitlines()
    assert lines[:4] == ["--stanza=pokerroom stanza-create", "--stanza=pokerroom check",
                         "--stanza=pokerroom --output=json info", "--stanza=pokerroom --type=full backup"]
    hourly = [line.split("--type=")[1].split()[0] for line in lines[4:]]
    assert hourly == ["full" if h % 24 == 8 else "diff" for h in range(25)]
    assert (tmp_path / "stamp").exists()
