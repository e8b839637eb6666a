"""Two PostgreSQL roles: the owner, who runs migrations and owns every table,
and the runtime role the application connects as, who owns nothing.

An owner may ``ALTER TABLE … DISABLE TRIGGER`` or ``DROP TRIGGER``: the append-only triggers
(``core.db``) hold only against a role that owns no table. The runtime role gets
SELECT and INSERT on the append-only tables (found by their trigger, so a new one needs no
list kept here), SELECT, INSERT, UPDATE and DELETE on the others, SELECT on
``django_migrations``, USAGE and SELECT on the sequences, and no CREATE on the schema.

``manage.py db_roles`` (audit) runs these steps; ``manage.py migrate`` as the owner grants
again after migrating (``grant_runtime``), so a table a migration adds is usable at once.
Every step is idempotent and says what it did.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg import sql

Say = Callable[[str], None]

MUTABLE = "SELECT, INSERT, UPDATE, DELETE"
APPEND_ONLY = "SELECT, INSERT"
READ_ONLY = {"django_migrations"}  # the runtime role never migrates


def _rows(connection: BaseDatabaseWrapper, query: str, params: list | None = None) -> list:
    with connection.cursor() as cursor:
        cursor.execute(query, params or [])
        return cursor.fetchall()


def _run(connection: BaseDatabaseWrapper, statement: sql.Composable) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement)


def current_role_is_superuser(connection: BaseDatabaseWrapper) -> bool:
    return bool(
        _rows(connection, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")[0][0]
    )


def role_exists(connection: BaseDatabaseWrapper, name: str) -> bool:
    return bool(_rows(connection, "SELECT 1 FROM pg_roles WHERE rolname = %s", [name]))


def ensure_role(connection: BaseDatabaseWrapper, name: str, password: str | None, say: Say) -> None:
    """A login role with no special powers; its password set when one is given."""
    role = sql.Identifier(name)
    powers = sql.SQL("LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS")
    if role_exists(connection, name):
        _run(connection, sql.SQL("ALTER ROLE {} {}").format(role, powers))
        say(f"role {name} exists (login, no superuser, createdb, createrole, replication)")
    else:
        _run(connection, sql.SQL("CREATE ROLE {} {}").format(role, powers))
        say(f"created role {name}")
    if password:
        _run(connection, sql.SQL("ALTER ROLE {} PASSWORD {}").format(role, sql.Literal(password)))
        say(f"set the password of {name}")


def prepare_database(connection: BaseDatabaseWrapper, owner: str, runtime: str, say: Say) -> None:
    """Connect for both; CREATE on the schema for the owner only (nobody else: PUBLIC too)."""
    database = sql.Identifier(connection.settings_dict["NAME"])
    schema = sql.Identifier("public")
    for name in (owner, runtime):
        _run(
            connection,
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(database, sql.Identifier(name)),
        )
    _run(connection, sql.SQL("REVOKE CREATE ON SCHEMA {} FROM PUBLIC").format(schema))
    _run(
        connection,
        sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(schema, sql.Identifier(owner)),
    )
    _run(
        connection,
        sql.SQL("REVOKE CREATE ON SCHEMA {} FROM {}").format(schema, sql.Identifier(runtime)),
    )
    _run(
        connection,
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, sql.Identifier(runtime)),
    )
    say(
        f"database {connection.settings_dict['NAME']}: CONNECT for {owner} and {runtime}; "
        f"schema public: CREATE for {owner} only, USAGE for {runtime}"
    )


def take_ownership(connection: BaseDatabaseWrapper, owner: str, say: Say) -> None:
    """Tables, sequences and views someone else made (an earlier ``migrate`` as a superuser)
    go to the owner, and the append-only trigger function with them."""
    objects = _rows(
        connection,
        """
        SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND pg_get_userbyid(c.relowner) <> %s
          AND NOT (c.relkind = 'S' AND EXISTS (
              SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
        ORDER BY c.relname
        """,
        [owner],
    )
    kinds = {"r": "TABLE", "p": "TABLE", "v": "VIEW", "m": "MATERIALIZED VIEW", "S": "SEQUENCE"}
    for name, kind in objects:
        _run(
            connection,
            sql.SQL("ALTER {} {} OWNER TO {}").format(
                sql.SQL(kinds[kind]), sql.Identifier(name), sql.Identifier(owner)
            ),
        )
    functions = _rows(
        connection,
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n "
        "ON n.oid = p.pronamespace "
        "WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> %s",
        [owner],
    )
    for (signature,) in functions:
        _run(
            connection,
            sql.SQL("ALTER FUNCTION {} OWNER TO {}").format(
                sql.SQL(signature), sql.Identifier(owner)
            ),
        )
    say(
        f"ownership: {len(objects)} tables, views and sequences and {len(functions)} functions "
        f"given to {owner}"
    )


def append_only_tables(connection: BaseDatabaseWrapper) -> set[str]:
    """The tables with the append-only trigger (``core.db``)."""
    return {
        table
        for (table,) in _rows(
            connection,
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname = c.relname || '_append_only'",
        )
    }


def grant_runtime(connection: BaseDatabaseWrapper, owner: str, runtime: str, say: Say) -> None:
    """The runtime role's privileges on every table and sequence there is, and by default on
    those the owner makes later (SELECT, INSERT: the next grant adds UPDATE, DELETE where a
    table is not append-only). In one transaction: the running application never meets a
    table between its REVOKE and its GRANT."""
    with transaction.atomic(using=connection.alias):
        _grant_runtime(connection, owner, runtime, say)


def _grant_runtime(connection: BaseDatabaseWrapper, owner: str, runtime: str, say: Say) -> None:
    tables = [
        name
        for (name,) in _rows(
            connection,
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname",
        )
    ]
    append_only = append_only_tables(connection)
    role = sql.Identifier(runtime)
    counts = {APPEND_ONLY: 0, MUTABLE: 0, "SELECT": 0}
    for table in tables:
        privileges = (
            "SELECT" if table in READ_ONLY else APPEND_ONLY if table in append_only else MUTABLE
        )
        _run(
            connection,
            sql.SQL("REVOKE ALL ON TABLE {} FROM {}").format(sql.Identifier(table), role),
        )
        _run(
            connection,
            sql.SQL("GRANT {} ON TABLE {} TO {}").format(
                sql.SQL(privileges), sql.Identifier(table), role
            ),
        )
        counts[privileges] += 1
    _run(
        connection,
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {}").format(role),
    )
    _run(
        connection,
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA public "
            "GRANT SELECT, INSERT ON TABLES TO {}"
        ).format(sql.Identifier(owner), role),
    )
    _run(
        connection,
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA public "
            "GRANT USAGE, SELECT ON SEQUENCES TO {}"
        ).format(sql.Identifier(owner), role),
    )
    say(
        f"{runtime}: {APPEND_ONLY} on {counts[APPEND_ONLY]} append-only tables "
        f"({', '.join(sorted(append_only))})"
    )
    say(
        f"{runtime}: {MUTABLE} on {counts[MUTABLE]} other tables, SELECT on "
        f"{', '.join(sorted(READ_ONLY))}; USAGE, SELECT on every sequence; owns nothing"
    )
