"""A spot's player is patrons' now (the state only: no column changes)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # The model leaves tables' state there: every relation to it is repointed first.
    run_before = [("tables", "0014_cardrooms_and_players_move_to_patrons")]

    dependencies = [
        ("patrons", "0003_cardrooms_and_players"),
        ("wagers", "0004_throughput_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="spot",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="spots",
                        to="patrons.player",
                    ),
                ),
            ],
        ),
    ]
