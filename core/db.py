"""Database helpers shared by the apps: append-only tables enforced by the database itself.

A record that the rules say is never edited (a settings version, a stack ledger entry, an
audit event, a settlement) lives in a table whose triggers refuse UPDATE, DELETE and TRUNCATE,
so that not even raw SQL through the application's connection can rewrite history.

PostgreSQL's triggers do not fire under ``session_replication_role = replica``, which only a
superuser may set: the test suite uses it to empty tables between transactional tests; the
application's production role must not be a superuser, nor own the tables (an owner may
disable triggers). On SQLite, a migration that rebuilds an append-only table (most column
changes do, even of a field's default) drops its triggers with the old table: end that
migration with ``AppendOnly(model, after_rebuild=True)``, which installs them again both ways.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import connection, migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import ProjectState

_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION cardroom_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% on %: this table is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;
"""


def lock_until_commit(label: str, pk: int) -> None:
    """Serialise the writers that add to one row until the transaction ends, where that row
    cannot be locked itself: ``select_for_update`` needs the UPDATE privilege, which the
    runtime role lacks on an append-only table. PostgreSQL: an advisory lock on a 64-bit key
    made from the label and the key (two rows sharing one only wait on each other). SQLite
    runs one writing transaction at a time already."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.blake2b(f"{label}:{pk}".encode(), digest_size=8).digest()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)]
        )


def append_only_sql(vendor: str, table: str) -> tuple[list[str], list[str]]:
    """The statements that make ``table`` append-only (safe to run again: a trigger that
    exists is replaced), and those that undo it."""
    drop = _drop_sql(vendor, table)
    if vendor == "postgresql":
        return (
            [
                _PG_FUNCTION,
                *drop,
                f'CREATE TRIGGER "{table}_append_only" BEFORE UPDATE OR DELETE ON "{table}" '
                "FOR EACH ROW EXECUTE FUNCTION cardroom_refuse_change();",
                f'CREATE TRIGGER "{table}_no_truncate" BEFORE TRUNCATE ON "{table}" '
                "FOR EACH STATEMENT EXECUTE FUNCTION cardroom_refuse_change();",
            ],
            drop,
        )
    if vendor == "sqlite":
        return (
            drop
            + [
                f'CREATE TRIGGER "{table}_no_{op.lower()}" BEFORE {op} ON "{table}" '
                f"BEGIN SELECT RAISE(ABORT, '{op} on {table}: this table is append-only'); END;"
                for op in ("UPDATE", "DELETE")
            ],
            drop,
        )
    return [], []


def _drop_sql(vendor: str, table: str) -> list[str]:
    if vendor == "postgresql":
        return [
            f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}";',
            f'DROP TRIGGER IF EXISTS "{table}_no_truncate" ON "{table}";',
        ]
    if vendor == "sqlite":
        return [f'DROP TRIGGER IF EXISTS "{table}_no_{op}";' for op in ("update", "delete")]
    return []


class AppendOnly(migrations.operations.base.Operation):
    """Migration operation: ``AppendOnly("auditevent")`` installs the triggers for that model;
    unapplied, it removes them. ``after_rebuild=True`` ends a migration that may rebuild the
    table (SQLite): it installs them whichever way the migration runs."""

    reduces_to_sql = True
    reversible = True

    def __init__(self, model_name: str, *, after_rebuild: bool = False) -> None:
        self.model_name = model_name
        self.after_rebuild = after_rebuild

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        # The model's fields do not change.
        pass

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(schema_editor, to_state.apps.get_model(app_label, self.model_name), 0)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        which = 0 if self.after_rebuild else 1
        self._run(schema_editor, from_state.apps.get_model(app_label, self.model_name), which)

    def _run(self, schema_editor: BaseDatabaseSchemaEditor, model: Any, which: int) -> None:
        vendor = schema_editor.connection.vendor
        for statement in append_only_sql(vendor, model._meta.db_table)[which]:
            schema_editor.execute(statement, params=None)  # None: '%' is not a placeholder

    def describe(self) -> str:
        return f"Make {self.model_name} append-only"


class AppendOnlyEnd(AppendOnly):
    """Migration operation: the reverse of ``AppendOnly``, for a table about to be dropped:
    ``AppendOnlyEnd("paytabledecision")`` removes its triggers; unapplied, it installs them
    again (once the table is back)."""

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(schema_editor, from_state.apps.get_model(app_label, self.model_name), 1)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        self._run(schema_editor, to_state.apps.get_model(app_label, self.model_name), 0)

    def describe(self) -> str:
        return f"End {self.model_name}'s append-only triggers"
