"""One person however many player records: persons, licensees, possible matches; cash aggregated by person."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0008_ctr_identity_fields")]

    operations: list[migrations.operations.base.Operation] = []
