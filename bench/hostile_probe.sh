#!/usr/bin/env bash
# The "Done when" of issue 13: `make demo`'s data served by gunicorn on PostgreSQL with DEBUG off, probed by a hostile
# client — schemathesis over HTTP against the served OpenAPI schema, for every operation with every role's API token
# and with none (checks not_a_server_error, status_code_conformance, response_schema_conformance) — then every page and
# export URL with hostile query parameters. Prints one line per role and a total; exits non-zero on any failure.
#
#   make probe                      # PROBE_EXAMPLES=10 examples an operation, seed 1313
#   PROBE_DATABASE_URL=postgres://postgres@127.0.0.1:5432/pokerroom_probe PROBE_PORT=8123 bench/hostile_probe.sh
#   PROBE_ROLES="dealer anonymous" bench/hostile_probe.sh   # some roles only
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
DB_URL=${PROBE_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/pokerroom_probe}
PORT=${PROBE_PORT:-8123}
EXAMPLES=${PROBE_EXAMPLES:-10}
SEED=${PROBE_SEED:-1313}
OUT=${PROBE_OUT:-$(mktemp -d)}
mkdir -p "$OUT"
DB_NAME=${DB_URL##*/}
ADMIN_URL=${DB_URL%/*}/postgres

export DATABASE_URL=$DB_URL DJANGO_DEBUG=false DJANGO_SECRET_KEY=probe-only-secret-$(date +%s)-not-for-production \
  DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost DJANGO_SECURE_SSL_REDIRECT=false DJANGO_SECURE_COOKIES=false \
  CELERY_TASK_ALWAYS_EAGER=true DJANGO_THROTTLE_USER=100000/min DJANGO_THROTTLE_ANON=100000/min

psql "$ADMIN_URL" -qc "DROP DATABASE IF EXISTS \"$DB_NAME\" WITH (FORCE)" -c "CREATE DATABASE \"$DB_NAME\"" >/dev/null
$PY manage.py migrate --noinput -v0
$PY manage.py seed_demo >/dev/null
$PY manage.py collectstatic --noinput -v0
.venv/bin/gunicorn pokerroom.wsgi -b 127.0.0.1:$PORT -w 4 --timeout 120 --log-level warning \
  --error-logfile "$OUT/gunicorn.log" &
GUNICORN=$!
trap 'kill $GUNICORN 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/accounts/login/" && break; sleep 0.2; done

# The schema is served to signed-in users only: read it once with the administrator's token, for every run.
admin_token=$($PY manage.py create_api_token admin --hours 2 | awk '{print $3}')
curl -sf -H "Authorization: Token $admin_token" "http://127.0.0.1:$PORT/api/schema/?format=json" -o "$OUT/schema.json"

total_failures=0
for role in ${PROBE_ROLES:-poker_shift_supervisor floorperson dealer accounting security surveillance admin anonymous}; do
  # A role's run leaves out signing in and out (/api/token/...): its fuzzing would revoke the role's own token. The
  # anonymous run, last, fuzzes them (and locks the probe's address out of signing in, as it should).
  headers=(--exclude-path-regex '^/api/token/')
  if [ "$role" != anonymous ]; then
    token=$($PY manage.py create_api_token "$role" --hours 2 | awk '{print $3}')
    headers+=(-H "Authorization: Token $token")
  else
    headers=()
  fi
  set +e
  .venv/bin/st run "$OUT/schema.json" --url "http://127.0.0.1:$PORT" "${headers[@]}" \
    --checks not_a_server_error,status_code_conformance,response_schema_conformance \
    -n "$EXAMPLES" --seed "$SEED" --generation-deterministic --workers 1 --no-color \
    >"$OUT/$role.txt" 2>&1
  code=$?
  set -e
  summary=$(grep -E "^(Test cases|API Operations|Failures|[0-9]+ (passed|failed))|Operations:|Test cases:|passed|failed" \
    "$OUT/$role.txt" | tail -4 | tr '\n' ' ' || true)
  echo "$role: exit $code; $summary"
  [ $code -eq 0 ] || total_failures=$((total_failures + 1))
done

# Pages and exports with hostile query parameters and path segments, as the administrator (who may see them all).
pages=$($PY - "$PORT" <<'EOF'
import sys
import requests
port = sys.argv[1]
session = requests.Session()
base = f"http://127.0.0.1:{port}"
page = session.get(f"{base}/accounts/login/")
token = session.cookies["csrftoken"]
session.post(f"{base}/accounts/login/", data={"username": "admin", "password": "demo-admin",
                                             "csrfmiddlewaretoken": token}, headers={"Referer": base})
days = ["9999-12-31", "0001-01-01", "2024-13-01", "abc", "%00", "2024-02-30", "-1", "9" * 40]
paths = ["/rake/?day={}", "/rake/export.csv?day={}", "/irregularities/?day={}", "/counts/?day={}",
         "/dealers/?start={}", "/accounting/master-game-report/{}/", "/accounting/master-game-report/{}/report.csv",
         "/accounting/master-game-report/{}/report.pdf", "/accounting/reconciliation/{}/",
         "/accounting/forms/{}/forms.csv", "/accounting/forms/{}/forms.pdf", "/tables/{}/", "/rounds/{}/",
         "/jackpot/claims/{}/", "/api/rounds/?gaming_day={}", "/api/rounds/?table={}", "/api/rake-records/?gaming_day={}",
         "/api/rounds/?limit={}", "/api/rounds/?offset={}"]
errors = requests_sent = 0
for path in paths:
    for day in days:
        response = session.get(base + path.format(day), allow_redirects=False)
        requests_sent += 1
        if response.status_code >= 500:
            errors += 1
            print("500:", path.format(day), file=sys.stderr)
print(f"{requests_sent} {errors}")
EOF
)
read -r sent errors <<<"$pages"
echo "pages: $sent hostile page requests, $errors server errors"
[ "$errors" -eq 0 ] || total_failures=$((total_failures + 1))
echo "server errors logged by gunicorn: $(grep -c 'Traceback' "$OUT/gunicorn.log" || true); reports in $OUT"
exit $total_failures
