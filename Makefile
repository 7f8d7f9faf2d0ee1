# pokerroom — two commands set everything up: `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The embedded PostgreSQL (pokerroom/embedded_db.py): make demo's when no DATABASE_URL is given, and the suite's when no
# TEST_DATABASE_URL is given and no server answers on 127.0.0.1:5432 (`suite -- COMMAND` chooses, and stops the
# embedded server it started once COMMAND ends). Its data is in .pgdata/.
EMBEDDED_DB := $(PY) -m pokerroom.embedded_db
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
# 1 (CI): the suite connects as an app role that owns nothing, as production does (README, "Database roles"); the
# roles test_<database>_owner and _app are created when missing. 0: as the suite's superuser login.
TEST_DATABASE_APP_ROLE ?= 1
# make test fails when a requirement of 13:69F that needs code has no test marked as proving it
# (@pytest.mark.proves) that passed in this run, and no written reason (apps/compliance; clauses.toml gives why a
# requirement needs no code or is not built yet): a requirement that loses its last proving test fails.

.PHONY: demo demo-serve demo-stop test typecheck fuzz probe lint bench bench-odds verify-engine concurrency bench-feed bench-scale chaos faults restore-drill compliance-mutants compliance-mutants-changed install services chromium pdf-fonts pgbackrest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,bench]"
	@# Our own modules compiled once, as pip compiles the libraries': a process (manage.py import_phh, a worker) then
	@# starts without compiling them, also where PYTHONDONTWRITEBYTECODE is set (bench/README.md, "Issue 35").
	$(PY) -m compileall -q -j 0 pokerroom apps manage.py >/dev/null
	touch $(STAMP)

install: $(STAMP)

# Start the local PostgreSQL and Redis when they are installed but stopped (no-op otherwise).
services:
	@if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then \
	  if command -v pg_ctlcluster >/dev/null; then pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start; fi; fi
	@if command -v redis-server >/dev/null && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no; sleep 1; fi

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
chromium:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null; fi

# HarfBuzz's font subsetter, which weasyprint uses when it finds it (the Dockerfile installs it too): without it
# weasyprint subsets the fonts of every PDF with fontTools, 6 to 13 times slower (the Master Game Report 446 ms against
# 75, the Bad Beat Payout Contribution Forms 452 ms against 33; bench/README.md, stop 29).
pdf-fonts:
	@if [ -z "$$(ls /usr/lib/*/libharfbuzz-subset.so.0 /usr/lib/libharfbuzz-subset.so.0 2>/dev/null)" ] \
	  && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  (apt-get install -y -qq libharfbuzz-subset0 || (apt-get update -qq && apt-get install -y -qq libharfbuzz-subset0)) \
	  >/dev/null 2>&1 || echo "libharfbuzz-subset0 could not be installed: PDFs render slower"; fi

# Debian's pgBackRest, for the restore drill (make restore-drill, and its short run in the suite): installed when missing.
pgbackrest:
	@if ! command -v pgbackrest >/dev/null && command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbackrest \
	   || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbackrest)) >/dev/null; fi

# The demo runs on DATABASE_URL; with none, on the embedded PostgreSQL, started here and left running with its data in
# .pgdata/ (make demo-stop stops it), whose URLs `start --exports` gives to demo-serve: as production does, migrate
# runs as the owner (MIGRATION_DATABASE_URL; README, "Database roles") and grants DATABASE_APP_ROLE its privileges, and
# the demo connects as that app role.
demo: install pdf-fonts
	@$(if $(DATABASE_URL),,exports="$$($(EMBEDDED_DB) start --exports)" && eval "$$exports" && ) \
	  $(MAKE) --no-print-directory demo-serve

demo-serve:
	$(if $(MIGRATION_DATABASE_URL),DATABASE_URL='$(MIGRATION_DATABASE_URL)') DJANGO_DEBUG=true $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=true $(PY) manage.py seed_demo
	@echo "Serving on http://127.0.0.1:8000/ — log in with a demo login above."
	DJANGO_DEBUG=true $(PY) manage.py runserver 127.0.0.1:8000

demo-stop:
	$(EMBEDDED_DB) stop

test: install typecheck services chromium pdf-fonts pgbackrest
	TEST_DATABASE_URL='$(TEST_DATABASE_URL)' REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
	  DJANGO_SECRET_KEY=test-only-secret DJANGO_DEBUG=false DJANGO_SECURE_SSL_REDIRECT=false \
	  TEST_DATABASE_APP_ROLE=$(TEST_DATABASE_APP_ROLE) $(EMBEDDED_DB) suite -- \
	  $(PY) -m pytest -n 2 --dist loadfile --no-loadscope-reorder -q --durations=10 \
	  --json-report --json-report-file=test-artifacts/pytest-report.json --json-report-omit collectors log streams keywords warnings
	# Every requirement of 13:69F that needs code has a proving test that passed just now, or a written reason (README).
	DJANGO_SECRET_KEY=test-only-secret $(PY) manage.py compliance_matrix --check \
	  --report test-artifacts/pytest-report.json > test-artifacts/compliance-matrix.txt
	# CI: the requirements whose code or proving tests the last commit changed are mutation-tested (at most
	# MUTANTS_MINUTES); it fails when one's mutation score is lower than in the committed apps/compliance/mutants.json.
	@if [ "$$CI" = true ]; then $(MAKE) --no-print-directory compliance-mutants-changed MUTANTS_MINUTES=2; fi

# Schema-driven fuzzing of the API with a larger budget than CI's (tests/core/test_schema_fuzz.py): every operation
# with every role's token, FUZZ_MAX_EXAMPLES examples an operation (CI: 5), seed FUZZ_SEED; prints the summary line.
FUZZ_MAX_EXAMPLES ?= 100
FUZZ_SEED ?= 1313
fuzz: install services
	TEST_DATABASE_URL='$(TEST_DATABASE_URL)' REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
	  DJANGO_SECRET_KEY=test-only-secret DJANGO_DEBUG=false DJANGO_SECURE_SSL_REDIRECT=false \
	  TEST_DATABASE_APP_ROLE=$(TEST_DATABASE_APP_ROLE) FUZZ_MAX_EXAMPLES=$(FUZZ_MAX_EXAMPLES) FUZZ_SEED=$(FUZZ_SEED) \
	  $(EMBEDDED_DB) suite -- $(PY) -m pytest -n 2 -q tests/core/test_schema_fuzz.py

# Issue 13's "Done when": make demo's data served by gunicorn on PostgreSQL with DEBUG off, probed by schemathesis over
# HTTP with every role's token and by hostile page URLs (bench/hostile_probe.sh; PROBE_EXAMPLES, PROBE_DATABASE_URL).
probe: install services
	bench/hostile_probe.sh

lint: install
	$(VENV)/bin/ruff check .
	@if [ -f ../shared/tools/import_graph.py ]; then python3 ../shared/tools/import_graph.py --quiet; fi
	@$(MAKE) --no-print-directory typecheck

# Types: mypy with django-stubs and djangorestframework-stubs, as pyproject.toml's [tool.mypy] sets it (strict on the
# hand engine and apps/core). make test runs it first. The Django plugin loads the settings (hence a secret key); the
# cache is .mypy_cache (about 25 s cold, 2 s warm).
typecheck: install
	DJANGO_SECRET_KEY=typecheck-only $(VENV)/bin/mypy

bench: install
	$(PY) bench/hands_benchmark.py

# The engine against its references at full size: Omaha high and eight-or-better low against pokerkit on
# OMAHA_REFERENCE_HANDS hands and every other rule set against treys or pokerkit on REFERENCE_HANDS hands (the suite
# runs bounded samples of 8,000 and 25,000; tests/hands/test_fast.py).
OMAHA_REFERENCE_HANDS ?= 100000
REFERENCE_HANDS ?= 100000
verify-engine: install
	REFERENCE_HANDS=$(REFERENCE_HANDS) OMAHA_REFERENCE_HANDS=$(OMAHA_REFERENCE_HANDS) DJANGO_SECRET_KEY=test-only-secret \
	  $(PY) -m pytest -q -p no:cacheprovider tests/hands/test_fast.py

# The bad beat fund under concurrency at full size: 50 writers add CONCURRENCY_CONTRIBUTIONS contributions beside counts
# and a claim (the suite runs a bounded sample of 3,000; tests/counts/test_concurrency.py).
CONCURRENCY_CONTRIBUTIONS ?= 10000
concurrency: install services
	CONCURRENCY_CONTRIBUTIONS=$(CONCURRENCY_CONTRIBUTIONS) TEST_DATABASE_URL='$(TEST_DATABASE_URL)' \
	  REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true DJANGO_SECRET_KEY=test-only-secret DJANGO_DEBUG=false \
	  DJANGO_SECURE_SSL_REDIRECT=false $(EMBEDDED_DB) suite -- $(PY) -m pytest -q -p no:cacheprovider tests/counts/test_concurrency.py

# Bad beat odds by Monte Carlo (issue 16): hold'em and Omaha deals/s of apps/hands/odds.py and the Omaha batch's
# hands/s against references in the same run, with the load. Options through ODDS_ARGS, e.g. ODDS_ARGS="--deals 200000".
bench-odds: install
	$(PY) bench/qualifier_odds.py $(ODDS_ARGS)

# The hand feed against pokerkit on the 10,000 Pluribus hands, scaling, and a round posted during an import
# (PostgreSQL; BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/feedbench). See bench/README.md.
bench-feed: install services
	$(PY) bench/feed_benchmark.py $(FEED_ARGS)

# A year of history (issue 14): make demo's room grown to --rounds rounds of play by SQL clones of its rounds (every
# running total kept and checked), every page and list of the supervisor and accounting timed over gunicorn with its
# SQL queries, and POST /api/rounds/ from concurrent clients (PostgreSQL; BENCH_DATABASE_URL, default
# postgres://postgres@127.0.0.1:5432/historybench). E.g. make bench-scale SCALE_ARGS="--rounds 5000000 --keep-db".
bench-scale: install services pdf-fonts
	$(PY) bench/history_scale.py $(SCALE_ARGS)

# Fault harness of the multi-casino system: host and two sites on loopback behind a fault proxy (14.20(e)).
# Options through CHAOS_ARGS, e.g. make chaos CHAOS_ARGS="--contributions 1000 --host-kills 3".
chaos: install services
	$(PY) bench/multicasino_chaos.py $(CHAOS_ARGS)

# Backups and point-in-time recovery (issue 32): a PostgreSQL cluster of its own (this machine's binaries, in a temporary
# directory) archiving WAL with pgBackRest as docker-compose's db does; a gaming day of rounds, a full backup, more
# rounds, the target T, more rounds; the cluster destroyed, restored to T and checked (every round before T back, none
# after, the daily ledger check). Last line: one JSON object. Options through RESTORE_ARGS, e.g.
# make restore-drill RESTORE_ARGS="--rounds 2000 --no-switch". See bench/README.md.
restore-drill: install pgbackrest
	$(PY) bench/restore_drill.py $(RESTORE_ARGS)

# Fault harness of one deployment (issue 32): gunicorn, Celery, a PostgreSQL cluster and two redis-servers of its own on
# loopback; Redis down and hung, the broker down, a jackpot row lock held 45 s, statement timeouts, connections
# exhausted, PostgreSQL restarted mid-import, a worker killed mid-batch, while feeds post rounds and retry. Its last line
# is a JSON object (server_errors, partial_writes, orphaned_jobs, acknowledged_missing, recorded_twice, recovery_s per
# fault). Options through FAULTS_ARGS, e.g. make faults FAULTS_ARGS="--short" or FAULTS_ARGS="--faults lock_held".
faults: install
	$(PY) bench/faults.py $(FAULTS_ARGS)

# Mutation testing of the compliance matrix's requirements (issue 36, item 3; bench/compliance_mutants.py, cosmic-ray):
# for each requirement with code and proving tests, the definitions implementing it mutated and only its proving tests
# run for each mutant, one process at a time, in a copy of the tree; the results in apps/compliance/mutants.json (the
# matrix reads them; equivalent mutants are explained in apps/compliance/equivalent_mutants.toml). Prints a line a
# requirement, then requirements, mutants, killed, survived, equivalent, minutes (bench/README.md). Options through
# MUTANTS_ARGS, e.g. make compliance-mutants MUTANTS_ARGS="--requirements 27.3(b)6 --budget-minutes 30".
compliance-mutants: install services
	TEST_DATABASE_URL='$(TEST_DATABASE_URL)' REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
	  DJANGO_SECRET_KEY=test-only-secret DJANGO_DEBUG=false DJANGO_SECURE_SSL_REDIRECT=false \
	  TEST_DATABASE_APP_ROLE=$(TEST_DATABASE_APP_ROLE) $(EMBEDDED_DB) suite -- $(PY) bench/compliance_mutants.py $(MUTANTS_ARGS)

# CI's share: the requirements whose code or proving tests differ from MUTANTS_SINCE, for at most MUTANTS_MINUTES, into
# test-artifacts/compliance-mutants.json; then compliance_matrix --check fails when a requirement's mutation score there
# is lower than in the committed apps/compliance/mutants.json, a mutant survives that the committed run did not let
# through, or its proving tests failed unmutated. About 3 minutes (bench/README.md): not part of make test, which it
# would lengthen by a quarter; meant for a CI step of its own.
MUTANTS_SINCE ?= HEAD~1
MUTANTS_MINUTES ?= 3
compliance-mutants-changed: install services
	mkdir -p test-artifacts && rm -f test-artifacts/compliance-mutants.json
	TEST_DATABASE_URL='$(TEST_DATABASE_URL)' REDIS_URL=$(TEST_REDIS_URL) CELERY_TASK_ALWAYS_EAGER=true \
	  DJANGO_SECRET_KEY=test-only-secret DJANGO_DEBUG=false DJANGO_SECURE_SSL_REDIRECT=false \
	  TEST_DATABASE_APP_ROLE=$(TEST_DATABASE_APP_ROLE) $(EMBEDDED_DB) suite -- $(PY) bench/compliance_mutants.py \
	  --changed-since $(MUTANTS_SINCE) --budget-minutes $(MUTANTS_MINUTES) --output test-artifacts/compliance-mutants.json
	DJANGO_SECRET_KEY=test-only-secret $(PY) manage.py compliance_matrix --check \
	  --fresh-mutants test-artifacts/compliance-mutants.json > /dev/null

# Also the demo's database: its server stopped first.
clean:
	if [ -x $(PY) ]; then $(EMBEDDED_DB) stop; fi
	rm -rf $(VENV) .pgdata staticfiles .pytest_cache .mypy_cache
