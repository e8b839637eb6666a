"""The export model moves here from the audit app: its table is the same (``audit_export``
until 0002 renames it), so this migration only tells Django's state where the model lives."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("audit", "0005_export_moves_to_compliance"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Export",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("settlements", "Settlements"),
                                    ("audit_log", "Audit Log"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("start", models.DateTimeField()),
                        ("end", models.DateTimeField()),
                        ("requested_at", models.DateTimeField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        ("progress", models.PositiveSmallIntegerField(default=0)),
                        ("rows", models.PositiveIntegerField(default=0)),
                        ("chain_seq", models.PositiveBigIntegerField(blank=True, null=True)),
                        ("chain_hash", models.CharField(blank=True, max_length=64)),
                        ("file", models.FileField(blank=True, upload_to="exports/")),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("error", models.TextField(blank=True)),
                        (
                            "requested_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"ordering": ["-requested_at"], "db_table": "audit_export"},
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="export", table=None),
    ]
