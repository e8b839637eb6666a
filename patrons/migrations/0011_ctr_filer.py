"""The filing institution's details for FinCEN's CTR batch."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0010_ctr_versions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="CtrFiler",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("legal_name", models.CharField(max_length=150)),
                ("ein", models.CharField(max_length=9)),
                ("street", models.CharField(max_length=100)),
                ("city", models.CharField(max_length=50)),
                ("state", models.CharField(max_length=3)),
                ("zip_code", models.CharField(max_length=9)),
                ("country", models.CharField(default="US", max_length=2)),
                ("contact_office", models.CharField(max_length=150)),
                ("phone", models.CharField(max_length=16)),
                ("phone_extension", models.CharField(blank=True, max_length=6)),
                ("transmitter_contact", models.CharField(max_length=150)),
                ("transmitter_tcc", models.CharField(max_length=8)),
                ("updated_at", models.DateTimeField()),
                (
                    "cardroom",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ctr_filer",
                        to="patrons.cardroom",
                    ),
                ),
                (
                    "updated_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"verbose_name": "CTR filer"},
        ),
    ]
