"""A fee's hand and settlement entry leave the ledger: wagers links them to it
(``wagers.FeeBooking``, filled from these columns by wagers' 0006, which runs first). Every fee
stays; on SQLite the table is rebuilt, so its append-only triggers are installed again.

Not reversible with fees on the ledger: the columns would come back empty."""

from django.db import migrations

from core.db import AppendOnly


def refuse_with_fees(apps, schema_editor):
    FeeEntry = apps.get_model("rake", "FeeEntry")
    if FeeEntry.objects.using(schema_editor.connection.alias).exists():
        raise migrations.exceptions.IrreversibleError(
            "The fee ledger has entries: their hands and settlements are in wagers.FeeBooking."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("rake", "0004_throughput_indexes"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="feeentry",
            name="hand",
        ),
        migrations.RemoveField(
            model_name="feeentry",
            name="settlement",
        ),
        AppendOnly("feeentry", after_rebuild=True),
        migrations.RunPython(migrations.RunPython.noop, refuse_with_fees),
    ]
