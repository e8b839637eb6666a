"""The cardroom's push and break settings."""

from django.db import migrations, models


def _in_bounds(name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=models.Q((f"{name}__gte", 1), (f"{name}__lte", 1440)),
        name=f"cardroom_{name}_in_bounds",
    )


class Migration(migrations.Migration):
    dependencies = [("patrons", "0015_waitlist_settings")]

    operations: list[migrations.operations.base.Operation] = [
        # A push every 20 minutes, a 20-minute break after 80 on.
        migrations.AddField(
            model_name="cardroom",
            name="push_minutes",
            field=models.PositiveSmallIntegerField(default=20),
        ),
        migrations.AddField(
            model_name="cardroom",
            name="break_after_minutes",
            field=models.PositiveSmallIntegerField(default=80),
        ),
        migrations.AddField(
            model_name="cardroom",
            name="break_minutes",
            field=models.PositiveSmallIntegerField(default=20),
        ),
        *[
            migrations.AddConstraint(model_name="cardroom", constraint=_in_bounds(name))
            for name in ("push_minutes", "break_after_minutes", "break_minutes")
        ],
    ]
