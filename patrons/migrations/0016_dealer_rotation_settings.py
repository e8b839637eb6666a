"""Spare: the cardroom's push and break settings."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0015_waitlist_settings")]

    operations: list[migrations.operations.base.Operation] = []
