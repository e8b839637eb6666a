"""The cage as a department: a cashier opens the cage with its count, every cage transaction
moves its books, the next cashier takes it over with a count both sign, and the last one
closes it. Players' cash at the cage is on the cash log (MTL, CTR) as it always was, now
recorded by the cashier holding the cage."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from cage import cashier_books, services
from cage.models import CageCount, CageEntry, CageShift, ChipIssue, Variance
from cage.services import CountGiven
from core.errors import Conflict, DomainError, PermissionDenied
from patrons.models import CashTransaction, CurrencyTransactionReport
from tables.signatures import signatures_of
from tests.conftest import signed

pytestmark = pytest.mark.django_db

#: The cage at opening: $10,000 in chips ($1 ×500, $5 ×300, $25 ×160, $100 ×40) and $20,000
#: in cash (1,000 twenties).
CAGE_CHIPS = {"1": 500, "5": 300, "25": 160, "100": 40}
CAGE_CASH = {"20": 1000}


def written() -> tuple[int, ...]:
    return (
        *(m.objects.count() for m in (CageCount, CageShift, CageEntry, ChipIssue)),
        CashTransaction.objects.count(),
        AuditEvent.objects.count(),
    )


@pytest.fixture
def cage(cardroom, cashier, supervisor):
    """The cage opened by the cashier at 07:00, the floor supervisor witnessing, counted as
    the chips issued into it (before the first count the books hold nothing)."""
    return services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )


def test_the_cage_opens_with_a_count_two_people_sign(cage, cashier, supervisor):
    count = cage.opening_count
    assert (cage.cashier, count.outgoing, count.incoming) == (cashier, supervisor, cashier)
    assert (count.chips_total, count.cash_total) == (Decimal("10000.00"), Decimal("20000.00"))
    assert {s.capacity: s.signer for s in signatures_of(count)} == {
        "outgoing": supervisor,
        "incoming": cashier,
    }
    books = cashier_books.cage_books(cage.cardroom)
    assert (books.chips_total, books.cash, books.shift) == (
        Decimal("10000.00"),
        Decimal("20000.00"),
        cage,
    )
    assert AuditEvent.objects.filter(action="cage.opened").count() == 1


def test_chips_sold_and_redeemed_move_the_cage_and_go_on_the_cash_log(
    cage, cardroom, cashier, make_player
):
    player = make_player("Pat Buyer")
    sale = services.cage_chips_sell(player=player, chips={"100": 20, "25": 40}, by=cashier)
    services.cage_chips_redeem(player=player, chips={"5": 10}, by=cashier)
    assert (sale.kind, sale.chips, sale.cash) == (
        "chips_sold_for_cash",
        {"25.00": -40, "100.00": -20},
        Decimal("3000.00"),
    )
    assert sale.cash_transaction.logged  # $3,000: on the multiple transaction log
    assert sale.cash_transaction.place == CashTransaction.Place.CAGE
    pieces = cashier_books.cage_pieces(cardroom)
    assert (pieces["100.00"], pieces["25.00"], pieces["5.00"]) == (20, 120, 310)
    assert cashier_books.cage_books(cardroom).cash == Decimal("20000.00") + 3000 - 50


def test_a_cash_sale_over_the_ctr_line_needs_the_players_identity(
    cage, cashier, make_player, identify, refusal
):
    player = make_player("Rich Buyer")
    services.cage_chips_sell(player=player, chips={"100": 30}, by=cashier)  # $3,000
    services.cage_entry_add(
        cardroom=cage.cardroom,
        kind="credit_received",
        chips={"100": 100},
        cash="0",
        reference="C-1",
        by=cashier,
    )
    services.cage_chips_sell(player=player, chips={"100": 70}, by=cashier)  # $10,000 today
    with refusal(DomainError, field="player", says="identity"):
        services.cage_chips_sell(player=player, chips={"1": 1}, by=cashier)
    identify(player)
    services.cage_chips_sell(player=player, chips={"1": 1}, by=cashier)
    assert CurrencyTransactionReport.objects.get(player=player).cash_in == Decimal("10001.00")


def test_only_the_cashier_holding_the_cage_records_its_transactions(
    cage, cardroom, second_cashier, supervisor, make_player
):
    player = make_player()
    before = written()
    with pytest.raises(DomainError) as other:
        services.cage_chips_sell(player=player, chips={"1": 5}, by=second_cashier)
    assert other.value.field == "cashier"
    with pytest.raises(PermissionDenied):
        services.cage_chips_sell(player=player, chips={"1": 5}, by=supervisor)
    with pytest.raises(PermissionDenied):
        services.cage_entry_add(
            cardroom=cardroom,
            kind="fill_sent",
            chips={"1": 5},
            cash=0,
            reference="F",
            by=supervisor,
        )
    assert written() == before


def test_no_entry_takes_a_denomination_or_the_cash_below_zero(cage, cardroom, cashier, make_player):
    player = make_player()
    before = written()
    with pytest.raises(Conflict) as chips:
        services.cage_entry_add(
            cardroom=cardroom,
            kind="fill_sent",
            chips={"100": 41},
            cash=0,
            reference="F-1",
            by=cashier,
        )
    assert chips.value.field == "chips.100.00"
    with pytest.raises(Conflict) as cash:
        services.cage_chips_redeem(player=player, chips={"500": 41}, by=cashier)
    assert cash.value.field == "cash"
    with pytest.raises(Conflict) as vault:
        services.cage_cash_move(
            cardroom=cardroom, kind="cash_to_vault", amount="20000.01", by=cashier
        )
    assert vault.value.field == "cash"
    assert written() == before


def test_a_fill_sent_given_negative_reads_as_the_same_fill(cage, cardroom, cashier):
    given = services.cage_entry_add(
        cardroom=cardroom, kind="fill_sent", chips={"100": -5}, cash=0, reference="F-2", by=cashier
    )
    same = services.cage_entry_add(
        cardroom=cardroom, kind="fill_sent", chips={"100": 5}, cash=0, reference="F-3", by=cashier
    )
    assert given.chips == same.chips == {"100.00": -5}
    assert cashier_books.cage_pieces(cardroom)["100.00"] == 30


def test_kinds_with_their_own_service_are_refused_by_the_plain_entry(cage, cardroom, cashier):
    before = written()
    for kind in ("chips_sold_for_cash", "chips_redeemed", "chips_issued", "bribe"):
        with pytest.raises(DomainError) as refused:
            services.cage_entry_add(
                cardroom=cardroom, kind=kind, chips={"1": 1}, cash=1, reference="", by=cashier
            )
        assert refused.value.field == "kind"
    assert written() == before


def test_the_handover_is_counted_and_signed_by_both_cashiers(
    cage, cardroom, cashier, second_cashier, make_player
):
    services.cage_chips_sell(player=make_player(), chips={"25": 4}, by=cashier)
    chips = {**CAGE_CHIPS, "25": 156}
    new = services.cage_handover(
        cardroom=cardroom,
        count=CountGiven(chips=chips, cash={"20": 1005}),
        signature=signed(cashier),
        incoming=signed(second_cashier),
        by=cashier,
    )
    count = new.opening_count
    assert (new.cashier, count.ends, count.variance) == (second_cashier, cage, Decimal("0.00"))
    assert cashier_books.open_cage_shift(cardroom) == new
    assert {s.capacity: s.signer for s in signatures_of(count)} == {
        "outgoing": cashier,
        "incoming": second_cashier,
    }


def test_a_handover_off_the_books_needs_its_reason_and_keeps_the_variance(
    cage, cardroom, cashier, second_cashier, refusal
):
    short = CountGiven(chips={**CAGE_CHIPS, "100": 39}, cash=CAGE_CASH)
    before = written()
    with pytest.raises(DomainError) as refused:
        services.cage_handover(
            cardroom=cardroom,
            count=short,
            signature=signed(cashier),
            incoming=signed(second_cashier),
            by=cashier,
        )
    assert refused.value.field == "note"
    assert written() == before
    new = services.cage_handover(
        cardroom=cardroom,
        count=CountGiven(chips=short.chips, cash=short.cash, note="A $100 chip found short"),
        signature=signed(cashier),
        incoming=signed(second_cashier),
        by=cashier,
    )
    assert new.opening_count.variance == Decimal("-100.00")
    assert cashier_books.cage_pieces(cardroom)["100.00"] == 39  # the count is the new books
    # Over the cardroom's $25 and $100 thresholds: an incident, and the regulator's list.
    found = Variance.objects.get(source="cage_count")
    assert (found.amount, found.regulator, found.explanation) == (
        Decimal("-100.00"),
        False,  # $100 is not over $100
        "A $100 chip found short",
    )
    assert found.incident is not None and found.incident.kind == "chip_discrepancy"


def test_one_cashier_does_not_sign_both_sides(cage, cardroom, cashier):
    before = written()
    with pytest.raises(DomainError) as refused:
        services.cage_handover(
            cardroom=cardroom,
            count=CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
            signature=signed(cashier),
            incoming=signed(cashier),
            by=cashier,
        )
    assert refused.value.field == "incoming"
    assert written() == before


def test_a_closed_cage_takes_no_entry_and_opens_against_its_closing_count(
    cage, cardroom, cashier, second_cashier, supervisor
):
    services.cage_close(
        cardroom=cardroom,
        count=CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )
    assert cashier_books.open_cage_shift(cardroom) is None
    before = written()
    with pytest.raises(Conflict) as closed:
        services.cage_cash_move(cardroom=cardroom, kind="cash_from_vault", amount="5", by=cashier)
    assert closed.value.field == "cardroom"
    assert written() == before
    reopened = services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips=CAGE_CHIPS, cash=CAGE_CASH),
        signature=signed(second_cashier),
        witness=signed(cashier),
        by=second_cashier,
    )
    assert reopened.opening_count.expected_cash == Decimal("20000.00")


def test_the_cage_opens_once(cage, cardroom, second_cashier, supervisor):
    before = written()
    with pytest.raises(Conflict) as refused:
        services.cage_open(
            cardroom=cardroom,
            count=CountGiven(chips={}, cash={}),
            signature=signed(second_cashier),
            witness=signed(supervisor),
            by=second_cashier,
        )
    assert refused.value.field == "cardroom"
    assert written() == before


def test_chips_issued_and_withdrawn_need_a_witness_and_move_the_cage(
    cage, cardroom, cashier, supervisor, second_cashier
):
    before = written()
    with pytest.raises(DomainError) as refused:
        services.chip_issue_record(
            cardroom=cardroom,
            direction="issue",
            chips={"500": 10},
            reason="New $500 chips",
            witness=signed(second_cashier),  # a cashier does not witness the cashier
            by=cashier,
        )
    assert refused.value.field == "witness"
    assert written() == before
    services.chip_issue_record(
        cardroom=cardroom,
        direction="issue",
        chips={"500": 10},
        reason="New $500 chips",
        witness=signed(supervisor),
        by=cashier,
    )
    with pytest.raises(Conflict):
        services.chip_issue_record(
            cardroom=cardroom,
            direction="withdrawal",
            chips={"500": 11},
            reason="Retired",
            witness=signed(supervisor),
            by=cashier,
        )
    services.chip_issue_record(
        cardroom=cardroom,
        direction="withdrawal",
        chips={"500": 4},
        reason="Retired",
        witness=signed(supervisor),
        by=cashier,
    )
    assert cashier_books.cage_pieces(cardroom)["500.00"] == 6


def test_cage_records_are_append_only(cage):
    from django.db import DatabaseError, transaction

    with pytest.raises(DatabaseError), transaction.atomic():
        CageCount.objects.filter(pk=cage.opening_count.pk).update(note="edited")
    with pytest.raises(DatabaseError), transaction.atomic():
        CageShift.objects.filter(pk=cage.pk).delete()
