"""Spare: player sessions and ratings."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("wagers", "0008_shuffler_reports")]

    operations: list[migrations.operations.base.Operation] = []
