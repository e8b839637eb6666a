"""A house-banked table's rack by the books (one row per table), and the mark of its last
rack count on each session (checked by every hand and chip sale)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0019_incident_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablesession",
            name="rack_count_kind",
            field=models.CharField(blank=True, max_length=12),
        ),
        migrations.AddField(
            model_name="tablesession",
            name="rack_counted_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name="Rack",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("cents", models.BigIntegerField(default=0)),
                ("pieces", models.JSONField(default=dict)),
                (
                    "table",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rack",
                        to="tables.table",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("cents__gte", 0)), name="rack_never_negative"
                    )
                ],
            },
        ),
    ]
