"""Player ratings: what each raise-or-fold decision was worth (R8), valued after settlement."""

from decimal import Decimal

import django.db.models.deletion
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("wagers", "0008_shuffler_reports")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="DecisionCost",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                (
                    "decision",
                    models.CharField(
                        choices=[
                            ("raise", "raise"),
                            ("fold", "fold"),
                            ("walked_away", "walked away"),
                        ],
                        max_length=12,
                    ),
                ),
                (
                    "raise_amount",
                    models.DecimalField(decimal_places=2, default=Decimal("0.00"), max_digits=12),
                ),
                ("best_play", models.CharField(max_length=12)),
                ("dealer_hands", models.BigIntegerField()),
                ("fold_ev", models.BigIntegerField()),
                ("raise_once_ev", models.BigIntegerField()),
                ("raise_cap_ev", models.BigIntegerField()),
                ("taken_ev", models.BigIntegerField()),
                ("cost", models.BigIntegerField()),
                ("computed_at", models.DateTimeField()),
                (
                    "settlement",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="decision_costs",
                        to="wagers.settlement",
                    ),
                ),
                (
                    "spot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="decision_costs",
                        to="wagers.spot",
                    ),
                ),
            ],
            options={
                "ordering": ["settlement", "seat"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("settlement", "seat"), name="decision_cost_once"
                    )
                ],
            },
        ),
        AppendOnly("decisioncost"),
    ]
