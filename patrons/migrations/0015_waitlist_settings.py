"""The cardroom's waitlist settings: a seat call's minutes and a phone entry's hold."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("patrons", "0014_minimum_age")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="cardroom",
            name="seat_call_minutes",
            field=models.PositiveSmallIntegerField(default=3),
        ),
        migrations.AddField(
            model_name="cardroom",
            name="phone_hold_minutes",
            field=models.PositiveSmallIntegerField(default=30),
        ),
    ]
