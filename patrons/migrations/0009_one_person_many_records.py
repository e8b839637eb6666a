"""One person however many player records: licensees (each cardroom gets one of its own),
persons (one per player record so far), possible matches; CTRs and structuring flags become
one per person a gaming day. Filled in once, with the flags' append-only triggers off."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly, AppendOnlyEnd
from patrons.keys import normal_text


def one_person_each(apps, schema_editor):
    alias = schema_editor.connection.alias
    licensees = apps.get_model("patrons", "Licensee").objects.using(alias)
    persons = apps.get_model("patrons", "Person").objects.using(alias)
    for cardroom in apps.get_model("patrons", "Cardroom").objects.using(alias).order_by("pk"):
        cardroom.licensee = licensees.create(name=cardroom.name)
        cardroom.save(update_fields=["licensee"])
    players = apps.get_model("patrons", "Player").objects.using(alias)
    for player in players.select_related("cardroom").order_by("pk"):
        player.person = persons.create(licensee_id=player.cardroom.licensee_id)
        player.name_key = normal_text(player.name)
        player.save(update_fields=["person", "name_key"])
    for model in ("CurrencyTransactionReport", "StructuringFlag"):
        for row in apps.get_model("patrons", model).objects.using(alias).select_related("player"):
            row.person_id = row.player.person_id
            row.save(update_fields=["person"])


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0008_ctr_identity_fields"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Licensee",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.CreateModel(
            name="Person",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "licensee",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="persons",
                        to="patrons.licensee",
                    ),
                ),
                (
                    "merged_into",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.person",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="cardroom",
            name="licensee",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cardrooms",
                to="patrons.licensee",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="records",
                to="patrons.person",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, db_index=True, max_length=100),
        ),
        migrations.AddField(
            model_name="currencytransactionreport",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="patrons.person",
            ),
        ),
        AppendOnlyEnd("structuringflag"),
        migrations.AddField(
            model_name="structuringflag",
            name="person",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="patrons.person",
            ),
        ),
        migrations.RunPython(one_person_each, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="cardroom",
            name="licensee",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cardrooms",
                to="patrons.licensee",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="person",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="records",
                to="patrons.person",
            ),
        ),
        migrations.AlterField(
            model_name="currencytransactionreport",
            name="person",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="patrons.person"
            ),
        ),
        migrations.AlterField(
            model_name="structuringflag",
            name="person",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="patrons.person"
            ),
        ),
        migrations.RemoveConstraint(model_name="currencytransactionreport", name="one_ctr_a_day"),
        migrations.AddConstraint(
            model_name="currencytransactionreport",
            constraint=models.UniqueConstraint(
                fields=("person", "gaming_day"), name="one_ctr_a_day"
            ),
        ),
        migrations.RemoveConstraint(model_name="structuringflag", name="one_flag_a_day"),
        migrations.AddConstraint(
            model_name="structuringflag",
            constraint=models.UniqueConstraint(
                fields=("person", "gaming_day"), name="one_flag_a_day"
            ),
        ),
        AppendOnly("structuringflag", after_rebuild=True),
        migrations.AlterField(
            model_name="playeridentity",
            name="date_of_birth",
            field=models.DateField(db_index=True),
        ),
        migrations.CreateModel(
            name="PersonMatch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("same_name_no_birth_date", "same name, no date of birth"),
                            ("near_name_same_birth_date", "near name, same date of birth"),
                        ],
                        max_length=30,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "Open"), ("linked", "Linked"), ("distinct", "Distinct")],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("created_at", models.DateTimeField()),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("reason", models.TextField(blank=True)),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "licensee",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.licensee",
                    ),
                ),
                (
                    "other",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                (
                    "resolved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [
                    models.UniqueConstraint(fields=("player", "other"), name="one_match_a_pair"),
                    models.CheckConstraint(
                        condition=models.Q(("player", models.F("other")), _negated=True),
                        name="match_of_two_records",
                    ),
                ],
            },
        ),
    ]
