"""The cardroom's shifts become versioned definitions, each in force from a gaming day on, so
that redefining them never orphans what was booked under the old names. The shifts defined
today become a definition in force from the earliest day (``date.min``: every record made so
far was booked under them). Append-only, as every record."""

from datetime import date

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

from core.db import AppendOnly

# Every day so far: the shifts in place were the only ones anything was booked under.
EARLIEST = date.min


def _order(starts, day_start):
    def offset(at):
        seconds = (at.hour - day_start.hour) * 3600 + (at.minute - day_start.minute) * 60
        return (seconds + at.second - day_start.second) % 86400

    return sorted(starts, key=lambda s: offset(s[1]))


def definitions_from_shifts(apps, schema_editor):
    db = schema_editor.connection.alias  # migrate's own connection (the owner)
    Shift = apps.get_model("tables", "Shift")
    Definition = apps.get_model("tables", "ShiftDefinition")
    Cardroom = apps.get_model("patrons", "Cardroom")
    for cardroom in Cardroom.objects.using(db).filter(
        pk__in=Shift.objects.using(db).values("cardroom_id")
    ):
        starts = [(s.name, s.starts_at) for s in Shift.objects.using(db).filter(cardroom=cardroom)]
        Definition.objects.using(db).create(
            cardroom=cardroom,
            effective_from=EARLIEST,
            shifts=[[n, f"{at:%H:%M}"] for n, at in _order(starts, cardroom.gaming_day_starts_at)],
            defined_by=None,
            defined_at=timezone.now(),
        )


def shifts_from_definitions(apps, schema_editor):
    """Back: each cardroom's newest definition becomes its shifts again."""
    db = schema_editor.connection.alias  # migrate's own connection (the owner)
    Shift = apps.get_model("tables", "Shift")
    Definition = apps.get_model("tables", "ShiftDefinition")
    done = set()
    for definition in Definition.objects.using(db).order_by("-effective_from", "-id"):
        if definition.cardroom_id in done:
            continue
        done.add(definition.cardroom_id)
        for name, start in definition.shifts:
            Shift.objects.using(db).create(
                cardroom_id=definition.cardroom_id,
                name=name,
                starts_at=start,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0004_cash_at_tables_linked_from_tables"),
        ("tables", "0020_rack_books_and_session_count_marks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ShiftDefinition",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("effective_from", models.DateField()),
                ("shifts", models.JSONField()),
                ("defined_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="shift_definitions",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "defined_by",
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
                "ordering": ["cardroom", "-effective_from", "-id"],
                "indexes": [
                    models.Index(fields=["cardroom", "effective_from"], name="shiftdef_from")
                ],
            },
        ),
        AppendOnly("shiftdefinition"),
        migrations.RunPython(definitions_from_shifts, shifts_from_definitions),
        migrations.DeleteModel(name="Shift"),
    ]
