"""A house bar ends only by a two-person change."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tables", "0021_shifts_versioned_from_a_gaming_day"), ("patrons", "0013_exclusions_for_their_term")]

    operations: list[migrations.operations.base.Operation] = []
