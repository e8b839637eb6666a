"""A fill's and a credit's signature chain (Nevada MICS, table games: fills and credits; 25 CFR
543.18): the cashier prepares a fill, a runner carries it where the cardroom sets one, the
dealer on duty counts and signs, a floor supervisor signs, and only then the rack moves; a
credit runs the other way and moves the rack down once the cage receives it. Each step is its
own person's, in its turn; out of turn, a second step by one person, the wrong role: refused by
name, nothing written. The original found in the drop box is matched to the duplicate."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from audit.models import AuditEvent
from cage import services
from cage.cashier_books import cage_pieces
from cage.models import Slip, SlipStep
from cage.slip_selectors import slip_next_step, slips_awaiting, slips_unmatched
from core.errors import Conflict, DomainError, PermissionDenied
from tables.models import HouseBankEntry
from tables.signatures import SignatureRefused
from tests.cage_books import cage_opened, slip_prepared
from tests.conftest import signed

from .support import DAY, Floor, sign_through
from .test_refusals import refused
from .test_signatures import runner_required

pytestmark = pytest.mark.django_db


def request(floor, people, kind: str = "fill", chips: dict | None = None) -> Slip:
    return services.slip_request(
        table=floor["house"], kind=kind, chips=chips or {"100": 5}, by=people["supervisor"]
    )


def bank_moves(slip: Slip) -> list[Decimal]:
    return list(
        HouseBankEntry.objects.filter(reference=slip.number).values_list("amount", flat=True)
    )


def test_a_fill_moves_the_rack_only_once_cashier_runner_dealer_and_floor_have_signed(floor, people):
    runner_required(floor["house"].cardroom)
    fill = request(floor, people)
    cashier, runner = people["cashier"], people["second_cashier"]
    dealer, supervisor = people["dealer"], people["supervisor"]
    slip_prepared(fill, cashier)
    assert slip_next_step(fill) == "carried"
    services.slip_carry(slip=fill, signature=signed(runner), by=cashier)
    services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer)
    assert bank_moves(fill) == []  # three signatures: the chips are not in the rack yet
    services.slip_supervisor_sign(slip=fill, signature=signed(supervisor), by=supervisor)
    assert bank_moves(fill) == [Decimal("500.00")]
    steps = SlipStep.objects.filter(slip=fill).order_by("id")
    assert [(s.step, s.person) for s in steps] == [
        ("prepared", cashier),
        ("carried", runner),
        ("dealer", dealer),
        ("supervisor", supervisor),
    ]
    assert all(s.signature.signer == s.person and s.signature.capacity == s.step for s in steps)
    fill.refresh_from_db()
    assert fill.delivery.delivered_by == supervisor and slip_next_step(fill) is None
    actions = AuditEvent.objects.filter(object_type="cage.slip", object_id=str(fill.pk))
    assert list(actions.order_by("seq").values_list("action", flat=True)) == [
        "cage.slip_requested",
        *["cage.slip_step_signed"] * 4,
        "cage.slip_delivered",
    ]


def test_a_credit_leaves_the_rack_only_once_the_cage_receives_it(floor, people):
    credit = request(floor, people, "credit", {"25": 4})
    cashier, dealer, supervisor = people["cashier"], people["dealer"], people["supervisor"]
    assert slip_next_step(credit) == "dealer"  # a credit is not prepared at the cage
    services.slip_dealer_sign(slip=credit, signature=signed(dealer), by=dealer)
    services.slip_supervisor_sign(slip=credit, signature=signed(supervisor), by=supervisor)
    assert bank_moves(credit) == []
    assert slips_awaiting("cage_received", cardroom=credit.cardroom) == [credit]
    cage_opened(credit.cardroom, cashier)
    in_cage = cage_pieces(credit.cardroom)["25.00"]
    services.slip_cage_receive(slip=credit, signature=signed(cashier), by=cashier)
    assert bank_moves(credit) == [Decimal("-100.00")]
    assert cage_pieces(credit.cardroom)["25.00"] == in_cage + 4  # into the cage's books
    assert [s.step for s in SlipStep.objects.filter(slip=credit)] == [
        "dealer",
        "supervisor",
        "cage_received",
    ]


def test_a_step_out_of_turn_is_refused_naming_the_step_the_slip_waits_for(floor, people):
    fill, credit = request(floor, people), request(floor, people, "credit", {"25": 4})
    cashier, dealer, supervisor = people["cashier"], people["dealer"], people["supervisor"]
    refused(
        lambda: services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer),
        Conflict,
        "slip",
        "Fill F-000001 is not prepared by the cashier yet: it is counted and signed by the "
        "dealer only after that.",
    )
    refused(
        lambda: services.slip_supervisor_sign(
            slip=fill, signature=signed(supervisor), by=supervisor
        ),
        Conflict,
        "slip",
        "is not prepared by the cashier yet",
    )
    refused(
        lambda: services.slip_prepare(slip=credit, signature=signed(cashier), by=cashier),
        Conflict,
        "slip",
        "Credit C-000001 is never prepared by the cashier: not its step.",
    )
    refused(
        lambda: services.slip_carry(
            slip=credit, signature=signed(people["second_cashier"]), by=cashier
        ),
        Conflict,
        "slip",
        "is never carried by the runner: the cardroom sets no runner",
    )
    refused(
        lambda: services.slip_cage_receive(slip=credit, signature=signed(cashier), by=cashier),
        Conflict,
        "slip",
        "is not counted and signed by the dealer yet",
    )
    slip_prepared(fill, cashier)
    refused(
        lambda: services.slip_prepare(
            slip=fill, signature=signed(people["second_cashier"]), by=people["second_cashier"]
        ),
        Conflict,
        "slip",
        "is prepared by the cashier already",
    )


def test_one_person_never_signs_two_steps_of_one_slip(floor, people):
    runner_required(floor["house"].cardroom)
    fill = request(floor, people)
    cashier = people["cashier"]
    slip_prepared(fill, cashier)
    refused(
        lambda: services.slip_carry(slip=fill, signature=signed(cashier), by=cashier),
        DomainError,
        "signature",
        "Cy Moss is on this record already: another person signs.",
    )
    # The floor supervisor who carries the chips does not sign the floor's step as well.
    supervisor, dealer = people["supervisor"], people["dealer"]
    services.slip_carry(slip=fill, signature=signed(supervisor), by=cashier)
    services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer)
    refused(
        lambda: services.slip_supervisor_sign(
            slip=fill, signature=signed(supervisor), by=supervisor
        ),
        DomainError,
        "signature",
        "Fran Ortiz is on this record already",
    )
    second = people["second_supervisor"]
    services.slip_supervisor_sign(slip=fill, signature=signed(second), by=second)
    assert bank_moves(fill) == [Decimal("500.00")]


def test_the_database_keeps_one_person_to_one_step_whatever_calls_it(floor, people):
    fill = request(floor, people)
    cashier = people["cashier"]
    step = slip_prepared(fill, cashier)
    with pytest.raises(IntegrityError), transaction.atomic():
        SlipStep.objects.create(
            slip=fill, step="dealer", person=cashier, signature=step.signature, at=step.at
        )


def test_each_step_is_its_roles_and_the_signed_in_person_signs_as_themselves(floor, people):
    fill = request(floor, people)
    cashier, dealer = people["cashier"], people["dealer"]
    refused(
        lambda: services.slip_prepare(slip=fill, signature=signed(dealer), by=dealer),
        PermissionDenied,
        None,
        "Only a cashier may prepare a fill",
    )
    refused(
        lambda: services.slip_prepare(
            slip=fill, signature=signed(people["second_cashier"]), by=cashier
        ),
        SignatureRefused,
        "signature",
        "Sign as yourself, Cy Moss.",
    )
    slip_prepared(fill, cashier)
    services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer)
    refused(
        lambda: services.slip_supervisor_sign(slip=fill, signature=signed(cashier), by=cashier),
        PermissionDenied,
        None,
        "Only a floor supervisor may sign a fill or a credit",
    )


def test_a_void_midway_needs_a_witness_who_signed_no_step(floor, people):
    fill = request(floor, people)
    cashier, dealer, supervisor = people["cashier"], people["dealer"], people["supervisor"]
    slip_prepared(fill, cashier)
    refused(
        lambda: services.slip_void(
            slip=fill, reason="Wrong table", witness=signed(cashier), by=supervisor
        ),
        DomainError,
        "witness",
        "Cy Moss is on this record already",
    )
    services.slip_void(slip=fill, reason="Wrong table", witness=signed(dealer), by=supervisor)
    assert slips_awaiting("dealer", table=floor["house"]) == []
    refused(
        lambda: services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer),
        Conflict,
        "slip",
        "Fill F-000001 is void.",
    )


def test_slips_awaiting_each_step(floor, people):
    runner_required(floor["house"].cardroom)
    fill, credit = request(floor, people), request(floor, people, "credit", {"25": 4})
    room = fill.cardroom
    assert slips_awaiting("prepared", cardroom=room) == [fill]
    assert slips_awaiting("dealer", cardroom=room) == [credit]
    cashier = people["cashier"]
    slip_prepared(fill, cashier)
    assert slips_awaiting("carried", cardroom=room) == [fill]
    assert slips_awaiting("prepared", cardroom=room) == []


def test_the_original_found_in_the_drop_box_matches_the_duplicate(floor, clock, people):
    f = Floor(floor, clock, people)
    fill, waiting = request(floor, people), request(floor, people, "fill", {"5": 2})
    sign_through(fill, people)
    clock.at("14:05")
    f.count_box(f.dp, signed(people["second_counter"]))
    f.count_box(f.house, signed(people["second_counter"]))
    room, house_box = fill.cardroom, f.house_box()
    assert slips_unmatched(room, DAY, "day") == [fill]
    dp_box = f.dp_box()
    refused(
        lambda: services.slip_original_found(slip=fill, drop_count=dp_box),
        Conflict,
        "slip",
        "is House's: its original is not in DP's box",
    )
    refused(
        lambda: services.slip_original_found(slip=waiting, drop_count=house_box),
        Conflict,
        "slip",
        "Fill F-000002 is not delivered: its original is not in a box.",
    )
    original = services.slip_original_found(slip=fill, drop_count=house_box)
    assert (original.slip, original.drop_count) == (fill, house_box)
    assert slips_unmatched(room, DAY, "day") == []
    refused(
        lambda: services.slip_original_found(slip=fill, drop_count=house_box),
        Conflict,
        "slip",
        "original is recorded already",
    )
    event = AuditEvent.objects.filter(action="cage.slip_original_found").get()
    assert event.actor == people["counter"]
