"""A fill's or credit's signature chain (a signed row per step) and its original found in the
drop box; both append-only, as every cage record."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0005_cage_department"),
        ("tables", "0010_staff_signatures_two_person"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SlipStep",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "step",
                    models.CharField(
                        choices=[
                            ("prepared", "prepared by the cashier"),
                            ("carried", "carried by the runner"),
                            ("dealer", "counted and signed by the dealer"),
                            ("supervisor", "signed by the floor supervisor"),
                            ("cage_received", "received at the cage by the cashier"),
                        ],
                        max_length=20,
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "person",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "signature",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.signature",
                    ),
                ),
                (
                    "slip",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="steps",
                        to="cage.slip",
                    ),
                ),
            ],
            options={
                "ordering": ["slip", "id"],
                "constraints": [
                    models.UniqueConstraint(fields=("slip", "step"), name="slip_step_once"),
                    models.UniqueConstraint(fields=("slip", "person"), name="slip_step_one_person"),
                ],
            },
        ),
        migrations.CreateModel(
            name="SlipOriginal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("found_at", models.DateTimeField()),
                (
                    "drop_count",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="slips_matched",
                        to="cage.dropcount",
                    ),
                ),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="original",
                        to="cage.slip",
                    ),
                ),
            ],
        ),
        AppendOnly("slipstep"),
        AppendOnly("sliporiginal"),
    ]
