"""Each export is of one cardroom's records."""

import django.db.models.deletion
from django.db import migrations, models


def the_only_cardroom(apps, schema_editor):
    """Exports made while a deployment had one cardroom are that cardroom's."""
    alias = schema_editor.connection.alias  # migrate's own connection (the owner's)
    cardroom = apps.get_model("patrons", "Cardroom")
    cardrooms = list(cardroom.objects.using(alias).values_list("pk", flat=True))
    if len(cardrooms) == 1:
        export = apps.get_model("compliance", "Export")
        export.objects.using(alias).update(cardroom_id=cardrooms[0])


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0005_verification_of_the_state"),
        ("patrons", "0016_dealer_rotation_settings"),
    ]

    operations = [
        migrations.AddField(
            model_name="export",
            name="cardroom",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="patrons.cardroom",
            ),
        ),
        migrations.RunPython(the_only_cardroom, migrations.RunPython.noop),
    ]
