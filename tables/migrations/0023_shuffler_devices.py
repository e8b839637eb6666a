"""A table's card-reading shuffler or shoe and its credential."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0022_exclusion_end_changes")]

    operations: list[migrations.operations.base.Operation] = []
