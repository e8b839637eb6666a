"""A table's card-reading shuffler or shoe and its credential."""

import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0022_exclusion_end_changes")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="ShufflerDevice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("shuffler", "Card-reading shuffler"),
                            ("shoe", "Card-reading shoe"),
                        ],
                        default="shuffler",
                        max_length=10,
                    ),
                ),
                ("make", models.CharField(max_length=100)),
                ("model", models.CharField(max_length=100)),
                ("serial", models.CharField(max_length=100)),
                ("certification_ref", models.CharField(blank=True, max_length=100)),
                ("registered_at", models.DateTimeField()),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "registered_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "revoked_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="devices",
                        to="tables.table",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "-registered_at"],
            },
        ),
        migrations.CreateModel(
            name="DeviceToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("prefix", models.CharField(max_length=8)),
                ("created_at", models.DateTimeField()),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "device",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tokens",
                        to="tables.shufflerdevice",
                    ),
                ),
            ],
            options={
                "ordering": ["device", "-created_at"],
            },
        ),
        migrations.AddConstraint(
            model_name="shufflerdevice",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("table",),
                name="one_active_device_per_table",
            ),
        ),
        migrations.AddConstraint(
            model_name="shufflerdevice",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("make"),
                django.db.models.functions.text.Lower("serial"),
                condition=models.Q(("revoked_at__isnull", True)),
                name="one_table_per_active_device",
            ),
        ),
        migrations.AddConstraint(
            model_name="devicetoken",
            constraint=models.UniqueConstraint(
                condition=models.Q(("revoked_at__isnull", True)),
                fields=("device",),
                name="one_active_token_per_device",
            ),
        ),
    ]
