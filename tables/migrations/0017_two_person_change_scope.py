"""A two-person change says what it is a change of (a cardroom, a table), its proposer may be
nobody (a paytable found in use when the catalogue began), and its decision says whether the
proposer approved it (R17's self-approval) and what the approval made (``values``): what
setting changes, paytable changes and the self-approval switch need to be kinds of it
(migration 0015 copies them in)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_table_cash"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="twopersonchange",
            name="cardroom",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="patrons.cardroom",
            ),
        ),
        migrations.AddField(
            model_name="twopersonchange",
            name="table",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tables.table",
            ),
        ),
        migrations.AddField(
            model_name="twopersondecision",
            name="self_approved",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="twopersondecision",
            name="values",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="twopersonchange",
            name="kind",
            field=models.CharField(
                choices=[
                    ("staff_account", "New account in a role that approves or signs"),
                    ("staff_role", "A role that approves or signs, given to an account"),
                    ("table_settings", "A change to a table's settings"),
                    ("paytable", "A change to a cardroom's catalogue of approved paytables"),
                    ("self_approval", "A change to a cardroom's self-approval switch"),
                ],
                max_length=30,
            ),
        ),
        migrations.AlterField(
            model_name="twopersonchange",
            name="proposed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="twopersondecision",
            name="decided_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="twopersonchange",
            index=models.Index(
                fields=["kind", "cardroom", "table"], name="tables_twop_kind_07500a_idx"
            ),
        ),
        # SQLite rebuilds a table to change a column, without its triggers: installed again.
        AppendOnly("twopersonchange", after_rebuild=True),
        AppendOnly("twopersondecision", after_rebuild=True),
    ]
