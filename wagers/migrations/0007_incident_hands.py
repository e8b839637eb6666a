"""Which hand an incident on the log is about: a link on wagers' side (layers above the log),
copied from the column that held it, before patrons drops it (``run_before``). Append-only, as
the log."""

import django.db.models.deletion
from django.db import migrations, models

from core.db import AppendOnly


def copy_links(apps, schema_editor):
    """Every link, in one statement."""
    link = apps.get_model("wagers", "IncidentHand")._meta.db_table
    incident = apps.get_model("patrons", "Incident")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO {link} (incident_id, hand_id) "
        f"SELECT id, hand_id FROM {incident} WHERE hand_id IS NOT NULL"
    )


class Migration(migrations.Migration):
    # patrons drops the column these links are copied from: after the copy.
    run_before = [("patrons", "0005_incidents_linked_from_above")]

    dependencies = [
        ("patrons", "0004_cash_at_tables_linked_from_tables"),
        ("wagers", "0006_fee_and_bank_bookings"),
    ]

    operations = [
        migrations.CreateModel(
            name="IncidentHand",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="wagers.hand",
                    ),
                ),
                (
                    "incident",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="at_hand",
                        to="patrons.incident",
                    ),
                ),
            ],
        ),
        AppendOnly("incidenthand"),
        migrations.RunPython(copy_links, migrations.RunPython.noop),
    ]
