"""A minimum age per cardroom, checked at registration, seating and buy-in."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("patrons", "0013_exclusions_for_their_term")]

    operations: list[migrations.operations.base.Operation] = [
        # 21: California's (B&P §19921); a jurisdiction's own line is 18 to 25.
        migrations.AddField(
            model_name="cardroom",
            name="minimum_age",
            field=models.PositiveSmallIntegerField(default=21),
        ),
        migrations.AddConstraint(
            model_name="cardroom",
            constraint=models.CheckConstraint(
                condition=models.Q(("minimum_age__gte", 18), ("minimum_age__lte", 25)),
                name="cardroom_minimum_age_18_to_25",
            ),
        ),
        # An incident the age line raises when it refuses a player.
        migrations.AlterField(
            model_name="incident",
            name="kind",
            field=models.CharField(
                choices=[
                    ("dispute", "Dispute"),
                    ("chip_discrepancy", "Chip Discrepancy"),
                    ("misdeal_review", "Misdeal Review"),
                    ("player_removal", "Player Removal"),
                    ("exclusion_match", "Exclusion Match"),
                    ("under_age", "Under Age"),
                    ("other", "Other"),
                ],
                max_length=20,
            ),
        ),
    ]
