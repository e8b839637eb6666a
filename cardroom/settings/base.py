"""Settings shared by every environment; local, test and production import and adjust them."""

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

from .env import (
    database_from_env,
    env_int,
    env_list,
    migration_database_from_env,
    redis_from_env,
    replica_database_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

#: True only under cardroom.settings.production: what must never run there checks it (load_demo).
PRODUCTION = False

# Good enough for a laptop and tests; production.py requires a real one.
SECRET_KEY = "django-insecure-cardroom-local-only"
DEBUG = False
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    # Swagger UI served from the package: /api/docs/ works with no internet.
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "cardroom.api",
    "tables",
    "wagers",
    "rake",
    "audit",
    "cage",
    "compliance",
    "patrons",
]

MIDDLEWARE = [
    # First: the client's address behind the proxy, and the request id every log line carries.
    "cardroom.middleware.TrustedProxyMiddleware",
    "cardroom.middleware.RequestIdMiddleware",
    # Before anything reads a form or a query: no NUL character in them (a 400).
    "cardroom.middleware.RefuseNulMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # What follows sees the signed-in person's cardrooms only.
    "cardroom.cardroom_scope.CardroomScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A password someone else chose is changed before anything else.
    "cardroom.screens.account.PasswordChangeDueMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout answer.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out username before any password is checked.
AUTHENTICATION_BACKENDS = [
    "cardroom.auth_backends.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Throttling logins (docs/production.md, "Logins"; cardroom.auth_backends): failures are counted per
# account and address pair; at the limit that pair waits a cool-off that doubles with each
# further failure (1 minute, 2, 4, … at most 15), never a lock an administrator must lift. An
# address's failures on every account count at a quarter each (20 make it wait likewise); an
# account failing 10 times in 15 minutes from anywhere takes one attempt per 30 seconds from
# addresses it never logged in from. The address is the client's, behind the proxy
# (TRUSTED_PROXY_COUNT).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = "cardroom.auth_backends.login_cool_off"
LOGIN_BACKOFF_FIRST = timedelta(minutes=1)
LOGIN_BACKOFF_MOST = timedelta(minutes=15)
#: A new account's one-time set-up link (tables.staff) works for a day.
PASSWORD_RESET_TIMEOUT = 24 * 60 * 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "cardroom.auth_backends.LoginAttempts"
AXES_RESET_ON_SUCCESS = True
LOGIN_ADDRESS_FAILURE_LIMIT = 20
LOGIN_ACCOUNT_FAILURE_LIMIT = 10
LOGIN_ACCOUNT_WINDOW = timedelta(minutes=15)
LOGIN_ACCOUNT_INTERVAL = timedelta(seconds=30)
# The account's failures from every address (the throttle above) are read from axes' failure
# log; an attempt the throttle held back is no failure.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_WHITELIST_CALLABLE = "cardroom.auth_backends.not_counted"
#: Reverse proxies in front of the app that append to X-Forwarded-For (production: 1).
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 0)

# Bounds on what a request may send (docs/api.md, "Bounds"): a body that is not a file upload (JSON,
# a form) is at most this many bytes — Django refuses a larger form and the API's JSON parser
# a larger JSON body, both before parsing it (a 400); the largest real one, a batch of six
# spots, is under 2 KB. Files are bounded by their own fields (an ID photo, a state list).
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
#: The largest state exclusion list accepted as a file (100,000 rows are about 12 MB).
EXCLUSION_LIST_MAX_BYTES = 64 * 1024 * 1024

ROOT_URLCONF = "cardroom.urls"
WSGI_APPLICATION = "cardroom.wsgi.application"

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
                "cardroom.screens.context_processors.role",
                "cardroom.screens.cardroom_choice.cardroom_choices",
            ],
            # The project package is not an app; its template tags are named here.
            "libraries": {
                "cardroom": "cardroom.screens.templatetags.cardroom",
                "waitlist": "cardroom.screens.templatetags.waitlist",
                "dealers": "cardroom.screens.templatetags.dealers",
            },
        },
    },
]

DATABASES = {"default": database_from_env(BASE_DIR)}
# Production separates two roles (docs/production.md, "Database roles"): the application
# connects as the runtime role (DATABASE_URL), which owns nothing and cannot switch the
# append-only triggers off; `migrate` runs as the owner, MIGRATION_DATABASE_URL, here the
# "migrations" alias (audit's migrate command uses it, then grants the runtime role).
if _migrations := migration_database_from_env():
    DATABASES["migrations"] = _migrations
# Reports, exports and verifications read from a streaming replica when DATABASE_REPLICA_URL
# names one (core.replica); writes, and every read inside a transaction, stay on the primary.
if _replica := replica_database_from_env():
    DATABASES["replica"] = _replica
DATABASE_ROUTERS = ["core.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# A session lasts no longer than a shift; a device's token neither (REST_KNOX's TOKEN_TTL).
SESSION_COOKIE_AGE = 12 * 60 * 60
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Exports (CSV files built by Celery tasks) are kept here; served only through a view that
# checks the role.
MEDIA_ROOT = BASE_DIR / "media"

# Players' ID numbers are encrypted at rest (patrons) with FIELD_ENCRYPTION_KEY, checked by
# each environment's settings: local.py falls back to a key file made on first use under
# var/, production.py requires the variable, test.py has a fixed key. ID_LOOKUP_KEY, optional,
# keys the hashes exclusions are matched on (default: derived from the first encryption key).
FIELD_ENCRYPTION_KEYS: list[str] = env_list("FIELD_ENCRYPTION_KEY")
ID_LOOKUP_KEY = env_list("ID_LOOKUP_KEY", [""])[0]

# Audit checkpoints are signed with AUDIT_CHECKPOINT_KEY (audit.signing), kept outside the
# database: local.py falls back to a key file made on first use under var/, production.py
# requires the variable, test.py has a fixed key. Each checkpoint is also appended, as a JSON
# line, to AUDIT_CHECKPOINT_SINK, a file outside the database (in production on storage that
# cannot be rewritten: docs/production.md); empty: no sink.
AUDIT_CHECKPOINT_KEYS: list[str] = env_list("AUDIT_CHECKPOINT_KEY")
AUDIT_CHECKPOINT_SINK = env_list(
    "AUDIT_CHECKPOINT_SINK", [str(BASE_DIR / "var" / "checkpoints.jsonl")]
)[0]

# The API: tokens for devices, sessions (with CSRF) for the screens; deny by
# default, each view naming the roles it admits; one error shape; paginated lists.
REST_FRAMEWORK = {
    # Token first, so that a request with no credentials is answered 401 with a challenge.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cardroom.api.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "cardroom.api.permissions.RolePermission",
    ],
    "EXCEPTION_HANDLER": "cardroom.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "cardroom.api.pagination.KeysetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "cardroom.api.schema.CardroomAutoSchema",
    "COERCE_DECIMAL_TO_STRING": True,
}
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=12),  # a dealer's shift; a device logs in again after
    "AUTO_REFRESH": False,
    "TOKEN_LIMIT_PER_USER": 10,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Cardroom API",
    "DESCRIPTION": "High Card Flush tables: settings, seats, hands, settlements, audit.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "cardroom.api.schema.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "BankingEnum": "tables.models.BANKING_CHOICES",
        "HandStatusEnum": "wagers.models.Hand.Status",
        "ExportStatusEnum": "compliance.models.Export.Status",
        "ExportKindEnum": "compliance.models.Export.Kind",
        "VerificationKindEnum": "compliance.models.VerificationRun.Kind",
        "SettlementKindEnum": "wagers.models.Settlement.Kind",
        "SettingChangeStatusEnum": "tables.staff_models.TwoPersonChange.Status",
        "PaytableKindEnum": "tables.models.PaytableKind",
        "PaytableActionEnum": "tables.staff_models.PaytableChange.Action",
        "InventoryCountKindEnum": "cage.models.InventoryCount.Kind",
        "SlipKindEnum": "cage.models.Slip.Kind",
        "CageCountKindEnum": "cage.models.CageCount.Kind",
        "CageEntryKindEnum": "cardroom.api.cage.cashier.ENTRY_KINDS",
        "ChipIssueDirectionEnum": "cage.models.ChipIssue.Direction",
        "PlayerCashDirectionEnum": "cardroom.api.cage.cashier.PLAYER_CASH_DIRECTIONS",
        "ExclusionKindEnum": "patrons.models.Exclusion.Kind",
        "IncidentKindEnum": "patrons.models.Incident.Kind",
        "IncidentEntryKindEnum": "patrons.models.IncidentEntry.Kind",
        "ReviewStatusEnum": "patrons.models.SuspiciousActivityReview.Status",
        "CtrStatusEnum": "patrons.models.CurrencyTransactionReport.Status",
        "MarkerIssuedAsEnum": "cage.models.Marker.IssuedAs",
        "DeviceKindEnum": "tables.models.ShufflerDevice.Kind",
        "SpotDecisionEnum": ["raise", "fold", "walked_away"],
    },
}

# Hold against theoretical (compliance.hold, game-math.md): a table's actual win is flagged
# when it lies outside theoretical ± z·σ·√n·(average wager).
HOLD_BAND_Z = Decimal(3)

# Redis is optional: without it tasks run inline and the cache lives in process memory,
# so a clone works with nothing but Python.
REDIS_URL = redis_from_env()
CELERY_TIMEZONE = TIME_ZONE
# `celery -A cardroom beat`: verify the audit chain and record a checkpoint.
CELERY_BEAT_SCHEDULE = {
    # At least every minute: the events at risk are those after the last one.
    "verify-audit-chain": {"task": "audit.verify_chain", "schedule": timedelta(minutes=1)},
    # Refusals are one event per account and minute: the tail of a burst is written here.
    "flush-refusals": {"task": "audit.flush_refusals", "schedule": timedelta(minutes=1)},
    # /health/deps/ reads beat's (and a worker's) heartbeat.
    "heartbeat": {"task": "cardroom.heartbeat", "schedule": timedelta(minutes=1)},
    # A seat call whose minutes ran out passes to the next player on its list.
    "pass-expired-seat-calls": {
        "task": "tables.pass_expired_seat_calls",
        "schedule": timedelta(seconds=30),
    },
    # The books against themselves and the engine: a run by no one.
    "verify-books": {"task": "compliance.verify_books", "schedule": timedelta(hours=1)},
    "fail-stalled-state-list-imports": {
        "task": "patrons.fail_stalled_state_list_imports",
        "schedule": timedelta(minutes=5),
    },
    # The compliance state against the audit log (self-approval, roles, exclusions, CTRs, a
    # settled hand's cards): hourly, beside the books.
    "verify-state": {"task": "compliance.verify_state", "schedule": timedelta(hours=1)},
    "fail-stalled-verifications": {
        "task": "compliance.fail_stalled_verifications",
        "schedule": timedelta(minutes=5),
    },
    # An export whose worker died is sent again, or marked failed for the user to retry.
    "requeue-stalled-exports": {
        "task": "compliance.requeue_stalled_exports",
        "schedule": timedelta(minutes=1),
    },
    # Settlement entries whose decisions a lost message left unvalued (player ratings).
    "sweep-decisions": {"task": "wagers.sweep_decisions", "schedule": timedelta(minutes=5)},
}
CELERY_TASK_EAGER_PROPAGATES = True
# Tasks are idempotent (design.md): a task's message is acknowledged when it has finished, so
# a worker killed mid-task leaves it to be delivered again (its child killed: at once; the
# whole worker: after the visibility timeout, or by the stalled-export sweep).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Publishing never makes a request hang on a broker that is down: a short connection timeout
# and one quick retry, then the caller is told (an export is marked failed, to be retried).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 0.5,
    # An unacknowledged task of a worker that vanished is delivered again after this (longer
    # than any task runs, or a slow export would be built twice at once).
    "visibility_timeout": 60 * 60,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
# The floor dashboard's push (cardroom.screens.floor_stream; docs/production.md): notices
# this close together go to a screen as one; a comment this often keeps an idle stream open
# (and finds a screen that is gone); a stream ends after this long and the browser opens it
# again (its sign-in and role checked again).
FLOOR_PUSH_COALESCE_SECONDS = 0.25
FLOOR_STREAM_HEARTBEAT_SECONDS = 15.0
FLOOR_STREAM_SECONDS = 300.0
#: Seconds a token's role is cached (cardroom.api.tokens). Only with Redis: the cache in process
#: memory is one worker's, and another worker would not hear that a role changed.
ROLE_CACHE_SECONDS = 300 if REDIS_URL else 0
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {
        "default": {
            "BACKEND": "core.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
