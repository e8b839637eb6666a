"""The cash log (31 CFR 1021.311's kinds), currency transaction reports and structuring
flags. The cash log and the flags are append-only in the database (``AppendOnly``)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import ZERO, MoneyField
from core.scoping import CardroomScoped

from ..fields import SealedTextField
from .cardrooms import Cardroom, Person, Player

_USER = settings.AUTH_USER_MODEL

#: Federal: a currency transaction report for MORE than $10,000 in cash in (or out) per
#: patron per gaming day (31 CFR 1021.311). Not a cardroom setting.
CTR_THRESHOLD = Decimal("10000.00")
#: A cardroom's defaults: the multiple transaction log from $3,000.00; three transactions a
#: day within 80% of a threshold (and under it) flag structuring.
DEFAULT_LOG_THRESHOLD = Decimal("3000.00")
DEFAULT_STRUCTURING_COUNT = 3
DEFAULT_STRUCTURING_BAND = Decimal("0.80")


class CashKind(models.TextChoices):
    """31 CFR 1021.311's cash in (a) and cash out (b), as the cage and the tables meet
    them; ``KIND_DIRECTION`` gives each its side."""

    CHIP_PURCHASE = "chip_purchase", "purchase of chips"
    FRONT_MONEY_DEPOSIT = "front_money_deposit", "front money deposit"
    SAFEKEEPING_DEPOSIT = "safekeeping_deposit", "safekeeping deposit"
    MARKER_PAYMENT = "marker_payment", "payment on a marker"
    CURRENCY_EXCHANGE_IN = "currency_exchange_in", "currency exchanged (received)"
    BET_OF_CURRENCY = "bet_of_currency", "bet of currency"
    CHIP_REDEMPTION = "chip_redemption", "redemption of chips"
    FRONT_MONEY_WITHDRAWAL = "front_money_withdrawal", "front money withdrawal"
    SAFEKEEPING_WITHDRAWAL = "safekeeping_withdrawal", "safekeeping withdrawal"
    MARKER_ADVANCE = "marker_advance", "advance on a marker"
    CURRENCY_EXCHANGE_OUT = "currency_exchange_out", "currency exchanged (paid out)"
    PAYMENT_ON_BET = "payment_on_bet", "payment on a bet"


_Kind = CashKind
#: Each kind's side of the cash log.
CASH_IN_KINDS: tuple[str, ...] = (
    _Kind.CHIP_PURCHASE.value,
    _Kind.FRONT_MONEY_DEPOSIT.value,
    _Kind.SAFEKEEPING_DEPOSIT.value,
    _Kind.MARKER_PAYMENT.value,
    _Kind.CURRENCY_EXCHANGE_IN.value,
    _Kind.BET_OF_CURRENCY.value,
)
CASH_OUT_KINDS: tuple[str, ...] = tuple(k.value for k in _Kind if k.value not in CASH_IN_KINDS)
KIND_DIRECTION = {
    **{kind: "in" for kind in CASH_IN_KINDS},
    **{kind: "out" for kind in CASH_OUT_KINDS},
}


class CashTransaction(models.Model):
    """One cash transaction of a player, of one of the kinds 31 CFR 1021.311 lists (chips
    bought with cash at a table or at the cage, chips redeemed, front money, safekeeping,
    markers, currency exchanged, bets and payments of currency). Never edited. ``logged`` puts
    it on the multiple transaction log (at or over the cardroom's log threshold)."""

    class Direction(models.TextChoices):
        IN = "in"  # cash in: the player hands over cash
        OUT = "out"  # cash out: the player receives cash

    Kind = CashKind

    class Place(models.TextChoices):
        TABLE = "table"
        CAGE = "cage"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cash_transactions")
    direction = models.CharField(max_length=3, choices=Direction.choices)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    amount = MoneyField()
    # At a table: the table and the buy-in's stack entry are linked from there, a layer up
    # (``tables.models.TableCash``).
    place = models.CharField(max_length=5, choices=Place.choices)
    gaming_day = models.DateField()
    day_total = MoneyField()  # the player's cash in (or out) of the gaming day, this included
    logged = models.BooleanField(default=False)  # on the multiple transaction log
    recorded_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["CashTransaction"].by("cardroom")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["player", "gaming_day", "direction"])]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="cash_positive"),
            models.CheckConstraint(
                condition=Q(direction="in", kind__in=CASH_IN_KINDS)
                | Q(direction="out", kind__in=CASH_OUT_KINDS),
                name="cash_kind_on_its_side",
            ),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} cash {self.direction} {self.amount}"


class CurrencyTransactionReport(models.Model):
    """A CTR to file: a person's cash in or out of a gaming day, under every record of theirs
    at every cardroom of the licensee, passed $10,000.00. Its totals grow with the day's later
    cash transactions until it is filed, once the day is over; the version filed is frozen (its
    figures, and the person as filed in ``filed_as``), and cash recorded later for that day
    makes the next version (``amends`` the one filed, ``changes`` in words), which compliance
    files in turn (``patrons.ctrs``). Due 15 calendar days after its gaming day (``due_on``)."""

    class Status(models.TextChoices):
        TO_FILE = "to_file"
        FILED = "filed"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    # One per person a gaming day (31 CFR 1021.313): ``player`` is the record it was raised on.
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    cash_in = MoneyField(default=ZERO)
    cash_out = MoneyField(default=ZERO)
    transactions = models.ManyToManyField(CashTransaction, related_name="reports")
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.TO_FILE)
    filed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filed_at = models.DateTimeField(null=True, blank=True)
    filing_reference = models.CharField(max_length=60, blank=True)  # the BSA id when e-filed
    due_on = models.DateField()
    version = models.PositiveSmallIntegerField(default=1)
    amends = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendment"
    )
    changes = models.TextField(blank=True)  # an amendment's: what changed since the one filed
    # As filed, encrypted (it holds the ID number and the TIN): the figures and the person.
    filed_as = SealedTextField(blank=True, null=True)

    objects = CardroomScoped["CurrencyTransactionReport"].by("cardroom")

    class Meta:
        ordering = ["-gaming_day", "id"]
        verbose_name = "currency transaction report"
        constraints = [
            models.UniqueConstraint(
                fields=["person", "gaming_day", "version"], name="one_ctr_version_a_day"
            ),
            models.CheckConstraint(
                condition=Q(version=1, amends__isnull=True)
                | Q(version__gt=1, amends__isnull=False),
                name="ctr_amendment_amends",
            ),
        ]

    def __str__(self) -> str:
        version = f" v{self.version}" if self.version > 1 else ""
        return f"CTR player {self.player_id} {self.gaming_day}{version}"


class StructuringFlag(models.Model):
    """Structuring watch: a person with several cash transactions (under any of their records)
    just under a threshold in one gaming day, for compliance to review. Never edited."""

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")  # raised on
    gaming_day = models.DateField()
    transactions = models.JSONField()  # the ids of the transactions just under
    detail = models.TextField()
    created_at = models.DateTimeField()

    objects = CardroomScoped["StructuringFlag"].by("cardroom")

    class Meta:
        ordering = ["-gaming_day", "id"]
        constraints = [
            models.UniqueConstraint(fields=["person", "gaming_day"], name="one_flag_a_day"),
        ]

    def __str__(self) -> str:
        return f"structuring flag player {self.player_id} {self.gaming_day}"
