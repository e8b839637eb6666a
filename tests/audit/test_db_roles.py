"""Database roles: the role that owns the tables is not the role the
application runs as, so the application cannot switch the append-only triggers off.

On a fresh PostgreSQL database of its own: ``db_roles`` as a superuser creates the owner and
the runtime role, ``migrate`` runs as the owner (MIGRATION_DATABASE_URL) and grants the runtime
role; then, connected as the runtime role, disabling, dropping or altering a trigger, altering
a table, updating or deleting an audit event or a settlement are refused, while inserting and
reading an audit event work, and the application itself runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import errors

from tests import runtime_role

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="database roles are PostgreSQL's (DATABASE_URL=postgres://…)"
)


def _base() -> dict:
    config = settings.DATABASES["default"]
    name = config["NAME"].removeprefix("test_")
    return {
        "host": config.get("HOST") or "127.0.0.1",
        "port": str(config.get("PORT") or 5432),
        "user": runtime_role.ADMIN,  # the run itself connects as its runtime role
        "name": f"{name}_roles"[:50],
    }


BASE = _base() if POSTGRES else {}
FRESH = BASE.get("name", "")
OWNER, RUNTIME = f"{FRESH}_owner", f"{FRESH}_app"


def url(user: str) -> str:
    return f"postgres://{user}@{BASE['host']}:{BASE['port']}/{FRESH}"


def connect(user: str, dbname: str | None = None) -> psycopg.Connection:
    return psycopg.connect(
        host=BASE["host"],
        port=BASE["port"],
        user=user,
        dbname=dbname or FRESH,
        autocommit=True,
    )


def manage(*args: str, **environ: str) -> subprocess.CompletedProcess:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "MIGRATION_DATABASE_URL", "REDIS_URL")
    }
    env.update(DJANGO_SETTINGS_MODULE="cardroom.settings.test", **environ)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _drop(admin: psycopg.Connection) -> None:
    admin.execute(f'DROP DATABASE IF EXISTS "{FRESH}" WITH (FORCE)')
    for role in (OWNER, RUNTIME):
        admin.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.fixture(scope="module")
def fresh() -> Iterator[None]:
    """A fresh database; the roles made and the schema migrated the documented way."""
    with connect(BASE["user"], "postgres") as admin:
        _drop(admin)
        admin.execute(f'CREATE DATABASE "{FRESH}"')
        try:
            yield
        finally:
            _drop(admin)


@pytest.fixture(scope="module")
def migrated(fresh) -> dict[str, str]:
    superuser = url(BASE["user"])
    made = manage("db_roles", "--owner", OWNER, "--runtime", RUNTIME, DATABASE_URL=superuser)
    assert made.returncode == 0, made.stderr
    migrated = manage(
        "migrate", "-v", "1", DATABASE_URL=url(RUNTIME), MIGRATION_DATABASE_URL=url(OWNER)
    )
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    again = manage("db_roles", "--owner", OWNER, "--runtime", RUNTIME, DATABASE_URL=superuser)
    assert again.returncode == 0, again.stderr
    with connect(RUNTIME) as runtime:  # a row for the refused UPDATE and DELETE to meet
        runtime.execute(INSERT_EVENT, ["0" * 64, "f" * 64])
    return {"made": made.stdout, "migrated": migrated.stdout, "again": again.stdout}


def test_the_command_creates_the_roles_once_and_says_what_it_did(migrated):
    assert f"created role {OWNER}" in migrated["made"]
    assert f"created role {RUNTIME}" in migrated["made"]
    assert f"Granting {RUNTIME} its privileges" in migrated["migrated"]
    assert f"role {OWNER} exists" in migrated["again"]  # idempotent
    assert "created role" not in migrated["again"]
    assert f"{RUNTIME}: SELECT, INSERT on " in migrated["again"]
    assert "audit_auditevent" in migrated["again"] and "wagers_settlement" in migrated["again"]


def test_the_owner_owns_every_table_and_the_runtime_role_nothing(migrated):
    with connect(BASE["user"]) as admin:
        owners = dict(
            admin.execute(
                "SELECT pg_get_userbyid(c.relowner), count(*) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = 'public' AND c.relkind = 'r' GROUP BY 1"
            ).fetchall()
        )
        powers = admin.execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = %s",
            [RUNTIME],
        ).fetchone()
    assert set(owners) == {OWNER} and owners[OWNER] > 50
    assert powers == (False, False, False)


INSERT_EVENT = (
    "INSERT INTO audit_auditevent (seq, chain, chain_seq, occurred_at, actor_name, action, "
    "object_type, object_id, payload, prev_hash, hash) VALUES "
    "(1000001, 'global', 1000001, now(), 'attacker', 'auth.login', '', '', '{}', %s, %s)"
)

REFUSED = [
    "UPDATE audit_auditevent SET payload = '{}'",
    "DELETE FROM audit_auditevent",
    "TRUNCATE audit_auditevent",
    'ALTER TABLE audit_auditevent DISABLE TRIGGER "audit_auditevent_append_only"',
    "ALTER TABLE audit_auditevent DISABLE TRIGGER ALL",
    'DROP TRIGGER "audit_auditevent_append_only" ON audit_auditevent',
    "ALTER TABLE audit_auditevent ADD COLUMN note text",
    "UPDATE wagers_settlement SET house_rake = house_rake + 5",
    "DELETE FROM wagers_settlement",
    'ALTER TABLE wagers_settlement DISABLE TRIGGER "wagers_settlement_append_only"',
    'DROP TRIGGER "wagers_settlement_append_only" ON wagers_settlement',
    "ALTER TABLE wagers_settlement ALTER COLUMN house_rake DROP NOT NULL",
    "UPDATE rake_feeentry SET amount = 0",
    "DELETE FROM tables_stackentry",
    "DROP TABLE audit_auditevent",
    "CREATE TABLE evil (id int)",
    "CREATE OR REPLACE FUNCTION cardroom_refuse_change() RETURNS trigger AS "
    "$$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
    "SET session_replication_role = replica",
    "INSERT INTO django_migrations (app, name, applied) VALUES ('x', 'y', now())",
]


@pytest.mark.parametrize("statement", REFUSED)
def test_the_runtime_role_cannot(migrated, statement):
    with connect(RUNTIME) as runtime, pytest.raises(errors.InsufficientPrivilege):
        runtime.execute(statement)


def test_the_runtime_role_inserts_and_reads_an_audit_event_and_may_insert_a_settlement(migrated):
    with connect(RUNTIME) as runtime:
        runtime.execute(INSERT_EVENT.replace("1000001", "1000002"), ["1" * 64, "e" * 64])
        assert runtime.execute(
            "SELECT actor_name FROM audit_auditevent WHERE seq = 1000002"
        ).fetchone() == ("attacker",)
        privileges = runtime.execute(
            "SELECT has_table_privilege('wagers_settlement', 'INSERT'), "
            "has_table_privilege('wagers_settlement', 'SELECT'), "
            "has_table_privilege('wagers_settlement', 'UPDATE'), "
            "has_table_privilege('tables_seating', 'UPDATE'), "
            "has_table_privilege('tables_seating', 'DELETE')"
        ).fetchone()
    assert privileges == (True, True, False, True, True)


def test_the_application_runs_as_the_runtime_role(migrated):
    """A user made (a mutable table, its sequence) and an audit event appended through the
    service (the chain head updated), connected as the runtime role."""
    script = (
        "from django.contrib.auth.models import User\n"
        "from django.db import transaction\n"
        "from audit.actions import AuditAction\n"
        "from audit.services import audit_record\n"
        "with transaction.atomic():\n"
        "    user = User.objects.create_user('runtime-check')\n"
        "    event = audit_record(actor=user, action=AuditAction.AUTH_LOGIN)\n"
        "print('appended', event.seq)\n"
    )
    ran = manage("shell", "-c", script, DATABASE_URL=url(RUNTIME))
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert "appended " in ran.stdout


@pytest.mark.django_db
def test_the_test_run_itself_is_connected_as_its_runtime_role():
    """The whole PostgreSQL run (tests/runtime_role.py): a privilege production's runtime role
    lacks fails the test that needs it."""
    from django.db import connection

    roles = runtime_role.current()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_user, session_user, r.rolsuper, r.rolinherit, "
            "has_table_privilege('audit_auditevent', 'UPDATE'), "
            "has_table_privilege('cage_slipprint', 'UPDATE'), "
            "has_table_privilege('tables_seating', 'UPDATE'), "
            "(SELECT count(*) FROM pg_class WHERE relowner = r.oid) "
            "FROM pg_roles r WHERE r.rolname = current_user"
        )
        row = cursor.fetchone()
    assert row == (roles.runtime, roles.runtime, False, False, False, False, True, 0)
    assert roles.runtime != runtime_role.ADMIN
