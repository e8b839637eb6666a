"""A house bank entry's settlement leaves the rack's ledger: wagers links it
(``wagers.BankBooking``, filled from this column by wagers' 0006, which runs first). Every
entry stays; on SQLite the table is rebuilt, so its append-only triggers are installed again."""

from django.db import migrations

from core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0014_cardrooms_and_players_move_to_patrons"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="housebankentry",
            name="settlement",
        ),
        AppendOnly("housebankentry", after_rebuild=True),
    ]
