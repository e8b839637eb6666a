"""The audit log is append-only in the database; its chain starts at the genesis head."""

from django.db import migrations

from core.db import AppendOnly


def create_head(apps, schema_editor):
    db = schema_editor.connection.alias  # migrate's connection, never the app's
    apps.get_model("audit", "ChainHead").objects.using(db).get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [
        AppendOnly("auditevent"),
        migrations.RunPython(create_head, migrations.RunPython.noop),
    ]
