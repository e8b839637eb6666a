"""Spare: roles held per cardroom."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0025_dealer_shifts")]

    operations: list[migrations.operations.base.Operation] = []
