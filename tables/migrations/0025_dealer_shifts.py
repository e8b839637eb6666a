"""Spare: dealers' clock-in, pushes and breaks."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0024_waitlist")]

    operations: list[migrations.operations.base.Operation] = []
