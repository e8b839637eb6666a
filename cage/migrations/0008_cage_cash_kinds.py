"""Front money, safekeeping, markers and currency exchange at the cage."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0007_drop_boxes_count_team_variances"),
        ("patrons", "0007_cash_transaction_kinds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="cageentry",
            name="kind",
            field=models.CharField(
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
                    ("front_money", "Front Money"),
                    ("safekeeping", "Safekeeping"),
                    ("marker_issued", "Marker Issued"),
                    ("marker_paid", "Marker Paid"),
                    ("currency_exchange", "Currency Exchange"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="Marker",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                (
                    "issued_as",
                    models.CharField(choices=[("cash", "Cash"), ("chips", "Chips")], max_length=5),
                ),
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
                    "cage_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.cageentry",
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
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
            ],
            options={
                "ordering": ["cardroom", "id"],
            },
        ),
        migrations.CreateModel(
            name="MarkerPayment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("outstanding", models.DecimalField(decimal_places=2, max_digits=12)),
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
                    "cage_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.cageentry",
                    ),
                ),
                (
                    "marker",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="payments",
                        to="cage.marker",
                    ),
                ),
            ],
            options={
                "ordering": ["marker", "id"],
            },
        ),
        migrations.CreateModel(
            name="PlayerAccountEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "account",
                    models.CharField(
                        choices=[("front_money", "front money"), ("safekeeping", "safekeeping")],
                        max_length=12,
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("balance", models.DecimalField(decimal_places=2, max_digits=12)),
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
                    "cage_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.cageentry",
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
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "player account entries",
                "ordering": ["player", "account", "id"],
            },
        ),
        migrations.CreateModel(
            name="CurrencyExchange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount", models.DecimalField(decimal_places=2, max_digits=12)),
                ("currency", models.CharField(max_length=3)),
                ("foreign_amount", models.DecimalField(decimal_places=2, max_digits=14)),
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
                    "paid_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.cageentry",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                (
                    "received_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cage.cageentry",
                    ),
                ),
            ],
            options={
                "ordering": ["cardroom", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("amount__gt", 0)), name="exchange_positive"
                    )
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="marker",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="marker_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="markerpayment",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="marker_payment_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="markerpayment",
            constraint=models.CheckConstraint(
                condition=models.Q(("outstanding__gte", 0)), name="marker_never_overpaid"
            ),
        ),
        migrations.AddConstraint(
            model_name="playeraccountentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount", 0), _negated=True), name="account_entry_moves"
            ),
        ),
        migrations.AddConstraint(
            model_name="playeraccountentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("balance__gte", 0)), name="account_never_negative"
            ),
        ),
        AppendOnly("playeraccountentry"),
        AppendOnly("marker"),
        AppendOnly("markerpayment"),
        AppendOnly("currencyexchange"),
        AppendOnly("cageentry", after_rebuild=True),
    ]
