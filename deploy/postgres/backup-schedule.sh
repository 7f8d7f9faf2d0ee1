#!/usr/bin/env bash
# docker-compose's backup service (README, "Backups and point-in-time recovery"), as the postgres user with the db
# service's data directory, socket and the pgBackRest repository mounted:
#   - once the database answers, the stanza is created (a no-op when it exists) and WAL archiving checked;
#   - a backup at start: full when the repository has none, else differential;
#   - then, on the hour, a full backup at BACKUP_FULL_HOUR (default 8, in UTC unless TZ is set: 3-4 am in Atlantic
#     City) and a differential one every other hour. Each backup expires what the retention of pgbackrest.conf no
#     longer keeps. WAL itself is archived by the db service (archive_command, archive_timeout=60).
# A backup that fails is logged and tried again at the next hour; the healthcheck fails when no backup succeeded in
# the last 125 minutes. With BACKUP_SCHEDULE_ONCE=1 it stops after the backup at start, with its status (the restore
# drill, bench/restore_drill.py, takes its full backup so).
set -uo pipefail
STANZA="${PGBACKREST_STANZA:-pokerroom}"
FULL_HOUR="${BACKUP_FULL_HOUR:-8}"
STAMP="${BACKUP_STAMP:-/tmp/last-backup-ok}"
trap 'exit 0' TERM INT

backup() {  # $1: full or diff
  if pgbackrest --stanza="$STANZA" --type="$1" backup; then
    touch "$STAMP"
  else
    echo "backup-schedule: the $1 backup failed; next attempt at the next hour" >&2
    return 1
  fi
}

until pg_isready -q -h "${PGHOST:-/var/run/postgresql}"; do sleep 2; done
until pgbackrest --stanza="$STANZA" stanza-create; do
  echo "backup-schedule: stanza-create failed; again in 30 s" >&2
  sleep 30 & wait $!
done
pgbackrest --stanza="$STANZA" check || echo "backup-schedule: WAL archiving check failed (see the db's log)" >&2
info="$(pgbackrest --stanza="$STANZA" --output=json info)"
if [[ "$info" == *'"label"'* ]]; then backup diff; else backup full; fi
status=$?
if [ "${BACKUP_SCHEDULE_ONCE:-0}" = 1 ]; then exit "$status"; fi
while true; do
  sleep $(( 3600 - $(date +%s) % 3600 )) & wait $!
  if [ "$(date +%-H)" -eq "$FULL_HOUR" ]; then backup full; else backup diff; fi
done
