"""Spare: the waitlist and seat calls."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0023_shuffler_devices")]

    operations: list[migrations.operations.base.Operation] = []
