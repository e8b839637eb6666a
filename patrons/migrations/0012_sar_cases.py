"""Suspicious activity cases: from a flag or a review to a decision, compliance's alone."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0011_ctr_filer"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SarCase",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "origin",
                    models.CharField(
                        choices=[
                            ("flag", "a structuring flag"),
                            ("review", "a compliance review"),
                            ("hand", "opened by hand"),
                        ],
                        max_length=6,
                    ),
                ),
                ("summary", models.TextField()),
                ("detected_on", models.DateField()),
                ("suspect_identified", models.BooleanField(default=True)),
                ("due_on", models.DateField()),
                ("opened_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "opened_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
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
                    "review",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sar_case",
                        to="patrons.suspiciousactivityreview",
                    ),
                ),
                (
                    "structuring_flag",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="sar_case",
                        to="patrons.structuringflag",
                    ),
                ),
                (
                    "transactions",
                    models.ManyToManyField(
                        blank=True, related_name="+", to="patrons.cashtransaction"
                    ),
                ),
            ],
            options={
                "verbose_name": "SAR case",
                "ordering": ["due_on", "id"],
            },
        ),
        migrations.CreateModel(
            name="SarDecision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "outcome",
                    models.CharField(
                        choices=[("file", "file a SAR"), ("no_file", "not file")], max_length=7
                    ),
                ),
                ("reason", models.TextField()),
                ("filing_reference", models.CharField(blank=True, max_length=60)),
                ("at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "case",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="decision",
                        to="patrons.sarcase",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="SarNote",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("note", models.TextField()),
                ("at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "case",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="notes",
                        to="patrons.sarcase",
                    ),
                ),
            ],
            options={
                "ordering": ["case", "at", "id"],
            },
        ),
        migrations.AddConstraint(
            model_name="sarcase",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("origin", "flag"),
                        ("review__isnull", True),
                        ("structuring_flag__isnull", False),
                    ),
                    models.Q(
                        ("origin", "review"),
                        ("review__isnull", False),
                        ("structuring_flag__isnull", True),
                    ),
                    models.Q(
                        ("origin", "hand"),
                        ("review__isnull", True),
                        ("structuring_flag__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="sar_case_origin_named",
            ),
        ),
        migrations.AddConstraint(
            model_name="sardecision",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("filing_reference", ""), ("outcome", "no_file")),
                    models.Q(
                        ("outcome", "file"), models.Q(("filing_reference", ""), _negated=True)
                    ),
                    _connector="OR",
                ),
                name="sar_filed_with_its_reference",
            ),
        ),
        AppendOnly("sarcase"),
        AppendOnly("sarnote"),
        AppendOnly("sardecision"),
    ]
