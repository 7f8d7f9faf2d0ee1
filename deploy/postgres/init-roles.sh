#!/usr/bin/env bash
# The database's two roles (README, "Database roles"): the owner, who owns the database and its tables and runs
# `migrate`, and the app role, which owns nothing and gets after every migrate only what the app needs (SELECT, INSERT
# on the append-only money records; apps/core/database_roles.py). Neither is a superuser; the superuser
# (POSTGRES_USER) is for this script and the operators only.
#
# docker-compose mounts this into /docker-entrypoint-initdb.d/, so it runs once, when the data volume is created, as
# POSTGRES_USER on POSTGRES_DB. Running it again is harmless (it sets the passwords again), e.g. on an existing
# database: docker compose exec db bash /docker-entrypoint-initdb.d/10-init-roles.sh (the entrypoint may also source
# it, hence no `set -u` here: the checks below stop it).
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=pokerroom}"
: "${POKERROOM_OWNER:=pokerroom_owner}" "${POKERROOM_APP:=pokerroom_app}"
: "${POKERROOM_OWNER_PASSWORD:?set POKERROOM_OWNER_PASSWORD (deploy/postgres/db.env)}"
: "${POKERROOM_APP_PASSWORD:?set POKERROOM_APP_PASSWORD (deploy/postgres/db.env)}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --output=/dev/null --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v owner="$POKERROOM_OWNER" -v owner_password="$POKERROOM_OWNER_PASSWORD" \
  -v app="$POKERROOM_APP" -v app_password="$POKERROOM_APP_PASSWORD" <<'SQL'
BEGIN;
SELECT pg_advisory_xact_lock(hashtext('pokerroom database roles'));
SELECT format('CREATE ROLE %I', :'owner') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner')
\gexec
SELECT format('CREATE ROLE %I', :'app') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app')
\gexec
-- Attributes set every time, so a role that existed before gets them too.
SELECT format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
              :'owner', :'owner_password')
\gexec
SELECT format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD %L',
              :'app', :'app_password')
\gexec
-- The owner owns the database (and so, from PostgreSQL 15, its public schema); nobody else creates anything in it.
SELECT format('ALTER DATABASE %I OWNER TO %I', current_database(), :'owner')
\gexec
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database())
\gexec
SELECT format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', current_database(), :'app')
\gexec
GRANT USAGE ON SCHEMA public TO :"app";
-- A database made before the two roles (its tables owned by the old login): the owner takes every object over. A new
-- database has none.
SELECT set_config('pokerroom.owner', :'owner', true);
DO $$
DECLARE
  owner name := current_setting('pokerroom.owner');
  item record;
BEGIN
  FOR item IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
                AND pg_get_userbyid(c.relowner) <> owner
                AND NOT (c.relkind = 'S' AND EXISTS (SELECT FROM pg_depend d WHERE d.objid = c.oid
                                                     AND d.deptype IN ('a', 'i')))  -- follows its table
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO %I', CASE item.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                   WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, item.name, owner);
  END LOOP;
  FOR item IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
              WHERE n.nspname = 'public' AND p.prokind = 'f' AND pg_get_userbyid(p.proowner) <> owner
                AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                                AND d.deptype = 'e')  -- an extension's (btree_gist): its own
  LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO %I', item.name, owner);
  END LOOP;
END
$$;
COMMIT;
SQL
