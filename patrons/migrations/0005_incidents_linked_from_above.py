"""An incident's table and hand leave the log: tables and wagers link them to it
(``tables.IncidentTable``, ``wagers.IncidentHand``, filled from these columns by tables' 0019
and wagers' 0007, which run first). Every incident stays; on SQLite the table is rebuilt, so
its append-only triggers are installed again.

Not reversible with incidents on the log: the columns would come back empty."""

from django.db import migrations

from core.db import AppendOnly


def refuse_with_incidents(apps, schema_editor):
    rows = apps.get_model("patrons", "Incident").objects.using(schema_editor.connection.alias)
    if rows.exists():
        raise migrations.exceptions.IrreversibleError(
            "The incident log has incidents: their tables and hands are in "
            "tables.IncidentTable and wagers.IncidentHand."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0004_cash_at_tables_linked_from_tables"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="incident",
            name="hand",
        ),
        migrations.RemoveField(
            model_name="incident",
            name="table",
        ),
        AppendOnly("incident", after_rebuild=True),
        migrations.RunPython(migrations.RunPython.noop, refuse_with_incidents),
    ]
