"""Which hand and settlement entry booked each fee, and which settlement entry booked each
house bank entry: links on wagers' side (a layer above the fee ledger and the rack), copied
from the columns that held them, before rake and tables drop those (``run_before``). The links
are append-only, as what they link."""

import django.db.models.deletion
from django.db import migrations, models

from core.db import AppendOnly


def copy_links(apps, schema_editor):
    """Every link, in one statement each (the fee ledger may hold millions)."""
    fees = apps.get_model("rake", "FeeEntry")._meta.db_table
    bank = apps.get_model("tables", "HouseBankEntry")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO {apps.get_model('wagers', 'FeeBooking')._meta.db_table} "
        f"(fee_id, hand_id, settlement_id) SELECT id, hand_id, settlement_id FROM {fees}"
    )
    schema_editor.execute(
        f"INSERT INTO {apps.get_model('wagers', 'BankBooking')._meta.db_table} "
        f"(bank_entry_id, settlement_id) SELECT id, settlement_id FROM {bank} "
        "WHERE settlement_id IS NOT NULL"
    )


def refuse_with_links(apps, schema_editor):
    db = schema_editor.connection.alias
    if apps.get_model("wagers", "BankBooking").objects.using(db).exists():
        raise migrations.exceptions.IrreversibleError(
            "Settlements booked house bank entries: the links would be lost."
        )


class Migration(migrations.Migration):
    # rake and tables drop the columns these links are copied from: after the copy.
    run_before = [
        ("rake", "0005_fees_booked_from_wagers"),
        ("tables", "0015_bank_entries_booked_from_wagers"),
    ]

    dependencies = [
        ("rake", "0004_throughput_indexes"),
        ("tables", "0014_cardrooms_and_players_move_to_patrons"),
        ("wagers", "0005_spot_player_in_patrons"),
    ]

    operations = [
        migrations.CreateModel(
            name="BankBooking",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "bank_entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="booking",
                        to="tables.housebankentry",
                    ),
                ),
                (
                    "settlement",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="bank_entries",
                        to="wagers.settlement",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="FeeBooking",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "fee",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="booking",
                        to="rake.feeentry",
                    ),
                ),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="fees",
                        to="wagers.hand",
                    ),
                ),
                (
                    "settlement",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="fees",
                        to="wagers.settlement",
                    ),
                ),
            ],
        ),
        AppendOnly("feebooking"),
        AppendOnly("bankbooking"),
        migrations.RunPython(copy_links, refuse_with_links),
    ]
