"""cardroom.settings.env: good values are parsed, malformed ones are refused by name."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from cardroom.settings.env import (
    database_from_env,
    env_bool,
    env_list,
    env_required,
    migration_database_from_env,
    redis_from_env,
)

ROOT = Path(__file__).resolve().parents[2]


def test_a_blank_variable_counts_as_unset():
    assert env_required("NAME", environ={"NAME": " value "}) == "value"
    assert env_bool("FLAG", True, environ={"FLAG": "  "}) is True
    with pytest.raises(ImproperlyConfigured, match="NAME must be set"):
        env_required("NAME", environ={"NAME": "  "})


def test_env_reads_the_process_environment_when_given_no_mapping(monkeypatch):
    monkeypatch.setenv("CARDROOM_TEST_FLAG", "yes")
    assert env_bool("CARDROOM_TEST_FLAG", False) is True


def test_env_required_names_the_missing_variable():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY"):
        env_required("DJANGO_SECRET_KEY", environ={})


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("ON", True),
        ("0", False),
        ("false", False),
        ("No", False),
        ("off", False),
    ],
)
def test_env_bool_accepts_the_usual_spellings(raw, expected):
    assert env_bool("DJANGO_DEBUG", not expected, environ={"DJANGO_DEBUG": raw}) is expected


def test_env_bool_falls_back_to_the_default_when_unset():
    assert env_bool("DJANGO_DEBUG", True, environ={}) is True


def test_env_bool_refuses_a_non_boolean_and_names_the_variable():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG.*'maybe'"):
        env_bool("DJANGO_DEBUG", False, environ={"DJANGO_DEBUG": "maybe"})


def test_env_list_splits_on_commas_and_drops_empty_items():
    environ = {"DJANGO_ALLOWED_HOSTS": "a.example, b.example,,"}
    assert env_list("DJANGO_ALLOWED_HOSTS", environ=environ) == ["a.example", "b.example"]


def test_env_list_can_require_a_value_and_names_the_variable():
    with pytest.raises(ImproperlyConfigured, match="DJANGO_ALLOWED_HOSTS"):
        env_list("DJANGO_ALLOWED_HOSTS", required=True, environ={"DJANGO_ALLOWED_HOSTS": ","})


def test_without_database_url_the_database_is_the_sqlite_file_in_the_project_folder(tmp_path):
    config = database_from_env(tmp_path, environ={})
    assert config == {"ENGINE": "django.db.backends.sqlite3", "NAME": tmp_path / "db.sqlite3"}


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_a_postgres_database_url_selects_the_postgresql_backend(tmp_path, scheme):
    url = f"{scheme}://cardroom:secret@db.internal:5433/cardroom"
    config = database_from_env(tmp_path, environ={"DATABASE_URL": url})
    assert config["ENGINE"] == "django.db.backends.postgresql"
    connection = {key: config[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT")}
    assert connection == {
        "NAME": "cardroom",
        "USER": "cardroom",
        "PASSWORD": "secret",
        "HOST": "db.internal",
        "PORT": 5433,
    }


def test_a_sqlite_database_url_selects_the_sqlite_backend(tmp_path):
    config = database_from_env(tmp_path, environ={"DATABASE_URL": "sqlite:////tmp/other.db"})
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/tmp/other.db"


@pytest.mark.parametrize(
    "url",
    [
        "foo",
        "mysql://user@db.internal/cardroom",
        "postgres://user@db.internal",
        "postgres://user@db.internal:port/cardroom",
    ],
)
def test_a_malformed_database_url_is_refused_by_name(tmp_path, url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_env(tmp_path, environ={"DATABASE_URL": url})


def test_a_refused_database_url_does_not_echo_its_password(tmp_path):
    with pytest.raises(ImproperlyConfigured) as refused:
        database_from_env(tmp_path, environ={"DATABASE_URL": "mysql://u:hunter2@h/db"})
    assert "hunter2" not in str(refused.value)


def test_without_redis_url_there_is_no_redis():
    assert redis_from_env(environ={}) is None


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/0", "redis://:pw@cache.internal", "rediss://cache.internal/2"]
)
def test_a_well_formed_redis_url_is_returned_as_is(url):
    assert redis_from_env(environ={"REDIS_URL": url}) == url


@pytest.mark.parametrize(
    "url", ["http://x", "redis://", "redis://:pw@/0", "redis://host:port/0", "redis://host/zero"]
)
def test_a_malformed_redis_url_is_refused_by_name(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        redis_from_env(environ={"REDIS_URL": url})


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_manage_py_refuses_to_start_with_a_nonsense_database_url():
    result = _manage("check", DATABASE_URL="nonsense")
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_production_settings_refuse_to_start_without_a_secret_key():
    environ = {"DJANGO_SETTINGS_MODULE": "cardroom.settings.production", "DJANGO_SECRET_KEY": ""}
    result = _manage("check", **environ)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_migrations_run_as_the_owner_named_by_migration_database_url():
    """Database roles: an optional second URL, the owner role ``migrate`` connects as; its
    tests mirror the default's test database."""
    assert migration_database_from_env(environ={}) is None
    config = migration_database_from_env(
        environ={"MIGRATION_DATABASE_URL": "postgres://owner:secret@db:5432/cardroom"}
    )
    assert (config["USER"], config["NAME"], config["HOST"]) == ("owner", "cardroom", "db")
    assert config["TEST"] == {"MIRROR": "default"}
    with pytest.raises(ImproperlyConfigured, match="MIGRATION_DATABASE_URL must look like"):
        migration_database_from_env(environ={"MIGRATION_DATABASE_URL": "mysql://x@y/z"})
