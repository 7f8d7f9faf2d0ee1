"""Settings from the environment (django-environ). With nothing set, the demo runs on the embedded PostgreSQL of
`.pgdata/` (pokerroom/embedded_db.py; `make demo` starts it) with eager Celery tasks; production and the test suite
set DATABASE_URL and REDIS_URL. PostgreSQL only, everywhere (design.md, "One engine")."""
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from whitenoise.compress import Compressor

from pokerroom import embedded_db

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
environ.Env.read_env(str(BASE_DIR / ".env"))  # optional file; real environment variables win

DEBUG = env.bool("DJANGO_DEBUG", default=False)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-demo-key" if DEBUG else "")
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY (or DJANGO_DEBUG=true for the demo).")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# A form refused by the CSRF check gets the room's styled page, which says nothing was saved and what to do.
CSRF_FAILURE_VIEW = "apps.core.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_guid",  # X-Request-ID on every response and in every log line (apps.core.middleware)
    "health_check",  # /health/live/ and /health/ready/ (apps.core.health)
    "django.forms",  # the form templates of Django, found by FORM_RENDERER (TemplatesSetting) beside ours
    "rest_framework",
    "knox",
    "axes",
    "csp",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "pgtrigger",
    "pghistory",
    "rules.apps.AutodiscoverRulesConfig",
    "apps.core",
    "apps.casinos",
    "apps.tables",
    "apps.rounds",
    "apps.decks",
    "apps.irregularities",
    "apps.dealers",
    "apps.seats",
    "apps.rake",
    "apps.badbeat",
    "apps.counts",
    "apps.multicasino",
    "apps.feed",
    "apps.floor",
    "apps.screens",
    "apps.compliance",
    "apps.qualifiers",
    "apps.public",
]

MIDDLEWARE = [
    # First, so that every answer (an error's too) carries X-Request-ID and every log line of the request names it.
    "django_guid.middleware.guid_middleware",
    # A database that cannot serve now answers 503 with Retry-After; an API error escaping a view, 500 in JSON.
    "apps.core.middleware.FaultMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Cache-Control: no-store on every answer to a signed-in request (pages, API, exports) that sets none of its own.
    "apps.core.no_store.NoStoreMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out sign-in into the lockout page (apps.core.lockout)
    # Stamps the audit trail (pghistory's events, written by its triggers) with the signed-in user and the URL.
    "pghistory.middleware.HistoryMiddleware",
]

ROOT_URLCONF = "pokerroom.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "apps.casinos.context_processors.staff",
                "apps.core.navigation.navigation",
            ],
        },
    },
]
# Every form printed as {{ form }} (or field by field with as_field_group) shows a summary of its errors at the top,
# each linked to its field by label, and each error beside its field, the input marked aria-invalid and described by
# it: templates/forms/ and templates/includes/form_errors.html (apps.core.forms.FormRenderer).
FORM_RENDERER = "apps.core.forms.FormRenderer"
WSGI_APPLICATION = "pokerroom.wsgi.application"

# With no DATABASE_URL, the embedded server's app role (`make demo` starts the server and migrates as its owner).
DATABASES = {"default": env.db("DATABASE_URL", default=embedded_db.url(embedded_db.APP))}
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("DATABASE_URL must name a PostgreSQL database (postgres://...): PostgreSQL only.")
# A unix socket's directory given as libpq's `?host=` (the embedded server's URLs) is the HOST that Django, the suite's
# role set-up and the fault harnesses read.
if not DATABASES["default"]["HOST"] and "host" in DATABASES["default"].get("OPTIONS", {}):
    DATABASES["default"]["HOST"] = DATABASES["default"]["OPTIONS"].pop("host")
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A worker keeps its database connection between requests (seconds; 0 opens one a request): a new PostgreSQL
# connection costs a server process and its authentication, several milliseconds on every request. A connection
# found broken is replaced before the request uses it (CONN_HEALTH_CHECKS).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Bounded waits (design.md, "Faults"): every connection — web, Celery, commands — gives up on a row lock after
# DATABASE_LOCK_TIMEOUT_MS and on a statement after DATABASE_STATEMENT_TIMEOUT_MS, well under gunicorn's timeout
# (30 s), and on connecting after DATABASE_CONNECT_TIMEOUT_S. A request that hits one answers 503 with Retry-After,
# having written nothing (apps.core.unavailable); a task retries with backoff. Work whose long statements are
# legitimate (migrate, the daily close) lifts the statement timeout for itself (apps.core.unavailable.
# statement_timeout); the lock timeout stays. 0 turns a timeout off.
DATABASE_LOCK_TIMEOUT_MS = env.int("DATABASE_LOCK_TIMEOUT_MS", default=3_000)
DATABASE_STATEMENT_TIMEOUT_MS = env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=10_000)
DATABASE_CONNECT_TIMEOUT_S = env.int("DATABASE_CONNECT_TIMEOUT_S", default=3)
DATABASE_LONG_STATEMENT_TIMEOUT_MS = env.int("DATABASE_LONG_STATEMENT_TIMEOUT_MS", default=600_000)  # the daily close
_options = DATABASES["default"].setdefault("OPTIONS", {})
_options["options"] = " ".join(filter(None, [
    _options.get("options", ""), f"-c lock_timeout={DATABASE_LOCK_TIMEOUT_MS}",
    f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS}"]))
_options.setdefault("connect_timeout", DATABASE_CONNECT_TIMEOUT_S)
# Production connects (DATABASE_URL) as a role that owns nothing and may only read and add the append-only records;
# `migrate` runs as the owner (DATABASE_URL=$MIGRATION_DATABASE_URL) and then grants this role its privileges
# (apps/core/database_roles.py; README, "Database roles"); so does `make demo` on the embedded server (pokerroom_app).
# Unset, nothing is granted.
DATABASE_APP_ROLE = env("DATABASE_APP_ROLE", default="")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "casinos.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out sign-in before any password is checked
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"  # each role's first page (apps.core.home)
LOGOUT_REDIRECT_URL = "login"

# Sign-in lockout (django-axes): AXES_FAILURE_LIMIT failed sign-ins for a user name, or from an address, within the
# cool-off lock that user name, or that address, for the cool-off; every attempt meanwhile (right password or not)
# fails and restarts it. The sign-in page and POST /api/token/ both count. An administrator unlocks in the admin
# (Access attempts -> "Unlock"), which records who unlocked whom (apps.core.models.SignInUnlock); axes keeps every
# attempt (AccessAttempt), failure (AccessFailureLog) and sign-in (AccessLog).
AXES_FAILURE_LIMIT = env.int("DJANGO_LOCKOUT_FAILURES", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("DJANGO_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # per user name and, separately, per address
AXES_LOCKOUT_CALLABLE = "apps.core.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "apps.core.clients.client_address"
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_ENABLE_ADMIN = False  # apps.core.admin registers axes' models for administrators, with the unlock action
AXES_RESET_ON_SUCCESS = False  # a success does not wipe an address's failures (a guesser could interleave one)
AXES_VERBOSE = False
# Proxies in front of gunicorn that append to X-Forwarded-For (docker-compose: 1); 0 trusts only REMOTE_ADDR. The
# lockout (apps.core.clients) and the API's throttles (NUM_PROXIES) read the client's address the same way.
TRUSTED_PROXY_COUNT = env.int("DJANGO_TRUSTED_PROXY_COUNT", default=0)

LANGUAGE_CODE = "en-us"
# How amounts are written (apps.core.money.dollars, the `money` template filter): a CLDR locale, Babel's data.
MONEY_LOCALE = env("MONEY_LOCALE", default="en_US")
# The paper the printable reports (PDF) are laid out on: a CSS page size keyword (apps.core.templatetags.pokerroom
# .pdf_page_size), US Letter in a New Jersey casino; A4, Legal, Ledger, A3, A5, B4, B5 also.
PDF_PAGE_SIZE = env("PDF_PAGE_SIZE", default="Letter")
# How dates and times read on every page (Django's DATE_FORMAT, DATETIME_FORMAT, ... for the room's language):
# pokerroom/formats/en/formats.py, "Nov 24, 2026" and "Nov 24, 2026 09:55".
FORMAT_MODULE_PATH = ["pokerroom.formats"]
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("DJANGO_STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# collectstatic keeps only the hashed names the pages link to ({% static %}; CSS url() and source-map comments are
# rewritten to them), and does not compress source maps, which only a browser's developer tools fetch: half the
# files and a quarter of the time (26 s -> 7 s on this machine, 48 MB -> 21 MB).
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # Authorization: Token <token> from POST /api/token/ (apps.core.apis); knox's, checking only the token presented
        "apps.core.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "apps.core.pagination.BoundedLimitOffsetPagination",  # at most 200 a page
    "PAGE_SIZE": 50,
    # Throttles (in the cache: Redis). Generous per user and per address for the whole API; strict on the token
    # endpoint, where a password is guessed. A throttled request answers 429 {"detail": ...} with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env("DJANGO_THROTTLE_ANON", default="300/min"),
        "user": env("DJANGO_THROTTLE_USER", default="1200/min"),
        "api_token": env("DJANGO_THROTTLE_TOKEN", default="10/min"),
        # the official public feed, GET /api/public/<code>/, per client address (apps.public.apis)
        "public_feed": env("DJANGO_THROTTLE_PUBLIC_FEED", default="60/min"),
        # the room's public page, /public/<code>/, per client address (apps.public.views): the phones of a room may
        # share one address, each polling twice a minute
        "public_page": env("DJANGO_THROTTLE_PUBLIC_PAGE", default="600/min"),
        # the waitlist kiosk's sign-ups, per kiosk link (apps.screens.kiosk): a patron takes longer than 5 s to type
        "kiosk": env("DJANGO_THROTTLE_KIOSK", default="12/min"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_SCHEMA_CLASS": "apps.core.schema.ApiSchema",  # declares every operation's error answers
    # JSON bounded in size and depth, finite numbers only (apps.core.parsers); forms within DATA_UPLOAD_MAX_*.
    "DEFAULT_PARSER_CLASSES": [
        "apps.core.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "pokerroom.api.exception_handler",
    "COERCE_DECIMAL_TO_STRING": True,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "pokerroom API",
    "DESCRIPTION": "Rounds of play, rake and the bad-beat jackpot of a New Jersey poker room (N.J.A.C. 13:69F).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # served from our static files, no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # no deep links: Swagger UI puts each one inside its operation's button (a link in a button, which a keyboard or a
    # screen reader cannot reach on its own: axe-core's nested-interactive, tests/browser/test_accessibility.py)
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "PayoutMethodEnum": "apps.badbeat.models.PayoutMethod",
        "CountMethodEnum": "apps.counts.models.CountMethod",
        "RakeStructureMethodEnum": "apps.rake.models.RakeMethod",  # the rake structure's body and answer alike
        "CountReasonEnum": "apps.counts.models.CountReason",
        "DisplayReasonEnum": "apps.badbeat.models.DisplayReason",
        "CorrectionKindEnum": "apps.counts.models.CorrectionKind",
        "JackpotKindEnum": "apps.badbeat.models.JackpotKind",  # the jackpots' API and the public feed (apps.public)
        "GameEnum": "apps.tables.models.Game",  # every game a table deals (tables, rounds, rake, feed)
        "QualifierGameEnum": "apps.qualifiers.designer.GAMES",  # the games the qualifier designer deals (its API)
    },
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    # Generated without a request (check --deploy), the schema is read by a user of no casino (apps.core.schema).
    "GET_MOCK_REQUEST": "apps.core.schema.build_mock_request",
}
# Hostile input (apps.core.parsers): a JSON body of at most API_JSON_MAX_BYTES (a PHH text of the 10,000 Pluribus hands,
# about 6 MB, goes in one POST) nesting at most API_JSON_MAX_DEPTH arrays and objects; otherwise 400. Form and multipart
# bodies (pages, the API's form posts) keep Django's bounds: 2.5 MB outside files, 1,000 fields.
API_JSON_MAX_BYTES = env.int("DJANGO_API_JSON_MAX_BYTES", default=16 * 1024 * 1024)
API_JSON_MAX_DEPTH = env.int("DJANGO_API_JSON_MAX_DEPTH", default=32)
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1_000
# API tokens (django-rest-knox): stored hashed, expire after DJANGO_API_TOKEN_HOURS, revoked at log-out.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.float("DJANGO_API_TOKEN_HOURS", default=10)),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

REDIS_URL = env("REDIS_URL", default="")
# The broker is REDIS_URL's server unless CELERY_BROKER_URL names another (the fault harness runs two, so that the
# broker can fail without the cache).
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# A broker that is down or hung never holds a request (design.md, "Faults"): connecting and publishing give up
# within about CELERY_BROKER_TIMEOUT_S, and apps.core.tasks.send_task logs the failure instead of raising it. The
# work was recorded first (an import job, an outbox message) and a beat sweeper sends it again.
CELERY_BROKER_TIMEOUT_S = env.float("CELERY_BROKER_TIMEOUT_S", default=1.0)
CELERY_BROKER_CONNECTION_TIMEOUT = CELERY_BROKER_TIMEOUT_S
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": CELERY_BROKER_TIMEOUT_S,
                                   "socket_connect_timeout": CELERY_BROKER_TIMEOUT_S,
                                   "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
# A worker whose broker went away keeps trying to reconnect (it is the consumer; nothing waits on it).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
# Heartbeats, claims and notices between casinos go on a queue of their own (14.20(e)4: suspension within
# seconds, notices to every casino at once); docker-compose runs a worker for it beside the general one.
MULTICASINO_LINK_QUEUE = env("MULTICASINO_LINK_QUEUE", default="link")
CELERY_TASK_ROUTES = {"apps.multicasino.tasks.heartbeat": {"queue": MULTICASINO_LINK_QUEUE}}
PHH_ASYNC_IMPORT_HANDS = env.int("PHH_ASYNC_IMPORT_HANDS", default=1000)  # an API import of more runs as a job
PHH_IMPORT_BATCH = env.int("PHH_IMPORT_BATCH", default=200)  # rounds an import writes per transaction
# PHH import jobs (apps.feed.services.sweep_import_jobs): sent again when never sent after IMPORT_JOB_SEND_GRACE_S,
# still queued IMPORT_JOB_RESEND_AFTER_S after sending (doubling), or running with no progress for
# IMPORT_JOB_STALE_AFTER_S.
IMPORT_JOB_SEND_GRACE_S = env.float("IMPORT_JOB_SEND_GRACE_S", default=5.0)
IMPORT_JOB_RESEND_AFTER_S = env.float("IMPORT_JOB_RESEND_AFTER_S", default=300.0)
IMPORT_JOB_STALE_AFTER_S = env.float("IMPORT_JOB_STALE_AFTER_S", default=300.0)
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "deck-rotation-alerts": {"task": "apps.decks.tasks.refresh_all_deck_alerts", "schedule": 60.0},
    "bad-beat-rule-changes": {"task": "apps.badbeat.tasks.apply_rule_changes", "schedule": 60.0},
    "close-gaming-days": {"task": "apps.counts.tasks.close_gaming_days", "schedule": 300.0},
    "multicasino-heartbeat": {"task": "apps.multicasino.tasks.heartbeat", "schedule": 2.0},
    "multicasino-sweep-outbox": {"task": "apps.multicasino.tasks.sweep_outbox", "schedule": 5.0},
    "expire-idempotency-keys": {"task": "apps.core.tasks.expire_idempotency_keys", "schedule": 3600.0},
    "expire-api-tokens": {"task": "apps.core.tasks.expire_api_tokens", "schedule": 3600.0},
    # the room's posted seat and waitlist rules, on time (apps.seats.services; each idempotent)
    "seats-expire-sign-ups": {"task": "apps.seats.tasks.expire_sign_ups", "schedule": 60.0},
    "seats-away-limit": {"task": "apps.seats.tasks.enforce_away_limit", "schedule": 60.0},
    "seats-purge-players": {"task": "apps.seats.tasks.purge_players", "schedule": 3600.0},
    # import jobs recorded but never sent (broker down), or lost with their message or their worker (apps.feed)
    "feed-sweep-import-jobs": {"task": "apps.feed.tasks.sweep_import_jobs",
                               "schedule": env.float("IMPORT_JOB_SWEEP_SECONDS", default=30.0)},
}
# The cache fails open (apps.core.cache): with Redis down or hung, throttles allow and caches miss, after at most
# CACHE_SOCKET_TIMEOUT_S; then the process skips Redis for CACHE_FAIL_OPEN_SECONDS before trying again.
CACHE_SOCKET_TIMEOUT_S = env.float("CACHE_SOCKET_TIMEOUT_S", default=0.25)
CACHE_FAIL_OPEN_SECONDS = env.float("CACHE_FAIL_OPEN_SECONDS", default=5.0)
CACHES = {
    "default": (
        {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL,
         "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": CACHE_SOCKET_TIMEOUT_S, "SOCKET_TIMEOUT": CACHE_SOCKET_TIMEOUT_S,
                     "IGNORE_EXCEPTIONS": True, "CONNECTION_POOL_CLASS": "apps.core.cache.FailOpenConnectionPool"}}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# X-Request-ID (django-guid): a valid UUID sent by the client or the proxy is kept, anything else replaced.
DJANGO_GUID = {"GUID_HEADER_NAME": "X-Request-ID", "VALIDATE_GUID": True, "RETURN_HEADER": True,
               "EXPOSE_HEADER": False}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False  # apps.core.cache logs an outage once, and counts every operation

# How a signed message reaches another deployment's inbox (14.20(e)2); tests put a fake in its place (the fault
# harness routes messages through its proxy by the peers' inbox URLs).
MULTICASINO_TRANSPORT = env("MULTICASINO_TRANSPORT", default="apps.multicasino.transport.http_post")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # no display link's token in a log line: it alone opens the screen (apps.screens.access_log); each line names the
    # request it belongs to (X-Request-ID, django-guid; "-" outside a request)
    "filters": {"no_display_links": {"()": "apps.screens.access_log.RedactFilter"},
                "request_id": {"()": "apps.core.middleware.RequestIdFilter"}},
    "formatters": {"with_request_id": {"format": "%(levelname)s %(name)s [request %(request_id)s] %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["no_display_links", "request_id"],
                             "formatter": "with_request_id"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}

# Content-Security-Policy (django-csp): scripts and styles from our own static files only — no inline script, no
# inline style, no event-handler attribute (htmx's indicator style is in app.css: see base.html's htmx-config).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    # Behind a proxy that terminates TLS and sets X-Forwarded-Proto (and overwrites one sent by a client).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The suite and the fault harness speak plain http to the test client and to gunicorn: they set it false.
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    # compose's and a load balancer's probes speak plain http to gunicorn (apps.core.health)
    SECURE_REDIRECT_EXEMPT = [r"^health/"]
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
