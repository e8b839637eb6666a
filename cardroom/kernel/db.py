"""Database helpers shared by the apps: append-only tables enforced by the database itself.

A record that the rules say is never edited (a settings version, a stack ledger entry, an
audit event, a settlement) lives in a table whose triggers refuse UPDATE, DELETE and TRUNCATE,
so that not even raw SQL through the application's connection can rewrite history.

PostgreSQL's triggers do not fire under ``session_replication_role = replica``, which only a
superuser may set: the test suite uses it to empty tables between transactional tests; the
application's production role must not be a superuser, nor own the tables (an owner may
disable triggers). On SQLite, a migration that rebuilds an append-only table (most column
changes do) drops its triggers with the old table: run ``AppendOnly`` again after it.
"""

from __future__ import annotations

from django.db import migrations

_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION cardroom_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% on %: this table is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$ LANGUAGE plpgsql;
"""


def append_only_sql(vendor: str, table: str) -> tuple[list[str], list[str]]:
    """The statements that make ``table`` append-only, and those that undo it."""
    if vendor == "postgresql":
        return (
            [
                _PG_FUNCTION,
                f'CREATE TRIGGER "{table}_append_only" BEFORE UPDATE OR DELETE ON "{table}" '
                "FOR EACH ROW EXECUTE FUNCTION cardroom_refuse_change();",
                f'CREATE TRIGGER "{table}_no_truncate" BEFORE TRUNCATE ON "{table}" '
                "FOR EACH STATEMENT EXECUTE FUNCTION cardroom_refuse_change();",
            ],
            [
                f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}";',
                f'DROP TRIGGER IF EXISTS "{table}_no_truncate" ON "{table}";',
            ],
        )
    if vendor == "sqlite":
        return (
            [
                f'CREATE TRIGGER "{table}_no_{op.lower()}" BEFORE {op} ON "{table}" '
                f"BEGIN SELECT RAISE(ABORT, '{op} on {table}: this table is append-only'); END;"
                for op in ("UPDATE", "DELETE")
            ],
            [f'DROP TRIGGER IF EXISTS "{table}_no_{op}";' for op in ("update", "delete")],
        )
    return [], []


class AppendOnly(migrations.operations.base.Operation):
    """Migration operation: ``AppendOnly("auditevent")`` installs the triggers for that model."""

    reduces_to_sql = True
    reversible = True

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

    def state_forwards(self, app_label, state):  # the model's fields do not change
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._run(schema_editor, to_state.apps.get_model(app_label, self.model_name), 0)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._run(schema_editor, from_state.apps.get_model(app_label, self.model_name), 1)

    def _run(self, schema_editor, model, which: int) -> None:
        vendor = schema_editor.connection.vendor
        for statement in append_only_sql(vendor, model._meta.db_table)[which]:
            schema_editor.execute(statement, params=None)  # None: '%' is not a placeholder

    def describe(self) -> str:
        return f"Make {self.model_name} append-only"
