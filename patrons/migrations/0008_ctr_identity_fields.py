"""A person's CTR fields on the identity: the name split, the address, the TIN, the occupation."""

from django.db import migrations, models

import patrons.fields


def _text(length: int) -> models.CharField:
    return models.CharField(blank=True, max_length=length)


class Migration(migrations.Migration):
    dependencies = [("patrons", "0007_cash_transaction_kinds")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField("playeridentity", "last_name", _text(60)),
        migrations.AddField("playeridentity", "first_name", _text(60)),
        migrations.AddField("playeridentity", "middle_name", _text(60)),
        migrations.AddField("playeridentity", "street", _text(100)),
        migrations.AddField("playeridentity", "city", _text(60)),
        migrations.AddField("playeridentity", "state", _text(2)),
        migrations.AddField("playeridentity", "zip_code", _text(10)),
        migrations.AddField(
            "playeridentity", "country", models.CharField(blank=True, default="US", max_length=2)
        ),
        migrations.AddField(
            "playeridentity",
            "tin",
            patrons.fields.SealedCharField(blank=True, max_length=9, null=True),
        ),
        migrations.AddField("playeridentity", "tin_last4", _text(4)),
        migrations.AddField(
            "playeridentity",
            "tin_type",
            models.CharField(
                blank=True,
                choices=[
                    ("ssn", "social security number"),
                    ("itin", "individual taxpayer identification number"),
                    ("ein", "employer identification number"),
                    ("foreign", "foreign"),
                ],
                max_length=10,
            ),
        ),
        migrations.AddField("playeridentity", "occupation", _text(60)),
    ]
