"""The one place the environment is read.

Settings modules call these helpers instead of touching ``os.environ``, so every variable is
parsed once, typed, and a malformed value stops start-up with a message naming the variable.
Each helper takes an optional ``environ`` mapping so it can be tested without patching.
"""

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_DATABASE_SCHEMES = frozenset({"postgres", "postgresql", "sqlite"})
_REDIS_SCHEMES = frozenset({"redis", "rediss"})


def _get(name: str, environ: Mapping[str, str] | None) -> str | None:
    """The variable's value, or None when it is unset or blank (blank means "use the default")."""
    value = (os.environ if environ is None else environ).get(name, "").strip()
    return value or None


def _redacted(value: str) -> str:
    """The URL for an error message, without its password."""
    password = urlsplit(value).password
    return value if password is None else value.replace(f":{password}@", ":***@", 1)


def env_required(name: str, *, environ: Mapping[str, str] | None = None) -> str:
    value = _get(name, environ)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set.")
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    value = _get(name, environ)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be a boolean (true/false, yes/no, on/off, 1/0), got {value!r}."
    )


def env_int(
    name: str, default: int, *, minimum: int = 0, environ: Mapping[str, str] | None = None
) -> int:
    """A whole number (ASCII digits) of at least ``minimum``."""
    value = _get(name, environ)
    if value is None:
        return default
    if not value.isascii() or not value.isdigit() or int(value) < minimum:
        raise ImproperlyConfigured(
            f"{name} must be a whole number of at least {minimum}, got {value!r}."
        )
    return int(value)


def env_choice(
    name: str, default: str, choices: tuple[str, ...], *, environ: Mapping[str, str] | None = None
) -> str:
    """One of ``choices`` (compared in upper case)."""
    value = _get(name, environ)
    if value is None:
        return default
    if value.upper() not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}.")
    return value.upper()


def env_list(
    name: str,
    default: list[str] | None = None,
    *,
    required: bool = False,
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """A comma-separated list; empty items are dropped."""
    value = _get(name, environ)
    items = [item.strip() for item in (value or "").split(",") if item.strip()]
    if items:
        return items
    if required:
        raise ImproperlyConfigured(f"{name} must be set to a comma-separated list.")
    return list(default or [])


def database_from_env(
    base_dir: Path, *, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``DATABASES["default"]``: DATABASE_URL if set, else the SQLite file ``db.sqlite3``."""
    value = _get("DATABASE_URL", environ)
    if value is None:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": base_dir / "db.sqlite3"}
    return _database("DATABASE_URL", value)


def migration_database_from_env(*, environ: Mapping[str, str] | None = None) -> dict | None:
    """``DATABASES["migrations"]``: MIGRATION_DATABASE_URL, the owner role ``migrate`` runs
    as (docs/production.md, "Database roles"), or None when unset."""
    value = _get("MIGRATION_DATABASE_URL", environ)
    if value is None:
        return None
    config = _database("MIGRATION_DATABASE_URL", value)
    # The same database as the application's: tests use the default's test database.
    config["TEST"] = {"MIRROR": "default"}
    return config


def replica_database_from_env(*, environ: Mapping[str, str] | None = None) -> dict | None:
    """``DATABASES["replica"]``: DATABASE_REPLICA_URL, a PostgreSQL streaming replica of
    DATABASE_URL's database that reports, exports and verifications read from
    (``core.replica``; docs/production.md, "Several machines"), or None when unset."""
    value = _get("DATABASE_REPLICA_URL", environ)
    if value is None:
        return None
    config = _database("DATABASE_REPLICA_URL", value)
    primary = _get("DATABASE_URL", environ) or ""
    if config["ENGINE"] != "django.db.backends.postgresql" or not primary.startswith(
        ("postgres://", "postgresql://")
    ):
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL must be a PostgreSQL streaming replica of DATABASE_URL's "
            f"PostgreSQL database (postgres://…), got {_redacted(value)!r}."
        )
    # A replica that does not answer is left aside within seconds (the report reads the
    # primary), not waited on for the operating system's minutes.
    config.setdefault("OPTIONS", {}).setdefault("connect_timeout", 3)
    # Tests read the default's test database through it (the replica replays the primary).
    config["TEST"] = {"MIRROR": "default"}
    return config


def _database(name: str, value: str) -> dict[str, Any]:
    url = urlsplit(value)
    if url.scheme not in _DATABASE_SCHEMES:
        raise ImproperlyConfigured(
            f"{name} must look like postgres://user@host:5432/name or sqlite:///path "
            f"(schemes: postgres, postgresql, sqlite), got {_redacted(value)!r}."
        )
    try:
        config = dj_database_url.parse(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} is malformed: {error}") from error
    if not config.get("NAME"):
        raise ImproperlyConfigured(f"{name} names no database: {_redacted(value)!r}.")
    return dict(config)


def redis_from_env(*, environ: Mapping[str, str] | None = None) -> str | None:
    """REDIS_URL after checking it, or None when unset (no broker: Celery runs eagerly)."""
    value = _get("REDIS_URL", environ)
    if value is None:
        return None
    problem = _redis_url_problem(value)
    if problem:
        raise ImproperlyConfigured(
            f"REDIS_URL must look like redis://host:6379/0, but {problem}: {_redacted(value)!r}."
        )
    return value


def _redis_url_problem(value: str) -> str | None:
    url = urlsplit(value)
    if url.scheme not in _REDIS_SCHEMES:
        return "its scheme must be redis or rediss"
    if not url.hostname:
        return "it names no host"
    try:
        url.port  # noqa: B018 -- reading it validates the port
    except ValueError:
        return "its port is not a number from 0 to 65535"
    database = url.path.strip("/")
    if database and not database.isdigit():
        return "its path must be a database number such as /0"
    return None


def field_encryption_keys(
    key_file: Path | None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """The Fernet keys that encrypt personal data at rest (``patrons``), newest first.

    FIELD_ENCRYPTION_KEY holds one key, or several separated by commas when a key is being
    rotated (the first encrypts, every one decrypts). Without it and with a ``key_file``
    (a laptop, ``./dev run``), the key is read from that file, which is made with a new key
    on first use, readable by its owner only, outside the database, and said so on stderr.
    Without either (production passes no file) start-up stops.
    """
    from cryptography.fernet import Fernet  # the settings' own import, made once at start

    keys = env_list("FIELD_ENCRYPTION_KEY", environ=environ)
    if not keys and key_file is None:
        raise ImproperlyConfigured(
            "FIELD_ENCRYPTION_KEY must be set: the key that encrypts players' ID numbers "
            '(make one with: python -c "from cryptography.fernet import Fernet; '
            'print(Fernet.generate_key().decode())").'
        )
    if not keys and key_file is not None:
        keys = [_local_key(key_file, Fernet.generate_key().decode())]
    for key in keys:
        try:
            Fernet(key)
        except ValueError:
            raise ImproperlyConfigured(
                "FIELD_ENCRYPTION_KEY must be Fernet keys (32 bytes, url-safe base64), "
                "separated by commas."
            ) from None
    return keys


def _local_key(key_file: Path, new_key: str, *, quiet: bool = False) -> str:
    if key_file.exists():
        return key_file.read_text().strip()
    key_file.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(new_key + "\n")
    if quiet:
        return new_key
    print(
        f"cardroom: FIELD_ENCRYPTION_KEY is not set; generated a local key in {key_file} "
        "to encrypt ID numbers. Keep it (without it they cannot be read) and never use it in "
        "production, which requires FIELD_ENCRYPTION_KEY.",
        file=sys.stderr,
    )
    return new_key


def audit_checkpoint_keys(
    key_file: Path | None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """The keys that sign audit checkpoints (``audit.signing``), newest first.

    AUDIT_CHECKPOINT_KEY holds one key (at least 32 characters, e.g. ``openssl rand -hex 32``),
    or several separated by commas while one is being rotated (the first signs, every one
    verifies). It must not be stored in the database: whoever can rewrite the database must not
    be able to sign. Without it and with a ``key_file`` (a laptop), the key is read from that
    file, made on first use and said so on stderr; production passes no file and requires it.
    """
    import secrets

    keys = env_list("AUDIT_CHECKPOINT_KEY", environ=environ)
    if not keys and key_file is None:
        raise ImproperlyConfigured(
            "AUDIT_CHECKPOINT_KEY must be set: the key that signs audit checkpoints, kept "
            "outside the database (make one with: openssl rand -hex 32)."
        )
    if not keys and key_file is not None:
        if not key_file.exists():
            print(
                f"cardroom: AUDIT_CHECKPOINT_KEY is not set; generating a local key in {key_file} "
                "to sign audit checkpoints. Never use it in production, which requires "
                "AUDIT_CHECKPOINT_KEY.",
                file=sys.stderr,
            )
        keys = [_local_key(key_file, secrets.token_hex(32), quiet=True)]
    if any(len(key) < 32 for key in keys):
        raise ImproperlyConfigured("AUDIT_CHECKPOINT_KEY: each key has at least 32 characters.")
    return keys
