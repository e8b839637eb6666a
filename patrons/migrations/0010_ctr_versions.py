"""A CTR's life: due dates, the filed version frozen, amendments as new versions."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0009_one_person_many_records")]

    operations: list[migrations.operations.base.Operation] = []
