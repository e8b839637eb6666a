"""Suspicious activity cases: from a flag or a review to a decision, compliance's alone."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("patrons", "0011_ctr_filer")]

    operations: list[migrations.operations.base.Operation] = []
