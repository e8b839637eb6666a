"""A house bar ends only by a two-person change."""

from django.db import migrations, models

KINDS = [
    ("staff_account", "New account in a role that approves or signs"),
    ("staff_role", "A role that approves or signs, given to an account"),
    ("table_settings", "A change to a table's settings"),
    ("paytable", "A change to a cardroom's catalogue of approved paytables"),
    ("self_approval", "A change to a cardroom's self-approval switch"),
    ("exclusion_end", "The end of a house bar"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0021_shifts_versioned_from_a_gaming_day"),
        ("patrons", "0013_exclusions_for_their_term"),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="ExclusionEndChange",
            fields=[],
            options={"proxy": True, "indexes": [], "constraints": []},
            bases=("tables.twopersonchange",),
        ),
        migrations.AlterField(
            model_name="twopersonchange",
            name="kind",
            field=models.CharField(choices=KINDS, max_length=30),
        ),
    ]
