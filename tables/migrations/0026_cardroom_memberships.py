"""Roles held per cardroom: who works in which room. Every account that holds a role when
this runs becomes a member of every cardroom there is, so that a one-room deployment goes on
as before; a second room's staff are granted it from then on."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def everyone_in_every_room(apps, schema_editor):
    user_model = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    cardroom_model = apps.get_model("patrons", "Cardroom")
    membership = apps.get_model("tables", "CardroomMembership")
    alias = schema_editor.connection.alias  # migrate's own connection (the owner's)
    staff = user_model.objects.using(alias).filter(groups__isnull=False).distinct()
    membership.objects.using(alias).bulk_create(
        [
            membership(user=user, cardroom=cardroom)
            for user in staff
            for cardroom in cardroom_model.objects.using(alias).all()
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0025_dealer_shifts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("patrons", "0016_dealer_rotation_settings"),
    ]

    operations = [
        migrations.CreateModel(
            name="CardroomMembership",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("granted_at", models.DateTimeField(auto_now_add=True)),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="memberships",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "granted_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="cardroom_memberships",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "cardroom"), name="one_membership_a_room"
                    )
                ],
            },
        ),
        migrations.RunPython(everyone_in_every_room, migrations.RunPython.noop),
    ]
