"""The waitlist and seat calls."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_PROTECT = django.db.models.deletion.PROTECT


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0023_shuffler_devices"),
        ("patrons", "0015_waitlist_settings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="Waitlist",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "banking",
                    models.CharField(
                        choices=[("designated_player", "designated player"), ("house", "house")],
                        max_length=20,
                    ),
                ),
                ("ante_min", models.DecimalField(decimal_places=2, max_digits=12)),
                ("ante_max", models.DecimalField(decimal_places=2, max_digits=12)),
                ("opened_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="waitlists", to="patrons.cardroom"
                    ),
                ),
                (
                    "opened_by",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
            ],
            options={"ordering": ["cardroom", "banking", "ante_min", "ante_max"]},
        ),
        migrations.CreateModel(
            name="WaitlistEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                (
                    "channel",
                    models.CharField(
                        choices=[("in_person", "In Person"), ("phone", "Phone")], max_length=10
                    ),
                ),
                ("hold_until", models.DateTimeField(blank=True, null=True)),
                ("arrived_at", models.DateTimeField(blank=True, null=True)),
                ("position", models.PositiveIntegerField()),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("waiting", "Waiting"),
                            ("called", "Called"),
                            ("seated", "Seated"),
                            ("passed", "Passed"),
                            ("removed", "Removed"),
                            ("expired", "Expired"),
                        ],
                        default="waiting",
                        max_length=10,
                    ),
                ),
                ("joined_at", models.DateTimeField()),
                ("called_seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("called_at", models.DateTimeField(blank=True, null=True)),
                ("call_expires_at", models.DateTimeField(blank=True, null=True)),
                ("ended_at", models.DateTimeField(blank=True, null=True)),
                (
                    "called_table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=_PROTECT,
                        related_name="+",
                        to="tables.table",
                    ),
                ),
                (
                    "joined_by",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="+", to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=_PROTECT,
                        related_name="waitlist_entries",
                        to="patrons.player",
                    ),
                ),
                (
                    "seating",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=_PROTECT,
                        related_name="waitlist_entry",
                        to="tables.seating",
                    ),
                ),
                (
                    "waitlist",
                    models.ForeignKey(
                        on_delete=_PROTECT, related_name="entries", to="tables.waitlist"
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "waitlist entries",
                "ordering": ["waitlist", "position", "id"],
            },
        ),
        migrations.AddConstraint(
            model_name="waitlist",
            constraint=models.UniqueConstraint(
                fields=("cardroom", "banking", "ante_min", "ante_max"), name="one_waitlist_a_game"
            ),
        ),
        migrations.AddConstraint(
            model_name="waitlistentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "called")),
                fields=("called_table", "called_seat"),
                name="one_call_a_seat",
            ),
        ),
        migrations.AddConstraint(
            model_name="waitlistentry",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["waiting", "called"])),
                fields=("waitlist", "player"),
                name="player_once_on_a_list",
            ),
        ),
    ]
