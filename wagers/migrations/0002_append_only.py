"""Records the rules say are never edited: the database refuses UPDATE, DELETE, TRUNCATE."""

from django.db import migrations

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("wagers", "0001_initial")]

    operations = [
        AppendOnly("settlement"),
        AppendOnly("spotsettlement"),
        AppendOnly("wagersettlement"),
    ]
