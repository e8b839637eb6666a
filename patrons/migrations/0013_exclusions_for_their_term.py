"""Exclusions for their whole term: each entry's term (one year, five years, lifetime, to a
date), an early end's time, reason and reference (the state's removal, the two-person change),
and an incident's outcome (what the cardroom did after a match). The incident entries are
append-only: on SQLite the table may be rebuilt, so its triggers are installed again."""

from django.db import migrations, models

from core.db import AppendOnly

TERMS = [
    ("one_year", "one year"),
    ("five_years", "five years"),
    ("lifetime", "lifetime"),
    ("dated", "to a date"),
]
OUTCOMES = [
    ("chips_held", "chips held"),
    ("redeemed_escorted", "chips redeemed and player escorted out"),
    ("escorted", "player escorted out"),
    ("released", "released"),
    ("other", "other"),
]
ENTRY_KINDS = [
    ("note", "Note"),
    ("surveillance_requested", "Surveillance Requested"),
    ("surveillance_findings", "Surveillance Findings"),
    ("closed", "Closed"),
    ("outcome", "Outcome"),
]


def lifetimes_named(apps, schema_editor):
    rows = apps.get_model("patrons", "Exclusion").objects.using(schema_editor.connection.alias)
    rows.filter(ends_on__isnull=True).update(term="lifetime")


class Migration(migrations.Migration):
    dependencies = [("patrons", "0012_sar_cases")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="exclusion",
            name="end_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="exclusion",
            name="end_reference",
            field=models.CharField(blank=True, max_length=100),
        ),
        migrations.AddField(
            model_name="exclusion",
            name="ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="exclusion",
            name="term",
            field=models.CharField(choices=TERMS, default="dated", max_length=12),
        ),
        migrations.RunPython(lifetimes_named, migrations.RunPython.noop),
        migrations.AddField(
            model_name="incidententry",
            name="outcome",
            field=models.CharField(blank=True, choices=OUTCOMES, default="", max_length=20),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="incidententry",
            name="kind",
            field=models.CharField(choices=ENTRY_KINDS, max_length=30),
        ),
        AppendOnly("incidententry", after_rebuild=True),
    ]
