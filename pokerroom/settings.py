"""Settings from the environment (django-environ). With nothing set, the demo runs on SQLite with
eager Celery tasks; production and the test suite set DATABASE_URL (PostgreSQL) and REDIS_URL."""
from pathlib import Path

import environ

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

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
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
    "apps.rake",
    "apps.badbeat",
    "apps.counts",
    "apps.multicasino",
    "apps.feed",
    "apps.floor",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
            ],
        },
    },
]
WSGI_APPLICATION = "pokerroom.wsgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "casinos.User"
AUTHENTICATION_BACKENDS = [
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "floor:dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
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

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
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
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "PayoutMethodEnum": "apps.badbeat.models.PayoutMethod",
        "CountMethodEnum": "apps.counts.models.CountMethod",
        "CountReasonEnum": "apps.counts.models.CountReason",
        "DisplayReasonEnum": "apps.badbeat.models.DisplayReason",
    },
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
}

REDIS_URL = env("REDIS_URL", default="")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = TIME_ZONE
# Heartbeats, claims and notices between casinos go on a queue of their own (14.20(e)4: suspension within
# seconds, notices to every casino at once); docker-compose runs a worker for it beside the general one.
MULTICASINO_LINK_QUEUE = env("MULTICASINO_LINK_QUEUE", default="link")
CELERY_TASK_ROUTES = {"apps.multicasino.tasks.heartbeat": {"queue": MULTICASINO_LINK_QUEUE}}
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "deck-rotation-alerts": {"task": "apps.decks.tasks.refresh_all_deck_alerts", "schedule": 60.0},
    "bad-beat-rule-changes": {"task": "apps.badbeat.tasks.apply_rule_changes", "schedule": 60.0},
    "close-gaming-days": {"task": "apps.counts.tasks.close_gaming_days", "schedule": 300.0},
    "multicasino-heartbeat": {"task": "apps.multicasino.tasks.heartbeat", "schedule": 2.0},
    "multicasino-sweep-outbox": {"task": "apps.multicasino.tasks.sweep_outbox", "schedule": 5.0},
}
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# How a signed message reaches another deployment's inbox (14.20(e)2); tests put a fake in its place (the fault
# harness routes messages through its proxy by the peers' inbox URLs).
MULTICASINO_TRANSPORT = env("MULTICASINO_TRANSPORT", default="apps.multicasino.transport.http_post")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="WARNING")},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Stamps the audit trail (pghistory events) with the user and URL; its triggers exist on PostgreSQL only.
    MIDDLEWARE.append("pghistory.middleware.HistoryMiddleware")
else:
    # The demo's SQLite cannot express "one open alert per table and kind" (NULLS NOT DISTINCT); PostgreSQL,
    # where the suite and production run, enforces it.
    SILENCED_SYSTEM_CHECKS = ["models.W047"]
