"""A cash transaction's table and stack entry leave the cash log: tables links them to it
(``tables.TableCash``, filled from these columns by tables' 0016, which runs first). Every
transaction stays; on SQLite the table is rebuilt, so its append-only triggers are installed
again.

Not reversible with cash transactions at tables: the columns would come back empty."""

from django.db import migrations

from core.db import AppendOnly


def refuse_with_cash_at_tables(apps, schema_editor):
    rows = apps.get_model("patrons", "CashTransaction").objects.using(
        schema_editor.connection.alias
    )
    if rows.filter(place="table").exists():
        raise migrations.exceptions.IrreversibleError(
            "Cash transactions at tables: their tables and stack entries are in tables.TableCash."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0003_cardrooms_and_players"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="cashtransaction",
            name="stack_entry",
        ),
        migrations.RemoveField(
            model_name="cashtransaction",
            name="table",
        ),
        AppendOnly("cashtransaction", after_rebuild=True),
        migrations.RunPython(migrations.RunPython.noop, refuse_with_cash_at_tables),
    ]
