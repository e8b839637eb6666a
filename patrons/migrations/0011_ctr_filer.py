"""The filing institution's details for FinCEN's CTR batch."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0010_ctr_versions")]

    operations: list[migrations.operations.base.Operation] = []
