"""Records the rules say are never edited: the database refuses UPDATE, DELETE, TRUNCATE."""

from django.db import migrations

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]

    operations = [
        AppendOnly("tablesettings"),
        AppendOnly("stackentry"),
        AppendOnly("rotationrecord"),
    ]
