"""A player's money at the cage: front money and safekeeping deposits and withdrawals, markers
(issued as cash or as chips, paid in part or in full) and currency exchanges. Each cash
movement is on the cash log with its 31 CFR 1021.311 kind and side, moves the cage's books,
and the cage still balances at its closing count."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from cage import cashier_books, player_accounts, services
from cage.models import CageEntry, CurrencyExchange, Marker, MarkerPayment, PlayerAccountEntry
from cage.services import CountGiven
from core.errors import Conflict, DomainError, PermissionDenied
from patrons.models import CashTransaction, CurrencyTransactionReport
from tests.audit.support import raw
from tests.conftest import signed
from tests.runtime_role import assert_append_only

pytestmark = pytest.mark.django_db

CAGE_CHIPS = {"1": 500, "5": 300, "25": 160, "100": 40}  # $10,000
CAGE_CASH = {"100": 200}  # $20,000


@pytest.fixture
def cage(cardroom, cashier, supervisor):
    return services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )


@pytest.fixture
def player(make_player):
    return make_player("Fran Front")


def logged(player) -> list[tuple[str, str, Decimal]]:
    return [
        (row.kind, row.direction, row.amount)
        for row in CashTransaction.objects.filter(player=player).order_by("id")
    ]


def test_front_money_and_safekeeping_land_on_the_cash_log_with_their_kinds(
    cage, cardroom, cashier, player
):
    move = services.player_account_move
    move(player=player, account="front_money", direction="deposit", amount="5000", by=cashier)
    move(player=player, account="front_money", direction="withdrawal", amount="1200", by=cashier)
    move(player=player, account="safekeeping", direction="deposit", amount="800", by=cashier)
    last = move(
        player=player, account="safekeeping", direction="withdrawal", amount="300", by=cashier
    )
    assert logged(player) == [
        ("front_money_deposit", "in", Decimal("5000.00")),
        ("front_money_withdrawal", "out", Decimal("1200.00")),
        ("safekeeping_deposit", "in", Decimal("800.00")),
        ("safekeeping_withdrawal", "out", Decimal("300.00")),
    ]
    assert all(row.place == "cage" for row in CashTransaction.objects.filter(player=player))
    assert last.balance == Decimal("500.00") and last.amount == Decimal("-300.00")
    balances = player_accounts.player_balances(player)
    assert (balances.front_money, balances.safekeeping) == (Decimal("3800.00"), Decimal("500.00"))
    assert cashier_books.cage_books(cardroom).cash == Decimal("20000") + 5000 - 1200 + 800 - 300
    assert last.cage_entry.kind == "safekeeping" and last.cage_entry.cash == Decimal("-300.00")
    assert AuditEvent.objects.filter(action="cage.account_deposit").count() == 2
    assert AuditEvent.objects.filter(action="cage.account_withdrawal").count() == 2


def test_a_withdrawal_over_the_balance_is_refused_saying_the_balance(
    cage, cashier, player, refusal
):
    services.player_account_move(
        player=player, account="front_money", direction="deposit", amount="400", by=cashier
    )
    with refusal(DomainError, field="amount", says="$400.00"):
        services.player_account_move(
            player=player,
            account="front_money",
            direction="withdrawal",
            amount="400.01",
            by=cashier,
        )
    with refusal(DomainError, field="amount", says="$0.00"):
        services.player_account_move(
            player=player, account="safekeeping", direction="withdrawal", amount="1", by=cashier
        )


def test_bad_input_is_refused_by_its_field(cage, cashier, player, refusal):
    move = services.player_account_move
    with refusal(DomainError, field="account", says="front money"):
        move(player=player, account="credit", direction="deposit", amount="5", by=cashier)
    with refusal(DomainError, field="direction", says="deposit"):
        move(player=player, account="safekeeping", direction="in", amount="5", by=cashier)
    with refusal(DomainError, field="amount", says="above"):
        move(player=player, account="safekeeping", direction="deposit", amount="0", by=cashier)
    with refusal(DomainError, field="currency", says="three-letter"):
        services.currency_exchange(
            player=player, amount="100", currency="EU", foreign_amount="90", by=cashier
        )
    with refusal(DomainError, field="foreign_amount", says="above 0"):
        services.currency_exchange(
            player=player, amount="100", currency="EUR", foreign_amount="-9", by=cashier
        )
    with refusal(DomainError, field="issued_as", says="cash"):
        services.marker_issue(player=player, issued_as="check", amount="100", by=cashier)
    with refusal(DomainError, field="chips", says="chips"):
        services.marker_issue(player=player, issued_as="chips", chips={}, by=cashier)


def test_only_the_cashier_holding_the_cage_records(
    cage, cashier, second_cashier, supervisor, player, refusal
):
    with refusal(DomainError, field="cashier", says="holding it"):
        services.player_account_move(
            player=player,
            account="front_money",
            direction="deposit",
            amount="10",
            by=second_cashier,
        )
    with pytest.raises(PermissionDenied):
        services.marker_issue(player=player, issued_as="cash", amount="10", by=supervisor)


def test_a_marker_in_cash_is_an_advance_and_its_payments_close_it(cage, cardroom, cashier, player):
    marker = services.marker_issue(player=player, issued_as="cash", amount="2500", by=cashier)
    services.marker_pay(marker=marker, amount="1000", by=cashier)
    assert player_accounts.marker_outstanding(marker) == Decimal("1500.00")
    last = services.marker_pay(marker=marker, amount="1500", by=cashier)
    assert last.outstanding == Decimal("0.00")
    assert player_accounts.marker_state(marker).closed
    assert logged(player) == [
        ("marker_advance", "out", Decimal("2500.00")),
        ("marker_payment", "in", Decimal("1000.00")),
        ("marker_payment", "in", Decimal("1500.00")),
    ]
    assert cashier_books.cage_books(cardroom).cash == Decimal("20000.00")
    assert AuditEvent.objects.filter(action="cage.marker_paid").count() == 2


def test_a_marker_is_never_overpaid_and_a_paid_one_is_closed(cage, cashier, player, refusal):
    marker = services.marker_issue(player=player, issued_as="cash", amount="300", by=cashier)
    with refusal(DomainError, field="amount", says="$300.00 is outstanding"):
        services.marker_pay(marker=marker, amount="300.01", by=cashier)
    services.marker_pay(marker=marker, amount="300", by=cashier)
    with refusal(Conflict, field="marker", says="closed"):
        services.marker_pay(marker=marker, amount="1", by=cashier)
    assert MarkerPayment.objects.filter(marker=marker).count() == 1


def test_a_marker_in_chips_moves_the_cages_chips_and_no_cash(cage, cardroom, cashier, player):
    marker = services.marker_issue(
        player=player, issued_as="chips", chips={"100": 10, "25": 4}, by=cashier
    )
    assert marker.amount == Decimal("1100.00")
    assert marker.cage_entry.chips == {"25.00": -4, "100.00": -10}
    assert marker.cage_entry.cash_transaction is None
    assert logged(player) == []
    books = cashier_books.cage_books(cardroom)
    assert (books.chips["100.00"], books.cash) == (30, Decimal("20000.00"))
    # Paid back in cash, it is cash in.
    services.marker_pay(marker=marker, amount="1100", by=cashier)
    assert logged(player) == [("marker_payment", "in", Decimal("1100.00"))]


def test_chips_and_an_amount_that_differ_are_refused(cage, cashier, player, refusal):
    with refusal(DomainError, field="amount", says="$100.00"):
        services.marker_issue(
            player=player, issued_as="chips", chips={"100": 1}, amount="200", by=cashier
        )


def test_a_currency_exchange_is_cash_in_and_cash_out_of_the_same_dollars(
    cage, cardroom, cashier, player
):
    exchange = services.currency_exchange(
        player=player, amount="1085.50", currency="eur", foreign_amount="1000", by=cashier
    )
    assert (exchange.currency, exchange.foreign_amount) == ("EUR", Decimal("1000.00"))
    assert logged(player) == [
        ("currency_exchange_in", "in", Decimal("1085.50")),
        ("currency_exchange_out", "out", Decimal("1085.50")),
    ]
    assert exchange.received_entry.cash == -exchange.paid_entry.cash == Decimal("1085.50")
    assert cashier_books.cage_books(cardroom).cash == Decimal("20000.00")
    assert CurrencyExchange.objects.count() == 1


def test_a_front_money_deposit_counts_toward_the_ctr(cage, cashier, player, identify, refusal):
    services.cage_chips_sell(player=player, chips={"100": 30}, by=cashier)  # $3,000 in
    services.player_account_move(
        player=player, account="front_money", direction="deposit", amount="7000", by=cashier
    )
    assert not CurrencyTransactionReport.objects.filter(player=player).exists()
    with refusal(DomainError, field="player", says="identity"):
        services.player_account_move(
            player=player, account="front_money", direction="deposit", amount="0.01", by=cashier
        )
    identify(player)
    services.player_account_move(
        player=player, account="front_money", direction="deposit", amount="0.01", by=cashier
    )
    report = CurrencyTransactionReport.objects.get(player=player)
    assert report.cash_in == Decimal("10000.01")
    kinds = set(report.transactions.values_list("kind", flat=True))
    assert kinds == {"chip_purchase", "front_money_deposit"}


def test_the_cage_still_balances_at_its_closing_count(cage, cardroom, cashier, supervisor, player):
    move = services.player_account_move
    move(player=player, account="front_money", direction="deposit", amount="3000", by=cashier)
    move(player=player, account="safekeeping", direction="deposit", amount="500", by=cashier)
    move(player=player, account="front_money", direction="withdrawal", amount="1000", by=cashier)
    marker = services.marker_issue(player=player, issued_as="cash", amount="2000", by=cashier)
    services.marker_pay(marker=marker, amount="700", by=cashier)
    services.marker_issue(player=player, issued_as="chips", chips={"25": 20}, by=cashier)
    services.currency_exchange(
        player=player, amount="400", currency="CAD", foreign_amount="550", by=cashier
    )
    cash = Decimal("20000") + 3000 + 500 - 1000 - 2000 + 700
    assert cashier_books.cage_books(cardroom).cash == cash
    chips = CAGE_CHIPS | {"25": 140}
    closing = services.cage_close(
        cardroom=cardroom,
        count=CountGiven(chips=chips, cash={"100": int(cash / 100)}),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )
    assert closing.variance == Decimal("0.00")
    kinds = set(CageEntry.objects.values_list("kind", flat=True))
    assert {"front_money", "safekeeping", "marker_issued", "marker_paid"} <= kinds
    assert PlayerAccountEntry.objects.count() == 3 and Marker.objects.count() == 2


def test_the_plain_entry_takes_none_of_these_kinds(cage, cardroom, cashier, refusal):
    with refusal(DomainError, field="kind", says="player_account_move"):
        services.cage_entry_add(
            cardroom=cardroom,
            kind="front_money",
            chips={},
            cash="50",
            reference="",
            by=cashier,
        )


@pytest.mark.parametrize(
    "table",
    ["cage_playeraccountentry", "cage_marker", "cage_markerpayment", "cage_currencyexchange"],
)
def test_the_records_are_append_only(cage, cashier, player, table):
    services.player_account_move(
        player=player, account="front_money", direction="deposit", amount="50", by=cashier
    )
    marker = services.marker_issue(player=player, issued_as="cash", amount="20", by=cashier)
    services.marker_pay(marker=marker, amount="5", by=cashier)
    services.currency_exchange(
        player=player, amount="10", currency="EUR", foreign_amount="9", by=cashier
    )
    assert_append_only(lambda: raw(f'UPDATE "{table}" SET created_at = created_at'))
    assert_append_only(lambda: raw(f'DELETE FROM "{table}"'))
