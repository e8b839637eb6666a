"""A deployment: refuses to start without its secret key and host names.

TLS ends at a reverse proxy in front of the application (docs/production.md): the proxy
sets ``X-Forwarded-Proto`` and appends the client's address to ``X-Forwarded-For``; these
settings trust exactly that much of it (``DJANGO_TRUSTED_PROXY_COUNT`` proxies). Logs are one
JSON object per line on stdout, each with the request id.
"""

from .base import *  # noqa: F403
from .env import (
    audit_checkpoint_keys,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_required,
    field_encryption_keys,
)

PRODUCTION = True
DEBUG = False
SECRET_KEY = env_required("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", required=True)
# No key file in production: the key that encrypts ID numbers comes from the environment.
FIELD_ENCRYPTION_KEYS = field_encryption_keys(None)
# The key of the ID lookup hashes, independent of the encryption keys, so that rotating those
# leaves every exclusion matching; changing this one needs `manage.py rehash_ids`.
ID_LOOKUP_KEY = env_required("ID_LOOKUP_KEY")
# Nor a key file for the key that signs audit checkpoints: it is required from the environment.
AUDIT_CHECKPOINT_KEYS = audit_checkpoint_keys(None)
# Needed when TLS ends at a proxy on another origin, e.g. https://cardroom.example.
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# --- TLS and the proxy --------------------------------------------------------------------------
#: How many proxies in front of the app append to X-Forwarded-For (docs/production.md: one).
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 1)
if env_bool("DJANGO_PROXY_SETS_FORWARDED_PROTO", True):
    # The proxy answers the client over TLS and says so; it must overwrite a client's header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
# A load balancer probes over plain HTTP inside the network: no redirect for /health/.
SECURE_REDIRECT_EXEMPT = [r"^health/"]
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31_536_000)  # a year
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)

# --- database connections ------------------------------------------------------------
# A connection per request costs a PostgreSQL backend start (~3-5 ms and a process) each time:
# each worker keeps its connection open (``DJANGO_CONN_MAX_AGE`` seconds, checked before reuse
# so a restarted database is not an error). With threaded workers, ``DJANGO_DB_POOL=true``
# uses psycopg's pool instead (Django 5.2's ``"pool"``; mutually exclusive with the above).
# The replica's connection (DATABASE_REPLICA_URL) is kept the same way.
for _alias in ("default", "replica"):
    _db = DATABASES.get(_alias)  # noqa: F405
    if not _db or _db["ENGINE"] != "django.db.backends.postgresql":
        continue
    if env_bool("DJANGO_DB_POOL", False):
        _db["CONN_MAX_AGE"] = 0
        _db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": env_int("DJANGO_DB_POOL_SIZE", 8),
        }
    else:
        _db["CONN_MAX_AGE"] = env_int("DJANGO_CONN_MAX_AGE", 600)
        _db["CONN_HEALTH_CHECKS"] = True

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True

# --- logging: JSON lines on stdout --------------------------------------------------------------
LOG_LEVEL = env_choice("DJANGO_LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "cardroom.logs.RequestIdFilter"}},
    "formatters": {"json": {"()": "cardroom.logs.JsonFormatter"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
            "filters": ["request_id"],
        }
    },
    # Everything at INFO and above, Django's request errors (every 5xx with its traceback,
    # 4xx as warnings) included; DJANGO_LOG_LEVEL=WARNING for less.
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
    },
}
