"""The cage's records point at the cardroom in patrons (the state only: no column changes)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # The model leaves tables' state there: every relation to it is repointed first.
    run_before = [("tables", "0014_cardrooms_and_players_move_to_patrons")]

    dependencies = [
        ("cage", "0002_admin_labels"),
        ("patrons", "0003_cardrooms_and_players"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="dayclose",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="serialcounter",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="shiftclose",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="slip",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
            ],
        ),
    ]
