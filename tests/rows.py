"""The rows of the cardroom's tables, read cheaply: what ``nothing_written`` (tests/conftest.py)
and the checks that a read wrote nothing compare. A test's world leaves most tables empty, so
every table's count comes in one query, and only the tables with rows are read, as the database
gives them (no ORM: its compiling and converting was most of what such a check cost)."""

from django.apps import apps
from django.db import connection

Rows = dict[str, dict[object, tuple]]


def stored_models(app_labels: tuple[str, ...] | None = None) -> list:
    """The models with a table of their own (not proxies), of ``app_labels`` or of every app."""
    return [
        model
        for model in apps.get_models()
        if not model._meta.proxy and (app_labels is None or model._meta.app_label in app_labels)
    ]


def row_counts(models: list) -> dict[str, int]:
    """Each model's number of rows, by label, in one query."""
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT {index}, COUNT(*) FROM {quote(model._meta.db_table)}"
        for index, model in enumerate(models)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        found = dict(cursor.fetchall())
    return {model._meta.label: found[index] for index, model in enumerate(models)}


def _table_rows(model) -> dict[object, tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(model._meta.db_table)}")
        columns = [column[0] for column in cursor.description]
        key = columns.index(model._meta.pk.column)
        return {row[key]: tuple(row) for row in cursor.fetchall()}


def rows(models: list) -> Rows:
    """Every row of each model, column by column, by primary key."""
    counts = row_counts(models)
    return {
        model._meta.label: _table_rows(model) if counts[model._meta.label] else {}
        for model in models
    }
