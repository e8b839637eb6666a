"""Dealers' clock-in, pushes and breaks: shifts, and where each dealer is from–to."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_USER = settings.AUTH_USER_MODEL
_PROTECT = django.db.models.deletion.PROTECT


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0024_waitlist"),
        ("patrons", "0013_exclusions_for_their_term"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="DealerShift",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("clocked_in_at", models.DateTimeField()),
                ("clocked_out_at", models.DateTimeField(blank=True, null=True)),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="dealer_shifts", to="patrons.cardroom"
                    ),
                ),
                (
                    "clocked_in_by",
                    models.ForeignKey(on_delete=_PROTECT, related_name="+", to=_USER),
                ),
                (
                    "clocked_out_by",
                    models.ForeignKey(
                        blank=True, null=True, on_delete=_PROTECT, related_name="+", to=_USER
                    ),
                ),
                (
                    "dealer",
                    models.ForeignKey(on_delete=_PROTECT, related_name="dealer_shifts", to=_USER),
                ),
            ],
            options={"ordering": ["-clocked_in_at"]},
        ),
        migrations.CreateModel(
            name="DealerAssignment",
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
                        choices=[("table", "Table"), ("break", "Break")], max_length=5
                    ),
                ),
                ("started_at", models.DateTimeField()),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                ("dealer", models.ForeignKey(on_delete=_PROTECT, related_name="+", to=_USER)),
                ("started_by", models.ForeignKey(on_delete=_PROTECT, related_name="+", to=_USER)),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=_PROTECT,
                        related_name="dealer_assignments",
                        to="tables.table",
                    ),
                ),
                (
                    "shift",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="assignments", to="tables.dealershift"
                    ),
                ),
            ],
            options={"ordering": ["started_at", "pk"]},
        ),
        migrations.AddIndex(
            model_name="dealershift",
            index=models.Index(fields=["cardroom", "clocked_in_at"], name="dealershift_day"),
        ),
        # A dealer is clocked in once at a time.
        migrations.AddConstraint(
            model_name="dealershift",
            constraint=models.UniqueConstraint(
                condition=models.Q(("clocked_out_at__isnull", True)),
                fields=("dealer",),
                name="dealer_clocked_in_once",
            ),
        ),
        migrations.AddConstraint(
            model_name="dealershift",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("clocked_out_at__isnull", True),
                    ("clocked_out_at__gte", models.F("clocked_in_at")),
                    _connector="OR",
                ),
                name="dealer_shift_ends_after_it_starts",
            ),
        ),
        migrations.AddIndex(
            model_name="dealerassignment",
            index=models.Index(fields=["table", "started_at"], name="dealerassign_table"),
        ),
        # A dealer is in one place at a time: never on two tables; a table has one dealer.
        migrations.AddConstraint(
            model_name="dealerassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True)),
                fields=("dealer",),
                name="dealer_in_one_place",
            ),
        ),
        migrations.AddConstraint(
            model_name="dealerassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("ended_at__isnull", True), ("kind", "table")),
                fields=("table",),
                name="table_one_dealer_assigned",
            ),
        ),
        migrations.AddConstraint(
            model_name="dealerassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("kind", "table"), ("table__isnull", False)),
                    models.Q(("kind", "break"), ("table__isnull", True)),
                    _connector="OR",
                ),
                name="dealer_assignment_table_or_break",
            ),
        ),
    ]
