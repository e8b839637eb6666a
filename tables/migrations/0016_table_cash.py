"""Which table a cash transaction was made at, and the buy-in's stack entry its chips went
on: a link on tables' side (a layer above the cash log), copied from the columns that held it,
before patrons drops those (``run_before``). Append-only, as the cash log."""

import django.db.models.deletion
from django.db import migrations, models

from core.db import AppendOnly


def copy_links(apps, schema_editor):
    """Every link, in one statement (a row with a stack entry and no table takes the table of
    the entry's seating)."""
    link = apps.get_model("tables", "TableCash")._meta.db_table
    cash = apps.get_model("patrons", "CashTransaction")._meta.db_table
    entry = apps.get_model("tables", "StackEntry")._meta.db_table
    seating = apps.get_model("tables", "Seating")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO {link} (cash_transaction_id, table_id, stack_entry_id) "
        f"SELECT c.id, COALESCE(c.table_id, s.table_id), c.stack_entry_id FROM {cash} c "
        f"LEFT JOIN {entry} e ON e.id = c.stack_entry_id "
        f"LEFT JOIN {seating} s ON s.id = e.seating_id "
        "WHERE c.table_id IS NOT NULL OR c.stack_entry_id IS NOT NULL"
    )


class Migration(migrations.Migration):
    # patrons drops the columns these links are copied from: after the copy.
    run_before = [("patrons", "0004_cash_at_tables_linked_from_tables")]

    dependencies = [
        ("patrons", "0003_cardrooms_and_players"),
        ("tables", "0015_bank_entries_booked_from_wagers"),
    ]

    operations = [
        migrations.CreateModel(
            name="TableCash",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "cash_transaction",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="at_table",
                        to="patrons.cashtransaction",
                    ),
                ),
                (
                    "stack_entry",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cash",
                        to="tables.stackentry",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.table",
                    ),
                ),
            ],
            options={
                "verbose_name_plural": "table cash",
            },
        ),
        AppendOnly("tablecash"),
        migrations.RunPython(copy_links, migrations.RunPython.noop),
    ]
