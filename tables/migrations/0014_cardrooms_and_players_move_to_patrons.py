"""Cardrooms and players have moved to patrons: the state only (their tables stay, with every
row). The layers above repoint their relations first (their migrations run before this one)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0003_cardrooms_and_players"),
        ("tables", "0013_cardroom_largest_cage_amount"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="table",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tables",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="selfapprovalchange",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="self_approval_changes",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="paytablechange",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="paytable_changes",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.RemoveField(
                    model_name="player",
                    name="cardroom",
                ),
                migrations.AlterField(
                    model_name="shift",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="shifts",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="rotationrecord",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="seating",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seatings",
                        to="patrons.player",
                    ),
                ),
                migrations.DeleteModel(
                    name="Cardroom",
                ),
                migrations.DeleteModel(
                    name="Player",
                ),
            ],
        ),
    ]
