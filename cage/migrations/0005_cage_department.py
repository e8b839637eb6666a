"""The cage as a department: cashier shifts, cage counts, cage entries, chips issued; all
append-only."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0004_late_closing_counts"),
        ("patrons", "0006_cage_controls"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CageCount",
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
                            ("opening", "Opening"),
                            ("handover", "Handover"),
                            ("closing", "Closing"),
                        ],
                        max_length=10,
                    ),
                ),
                ("gaming_day", models.DateField()),
                ("chips", models.JSONField()),
                ("chips_total", models.DecimalField(decimal_places=2, max_digits=12)),
                ("cash", models.JSONField()),
                ("cash_total", models.DecimalField(decimal_places=2, max_digits=12)),
                ("expected_chips", models.JSONField(blank=True, null=True)),
                (
                    "expected_cash",
                    models.DecimalField(blank=True, decimal_places=2, max_digits=12, null=True),
                ),
                ("variance", models.DecimalField(decimal_places=2, max_digits=12)),
                ("entries_through", models.PositiveBigIntegerField(default=0)),
                ("note", models.TextField(blank=True)),
                ("created_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "incoming",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "outgoing",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["cardroom", "id"],
            },
        ),
        migrations.CreateModel(
            name="CageShift",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("opened_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "cashier",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "opening_count",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="opens",
                        to="cage.cagecount",
                    ),
                ),
            ],
            options={
                "ordering": ["cardroom", "id"],
            },
        ),
        migrations.AddField(
            model_name="cagecount",
            name="ends",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="ended_by",
                to="cage.cageshift",
            ),
        ),
        migrations.CreateModel(
            name="ChipIssue",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "direction",
                    models.CharField(
                        choices=[("issue", "Issue"), ("withdrawal", "Withdrawal")], max_length=10
                    ),
                ),
                ("gaming_day", models.DateField()),
                ("chips", models.JSONField()),
                ("total", models.DecimalField(decimal_places=2, max_digits=12)),
                ("reason", models.TextField()),
                ("created_at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "witness",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["cardroom", "id"],
            },
        ),
        migrations.CreateModel(
            name="CageEntry",
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
                            ("chips_sold_for_cash", "Chips Sold For Cash"),
                            ("chips_redeemed", "Chips Redeemed"),
                            ("fill_sent", "Fill Sent"),
                            ("fill_returned", "Fill Returned"),
                            ("credit_received", "Credit Received"),
                            ("cash_to_vault", "Cash To Vault"),
                            ("cash_from_vault", "Cash From Vault"),
                            ("drop_deposited", "Drop Deposited"),
                            ("chips_issued", "Chips Issued"),
                        ],
                        max_length=20,
                    ),
                ),
                ("gaming_day", models.DateField()),
                ("chips", models.JSONField()),
                ("chips_total", models.DecimalField(decimal_places=2, max_digits=12)),
                ("cash", models.DecimalField(decimal_places=2, max_digits=12)),
                ("reference", models.CharField(blank=True, max_length=60)),
                ("created_at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "cash_transaction",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cage_entry",
                        to="patrons.cashtransaction",
                    ),
                ),
                (
                    "shift",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="cage.cageshift",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "cage entries",
                "ordering": ["cardroom", "id"],
                "indexes": [
                    models.Index(
                        fields=["cardroom", "gaming_day"], name="cage_cageen_cardroo_ce3b69_idx"
                    )
                ],
            },
        ),
        AppendOnly("cagecount"),
        AppendOnly("cageshift"),
        AppendOnly("cageentry"),
        AppendOnly("chipissue"),
    ]
