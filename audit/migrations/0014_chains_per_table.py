"""Audit chains per table (issue 16) and signed checkpoints (issue 11).

The events already written keep their hashes and become the ``legacy`` chain, closed: its
head is the existing head row. A PostgreSQL sequence numbers events across chains without a
lock (on SQLite, where writers are serialised anyway, the next number is the highest plus one).
"""

from django.db import migrations, models

from core.db import AppendOnly

SEQUENCE = "audit_event_seq"


def create_sequence(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"CREATE SEQUENCE IF NOT EXISTS {SEQUENCE} AS bigint MINVALUE 1")
    schema_editor.execute(
        f"SELECT setval('{SEQUENCE}', COALESCE((SELECT MAX(seq) FROM audit_auditevent), 0) + 1, "
        "false)"
    )
    # The legacy head was made with an explicit id (1): new heads' ids start after it.
    schema_editor.execute(
        "SELECT setval(pg_get_serial_sequence('audit_chainhead', 'id'), "
        "COALESCE((SELECT MAX(id) FROM audit_chainhead), 0) + 1, false)"
    )


def drop_sequence(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP SEQUENCE IF EXISTS {SEQUENCE}")


def name_legacy_head(apps, schema_editor):
    """The head row of the single chain (made by 0002) is the legacy chain's head."""
    ChainHead = apps.get_model("audit", "ChainHead")
    db = schema_editor.connection.alias  # migrate's connection: the app's would wait on it
    ChainHead.objects.using(db).filter(pk=1).update(chain="legacy")


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0013_every_action_with_hardening"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="chain",
            field=models.CharField(default="legacy", max_length=40),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditevent",
            name="chain_seq",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.UniqueConstraint(
                fields=("chain", "chain_seq"), name="audit_event_chain_seq"
            ),
        ),
        migrations.AddField(
            model_name="chainhead",
            name="chain",
            field=models.CharField(default="legacy", max_length=40),
            preserve_default=False,
        ),
        migrations.RunPython(name_legacy_head, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="chainhead",
            name="chain",
            field=models.CharField(max_length=40, unique=True),
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="heads",
            field=models.TextField(default="[]"),
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="signature",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="checkpoint",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=16),
        ),
        migrations.RunPython(create_sequence, drop_sequence),
        AppendOnly("auditevent", after_rebuild=True),
        AppendOnly("checkpoint", after_rebuild=True),
    ]
