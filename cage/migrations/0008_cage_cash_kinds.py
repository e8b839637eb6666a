"""Front money, safekeeping, markers and currency exchange at the cage."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0007_drop_boxes_count_team_variances"),
        ("patrons", "0007_cash_transaction_kinds"),
    ]

    operations: list[migrations.operations.base.Operation] = []
