"""A person's CTR fields on the identity: the name split, the address, the TIN, the occupation."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0007_cash_transaction_kinds")]

    operations: list[migrations.operations.base.Operation] = []
