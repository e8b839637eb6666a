"""Cardrooms and players move to patrons, the lowest layer that relates to them.

The state only: their tables keep their names (``tables_cardroom``, ``tables_player``), their
columns and every row; ``tables`` drops them from its state after every relation is repointed.
"""

import datetime
from decimal import Decimal

import django.db.models.deletion
from django.db import migrations, models

import patrons.models.cardrooms

MOVED = ("cardroom", "player")


def _content_types(apps, schema_editor, old, new):
    """The content types follow the models (with them the permissions that role groups hold
    and the admin's log). A new database has none yet: ``migrate`` makes them at the end."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    rows = ContentType.objects.using(schema_editor.connection.alias)
    for model in MOVED:
        if not rows.filter(app_label=new, model=model).exists():
            rows.filter(app_label=old, model=model).update(app_label=new)


def content_types_forwards(apps, schema_editor):
    _content_types(apps, schema_editor, "tables", "patrons")


def content_types_backwards(apps, schema_editor):
    _content_types(apps, schema_editor, "patrons", "tables")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("patrons", "0002_exclusion_list_import"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Cardroom",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=100, unique=True)),
                        ("time_zone", models.CharField(default="UTC", max_length=64)),
                        ("gaming_day_starts_at", models.TimeField(default=datetime.time(6, 0))),
                        ("self_approval_allowed", models.BooleanField(default=False)),
                        (
                            "chip_denominations",
                            models.JSONField(
                                default=patrons.models.cardrooms.default_denominations
                            ),
                        ),
                        (
                            "largest_cage_amount",
                            models.DecimalField(
                                decimal_places=2, default=Decimal("1000000.00"), max_digits=12
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_cardroom",
                    },
                ),
                migrations.AlterField(
                    model_name="cashpolicy",
                    name="cardroom",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_policy",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="cashtransaction",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="currencytransactionreport",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="exclusion",
                    name="cardroom",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="incident",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.AlterField(
                    model_name="structuringflag",
                    name="cardroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "cardroom",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="players",
                                to="patrons.cardroom",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "tables_player",
                    },
                ),
                migrations.AlterField(
                    model_name="cashtransaction",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash_transactions",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="currencytransactionreport",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="exclusion",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="incident",
                    name="players",
                    field=models.ManyToManyField(blank=True, related_name="+", to="patrons.player"),
                ),
                migrations.AlterField(
                    model_name="playeridentity",
                    name="player",
                    field=models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="identity",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="structuringflag",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="suspiciousactivityreview",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.player",
                    ),
                ),
            ],
        ),
        migrations.RunPython(content_types_forwards, content_types_backwards),
    ]
