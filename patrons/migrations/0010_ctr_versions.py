"""A CTR's life: due 15 days after its gaming day, versions (an amendment amends the version
filed, saying what changed), and the version filed frozen with the person as filed."""

from datetime import timedelta

import django.db.models.deletion
from django.db import migrations, models

import patrons.fields

DUE_AFTER = timedelta(days=15)


def due_dates(apps, schema_editor):
    reports = apps.get_model("patrons", "CurrencyTransactionReport")
    rows = reports.objects.using(schema_editor.connection.alias).only("pk", "gaming_day")
    for row in rows.iterator(chunk_size=2000):
        row.due_on = row.gaming_day + DUE_AFTER
        row.save(update_fields=["due_on"])


class Migration(migrations.Migration):
    dependencies = [("patrons", "0009_one_person_many_records")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.RemoveConstraint(model_name="currencytransactionreport", name="one_ctr_a_day"),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="amends",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="amendment",
                to="patrons.currencytransactionreport",
            ),
        ),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="changes",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="filed_as",
            field=patrons.fields.SealedTextField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="due_on",
            field=models.DateField(null=True),
        ),
        migrations.RunPython(due_dates, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="currencytransactionreport",
            name="due_on",
            field=models.DateField(),
        ),
        migrations.AddConstraint(
            model_name="currencytransactionreport",
            constraint=models.UniqueConstraint(
                fields=("person", "gaming_day", "version"), name="one_ctr_version_a_day"
            ),
        ),
        migrations.AddConstraint(
            model_name="currencytransactionreport",
            constraint=models.CheckConstraint(
                condition=models.Q(version=1, amends__isnull=True)
                | models.Q(version__gt=1, amends__isnull=False),
                name="ctr_amendment_amends",
            ),
        ),
    ]
