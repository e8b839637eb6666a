"""Exclusions for their whole term: state removals, actions recorded, duplicates refused."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0012_sar_cases")]

    operations: list[migrations.operations.base.Operation] = []
