"""What a table's shuffler reported, each message once."""

import django.db.models.deletion
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("wagers", "0007_incident_hands"), ("tables", "0023_shuffler_devices")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AlterField(
            model_name="hand",
            name="card_source",
            field=models.CharField(
                blank=True,
                choices=[
                    ("entered", "Entered"),
                    ("system", "System"),
                    ("shuffler", "Read by the table's shuffler"),
                ],
                max_length=10,
            ),
        ),
        migrations.CreateModel(
            name="ShufflerReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("sequence", models.PositiveBigIntegerField()),
                ("digest", models.CharField(max_length=64)),
                (
                    "outcome",
                    models.CharField(
                        choices=[("dealt", "Dealt"), ("refused", "Refused")], max_length=10
                    ),
                ),
                ("answer", models.JSONField()),
                ("code", models.CharField(blank=True, max_length=20)),
                ("reason", models.TextField(blank=True)),
                ("field", models.CharField(blank=True, max_length=40)),
                ("received_at", models.DateTimeField()),
                (
                    "device",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="reports",
                        to="tables.shufflerdevice",
                    ),
                ),
                (
                    "hand",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="shuffler_reports",
                        to="wagers.hand",
                    ),
                ),
            ],
            options={
                "ordering": ["device", "sequence"],
                "indexes": [
                    models.Index(fields=["hand", "received_at"], name="shuffler_report_hand_idx")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("device", "sequence"), name="shuffler_report_sequence_unique"
                    )
                ],
            },
        ),
        AppendOnly("shufflerreport"),
    ]
