"""Exports are compliance's records (the compliance app), not the audit log's: the model
leaves this app's state; its table stays and is taken over by compliance.0001."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("audit", "0004_export")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Export")],
            database_operations=[],
        ),
    ]
