"""Each cash transaction takes its 31 CFR 1021.311 type: those on the log so far were chips
bought (cash in) or redeemed (cash out). Filled in once, with the append-only triggers off."""

from django.db import migrations, models

from core.db import AppendOnly, AppendOnlyEnd

KINDS = [
    ("chip_purchase", "purchase of chips"),
    ("front_money_deposit", "front money deposit"),
    ("safekeeping_deposit", "safekeeping deposit"),
    ("marker_payment", "payment on a marker"),
    ("currency_exchange_in", "currency exchanged (received)"),
    ("bet_of_currency", "bet of currency"),
    ("chip_redemption", "redemption of chips"),
    ("front_money_withdrawal", "front money withdrawal"),
    ("safekeeping_withdrawal", "safekeeping withdrawal"),
    ("marker_advance", "advance on a marker"),
    ("currency_exchange_out", "currency exchanged (paid out)"),
    ("payment_on_bet", "payment on a bet"),
]


def redemptions_named(apps, schema_editor):
    rows = apps.get_model("patrons", "CashTransaction").objects.using(
        schema_editor.connection.alias
    )
    rows.filter(direction="out").update(kind="chip_redemption")


class Migration(migrations.Migration):
    dependencies = [
        ("patrons", "0006_cage_controls"),
    ]

    operations = [
        AppendOnlyEnd("cashtransaction"),
        migrations.AddField(
            model_name="cashtransaction",
            name="kind",
            field=models.CharField(choices=KINDS, default="chip_purchase", max_length=30),
            preserve_default=False,
        ),
        migrations.RunPython(redemptions_named, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="cashtransaction",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    direction="in",
                    kind__in=(
                        "chip_purchase",
                        "front_money_deposit",
                        "safekeeping_deposit",
                        "marker_payment",
                        "currency_exchange_in",
                        "bet_of_currency",
                    ),
                )
                | models.Q(
                    direction="out",
                    kind__in=(
                        "chip_redemption",
                        "front_money_withdrawal",
                        "safekeeping_withdrawal",
                        "marker_advance",
                        "currency_exchange_out",
                        "payment_on_bet",
                    ),
                ),
                name="cash_kind_on_its_side",
            ),
        ),
        AppendOnly("cashtransaction", after_rebuild=True),
    ]
