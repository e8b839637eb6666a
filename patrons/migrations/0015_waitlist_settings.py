"""Spare: the cardroom's waitlist settings."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0014_minimum_age")]

    operations: list[migrations.operations.base.Operation] = []
