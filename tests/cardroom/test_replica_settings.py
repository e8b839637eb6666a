"""DATABASE_REPLICA_URL: a PostgreSQL streaming replica of DATABASE_URL's database, read once,
refused by name when it cannot be one (cardroom.settings.env)."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from cardroom.settings.env import replica_database_from_env

PRIMARY = "postgres://cardroom@primary:5432/cardroom"


def test_without_database_replica_url_there_is_no_replica():
    assert replica_database_from_env(environ={"DATABASE_URL": PRIMARY}) is None
    assert replica_database_from_env(environ={"DATABASE_REPLICA_URL": "  "}) is None


def test_a_replica_url_is_the_replica_database_with_a_short_connect_timeout():
    config = replica_database_from_env(
        environ={
            "DATABASE_URL": PRIMARY,
            "DATABASE_REPLICA_URL": "postgresql://cardroom:secret@replica-1:5433/cardroom",
        }
    )
    assert config is not None
    assert (config["ENGINE"], config["HOST"], config["PORT"], config["NAME"]) == (
        "django.db.backends.postgresql",
        "replica-1",
        5433,
        "cardroom",
    )
    # a replica that does not answer is left aside in seconds, not waited on for minutes
    assert config["OPTIONS"]["connect_timeout"] == 3
    # tests read the default's test database through it
    assert config["TEST"] == {"MIRROR": "default"}


@pytest.mark.parametrize(
    "environ",
    [
        {"DATABASE_REPLICA_URL": "sqlite:///replica.sqlite3", "DATABASE_URL": PRIMARY},
        {"DATABASE_REPLICA_URL": "postgres://x@replica:5432/cardroom"},  # the primary is SQLite
        {
            "DATABASE_REPLICA_URL": "postgres://x@replica:5432/cardroom",
            "DATABASE_URL": "sqlite:///a",
        },
    ],
)
def test_a_replica_that_cannot_be_a_postgresql_streaming_replica_is_refused_by_name(environ):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_REPLICA_URL must be a PostgreSQL"):
        replica_database_from_env(environ=environ)


@pytest.mark.parametrize("url", ["mysql://x@y/z", "postgres://x@replica:5432/"])
def test_a_malformed_replica_url_is_refused_by_name_without_its_password(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_REPLICA_URL") as refused:
        replica_database_from_env(environ={"DATABASE_URL": PRIMARY, "DATABASE_REPLICA_URL": url})
    assert "secret" not in str(refused.value)


def test_a_refused_replica_url_does_not_echo_its_password():
    with pytest.raises(ImproperlyConfigured) as refused:
        replica_database_from_env(
            environ={"DATABASE_URL": PRIMARY, "DATABASE_REPLICA_URL": "mysql://u:hunter2@h/db"}
        )
    assert "hunter2" not in str(refused.value)
    assert "***" in str(refused.value)
