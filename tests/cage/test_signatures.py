"""The cage's signatures (design.md 8): every second person of a control — the dealer who
counts a rack, the second counter of a drop box, whoever signs for a fill or a credit, a void's
witness — signs by authenticating at that moment, and so do the supervisor who verifies a
count, signs off a variance or closes a shift and compliance closing the day.

For each kind of signature: it is kept on its record and the record names the person who
authenticated; a wrong password or PIN, the same person twice, a person without the role and a
signature once the record is closed are refused by the field's name and write nothing (a wrong
secret writes only its failure, counted like a login's); five wrong secrets in a row lock the
signer out for a while.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db.models import Model

from audit.models import AuditEvent
from cage import services
from cage.models import DayClose, InventoryCount, ShiftClose
from core.errors import Conflict, DomainError
from tables.models import Signature, StaffProfile
from tables.signatures import SignatureInput, SignatureRefused, pin_set
from tests.cage_books import slip_prepared
from tests.conftest import PASSWORD, signed

from .support import DAY, Floor, sign_through

pytestmark = pytest.mark.django_db

WRONG = "not-the-password"


@dataclass
class Kind:
    """One kind of signature of the cage, ready to be given (``call``) once ``prepare`` has
    brought the floor to the moment it is asked for."""

    field: str
    capacity: str
    signer: User  # who may sign
    call: Callable[[SignatureInput | None], Any]
    record: Callable[[Any], Model]  # the record the signature is kept on, from the answer
    named: Callable[[Any], User]  # the record's column that names the signer
    close: Callable[[], None]  # the record closes: it takes no more signatures
    closed: tuple[type[DomainError], str, str]  # and the refusal then
    prepare: Callable[[], None] = lambda: None
    on_record: User | None = None  # a second person's kinds: who is on the record already
    outsider: User | None = None  # a second person's kinds: someone without the role


SECOND_PERSON = ("rack counter", "second counter", "slip dealer", "slip runner", "witness")
OWN = (
    "rack verifier",
    "slip cashier",
    "slip supervisor",
    "variance sign-off",
    "shift close",
    "day close",
)


def runner_required(cardroom: Any) -> None:
    """The cardroom sets a runner (a cardroom setting no service of the cage writes)."""
    type(cardroom).objects.filter(pk=cardroom.pk).update(runner_required=True)
    cardroom.refresh_from_db()


def kinds(floor: dict, clock: Any, p: dict[str, User]) -> dict[str, Kind]:
    f = Floor(floor, clock, p)
    supervisor, dealer = f.supervisor, f.dealer
    return {
        "rack counter": Kind(
            field="counted_by",
            capacity="counter",
            signer=dealer,
            call=lambda entry: f.count_rack(entry, signed(supervisor)),
            record=lambda count: count,
            named=lambda count: count.counted_by,
            close=lambda: f.count_rack(signed(dealer), signed(supervisor)),
            closed=(Conflict, "table", "is closed: open it before counting its rack"),
            on_record=supervisor,
            outsider=p["auditor"],
        ),
        "rack verifier": Kind(
            field="signature",
            capacity="verifier",
            signer=supervisor,
            call=lambda entry: f.count_rack(signed(dealer), entry),
            record=lambda count: count,
            named=lambda count: count.verified_by,
            close=lambda: f.count_rack(signed(dealer), signed(supervisor)),
            closed=(Conflict, "table", "is closed: open it before counting its rack"),
        ),
        "second counter": Kind(
            field="second_counter",
            capacity="second_counter",
            signer=p["second_counter"],
            prepare=lambda: clock.at("14:05"),
            call=lambda entry: f.count_box(f.dp, entry),
            record=lambda count: count,
            named=lambda count: count.second_counter,
            close=lambda: (f.day_shift_counted(), f.close_shift()),
            closed=(Conflict, "shift", "The day shift of 2024-03-01 is closed"),
            on_record=p["counter"],
            outsider=dealer,
        ),
        "slip dealer": Kind(
            field="signature",
            capacity="dealer",
            signer=dealer,
            prepare=f.prepare_fill,
            call=f.dealer_sign,
            record=lambda step: step.slip,
            named=lambda step: step.person,
            close=lambda: services.slip_void(
                slip=f.fill, reason="Wrong table", witness=signed(dealer), by=supervisor
            ),
            closed=(Conflict, "slip", "F-000001 is void"),
            on_record=p["cashier"],  # who prepared the fill
            outsider=p["auditor"],
        ),
        "slip runner": Kind(
            field="signature",
            capacity="carried",
            signer=p["second_cashier"],
            prepare=lambda: (runner_required(f.cardroom), f.prepare_fill()),
            call=lambda entry: services.slip_carry(slip=f.fill, signature=entry, by=p["cashier"]),
            record=lambda step: step.slip,
            named=lambda step: step.person,
            close=lambda: services.slip_void(
                slip=f.fill, reason="Wrong table", witness=signed(dealer), by=supervisor
            ),
            closed=(Conflict, "slip", "F-000001 is void"),
            on_record=p["cashier"],  # who prepared the fill
            outsider=dealer,
        ),
        "slip cashier": Kind(
            field="signature",
            capacity="prepared",
            signer=p["cashier"],
            prepare=f.request_fill,
            call=lambda entry: services.slip_prepare(slip=f.fill, signature=entry, by=p["cashier"]),
            record=lambda step: step.slip,
            named=lambda step: step.person,
            close=lambda: services.slip_void(
                slip=f.fill, reason="Wrong table", witness=signed(dealer), by=supervisor
            ),
            closed=(Conflict, "slip", "F-000001 is void"),
        ),
        "slip supervisor": Kind(
            field="signature",
            capacity="supervisor",
            signer=supervisor,
            prepare=f.dealer_signed,
            call=f.supervisor_sign,
            record=lambda step: step.slip,
            named=lambda step: step.person,
            close=lambda: f.supervisor_sign(signed(supervisor)),
            closed=(Conflict, "slip", "F-000001 is delivered already"),
        ),
        "witness": Kind(
            field="witness",
            capacity="witness",
            signer=dealer,
            prepare=f.request_fill,
            call=f.void,
            record=lambda voided: voided.slip,
            named=lambda voided: voided.witness,
            close=lambda: sign_through(f.fill, p),
            closed=(Conflict, "slip", "F-000001 is delivered already"),
            on_record=supervisor,  # who voids it
            outsider=p["counter"],
        ),
        "variance sign-off": Kind(
            field="signature",
            capacity="approver",
            signer=supervisor,
            prepare=lambda: f.day_shift_counted(over=True),
            call=f.sign_off,
            record=lambda sign_off: sign_off,  # bound to its amount: kept on the sign-off
            named=lambda sign_off: sign_off.signed_by,
            close=lambda: (f.sign_off(signed(supervisor)), f.close_shift()),
            closed=(Conflict, "count", "signed off already"),
        ),
        "shift close": Kind(
            field="signature",
            capacity="closer",
            signer=supervisor,
            prepare=f.day_shift_counted,
            call=lambda entry: services.shift_close(
                cardroom=f.cardroom, gaming_day=DAY, shift="day", signature=entry, by=supervisor
            ),
            record=lambda closed: closed,
            named=lambda closed: closed.closed_by,
            close=f.close_shift,
            closed=(Conflict, "shift", "The day shift of 2024-03-01 is closed"),
        ),
        "day close": Kind(
            field="signature",
            capacity="closer",
            signer=p["auditor"],
            prepare=f.day_over,
            call=f.close_day,
            record=lambda closed: closed,
            named=lambda closed: closed.closed_by,
            close=lambda: f.close_day(signed(p["auditor"])),
            closed=(Conflict, "gaming_day", "is closed already"),
        ),
    }


@pytest.fixture(params=SECOND_PERSON + OWN)
def kind(request, floor, clock, people) -> Kind:
    chosen = kinds(floor, clock, people)[request.param]
    chosen.prepare()
    return chosen


@pytest.fixture(params=SECOND_PERSON)
def second_kind(request, floor, clock, people) -> Kind:
    chosen = kinds(floor, clock, people)[request.param]
    chosen.prepare()
    return chosen


@pytest.fixture(params=OWN)
def own_kind(request, floor, clock, people) -> Kind:
    chosen = kinds(floor, clock, people)[request.param]
    chosen.prepare()
    return chosen


def as_(user: User, secret: str = PASSWORD) -> SignatureInput:
    return SignatureInput(user.get_username(), secret)


# The cage's records, and the signatures on them: a refusal adds none.
CAGE = (
    "InventoryCount",
    "Slip",
    "SlipStep",
    "SlipDelivery",
    "SlipVoid",
    "SlipOriginal",
    "DropCount",
    "VarianceSignOff",
    "DropCountCounter",
    "DropSlipOriginal",
    "DropCountCorrection",
    "Variance",
)
CLOSES = ("ShiftClose", "DayClose")


def cage_rows() -> dict[str, int]:
    rows = {name: apps.get_model("cage", name).objects.count() for name in CAGE + CLOSES}
    return rows | {"signatures": Signature.objects.count()}


@pytest.fixture
def refused_cleanly(refusal):
    """``with refused_cleanly(kind, field=…, says=…)``: the ``refusal`` (nothing of the tables,
    the audit log, … written) and no record of the cage either."""

    @contextmanager
    def expect(error: type[DomainError], *, field: str, says: str) -> Iterator[Any]:
        before = cage_rows()
        with refusal(error, field=field, says=says) as refused:
            yield refused
        assert cage_rows() == before

    return expect


@contextmanager
def only_the_failure_counted(user: User, failures: int = 1) -> Iterator[None]:
    """A wrong secret: nothing of the cage written, one ``signature.failed`` event in the
    audit log, and the signer's failures counted."""
    before, seq = cage_rows(), AuditEvent.objects.order_by("-seq").values_list("seq").first()
    yield
    assert cage_rows() == before
    events = AuditEvent.objects.filter(seq__gt=seq[0] if seq else 0)
    assert list(events.values_list("action", flat=True)) == ["signature.failed"]
    assert StaffProfile.objects.get(user=user).signing_failures == failures


# --- each kind ----------------------------------------------------------------------------------


def test_a_signature_is_kept_on_its_record_naming_who_authenticated(kind):
    answer = kind.call(as_(kind.signer))
    record = kind.record(answer)
    assert kind.named(answer) == kind.signer
    mine = Signature.objects.get(
        record_type=record._meta.label_lower, record_id=record.pk, signer=kind.signer
    )
    assert (mine.capacity, mine.method) == (kind.capacity, Signature.Method.PASSWORD)
    # The audit event of the signing names the signature, the signer by id and by name.
    event = AuditEvent.objects.filter(
        object_type=record._meta.label_lower, object_id=str(record.pk), payload__contains="signed"
    ).latest("seq")
    named = json.loads(event.payload)["signed"][kind.capacity]
    assert (named["signer"], named["method"]) == (kind.signer.pk, "password")
    assert named["name"] == kind.signer.get_full_name()


def test_a_wrong_password_or_pin_is_refused_by_the_fields_name_and_counted(kind):
    with only_the_failure_counted(kind.signer), pytest.raises(SignatureRefused) as refused:
        kind.call(as_(kind.signer, WRONG))
    assert (refused.value.field, refused.value.message) == (
        kind.field,
        "That username, password or PIN is wrong.",
    )


def test_no_signature_is_taken_once_the_record_is_closed(kind, refused_cleanly):
    kind.close()
    error, field, says = kind.closed
    with refused_cleanly(error, field=field, says=says):
        kind.call(as_(kind.signer))


def test_five_wrong_secrets_in_a_row_lock_the_signer_out_for_a_while(kind, clock):
    for failures in range(1, 6):
        with only_the_failure_counted(kind.signer, failures), pytest.raises(SignatureRefused):
            kind.call(as_(kind.signer, WRONG))
    # Locked: even the right password is refused now, and nothing is counted for it.
    with pytest.raises(SignatureRefused) as locked:
        kind.call(as_(kind.signer))
    assert locked.value.field == kind.field
    assert "Too many wrong passwords or PINs" in locked.value.message
    assert "can sign again in 1 minute" in locked.value.message
    assert StaffProfile.objects.get(user=kind.signer).signing_failures == 5
    clock.advance(minutes=2)
    kind.call(as_(kind.signer))
    assert StaffProfile.objects.get(user=kind.signer).signing_failures == 0


def test_nobody_signs_without_saying_who_with_which_secret(kind, refused_cleanly):
    with refused_cleanly(DomainError, field=kind.field, says="Sign"):
        kind.call(None)
    with refused_cleanly(DomainError, field=kind.field, says="password or PIN"):
        kind.call(as_(kind.signer, ""))


# --- a second person's signature ------------------------------------------------------------------


def test_the_same_person_never_signs_a_record_twice(second_kind, refused_cleanly):
    assert second_kind.on_record is not None
    with refused_cleanly(
        DomainError, field=second_kind.field, says="is on this record already: another person"
    ):
        second_kind.call(as_(second_kind.on_record))


def test_a_person_without_the_role_cannot_sign(second_kind, refused_cleanly):
    assert second_kind.outsider is not None
    with refused_cleanly(DomainError, field=second_kind.field, says="cannot sign"):
        second_kind.call(as_(second_kind.outsider))


def test_a_name_that_is_no_account_is_refused_like_a_wrong_secret(second_kind, refused_cleanly):
    with refused_cleanly(
        SignatureRefused, field=second_kind.field, says="username, password or PIN is wrong"
    ):
        second_kind.call(SignatureInput("nobody-here", PASSWORD))


# --- the person signed in signs as themselves ---------------------------------------------------


def test_the_person_signed_in_signs_as_themselves_not_as_another(own_kind, people, refused_cleanly):
    other = people["second_supervisor"] if own_kind.signer != people["second_supervisor"] else None
    assert other is not None
    with refused_cleanly(SignatureRefused, field=own_kind.field, says="Sign as yourself"):
        own_kind.call(as_(other))


# --- a fill signed for at the table ---------------------------------------------------------------


def prepared_fill(floor: dict, people: dict[str, User]) -> Any:
    fill = services.slip_request(
        table=floor["house"], kind="fill", chips={"25": 4}, by=people["supervisor"]
    )
    cashier = people["cashier"]
    slip_prepared(fill, cashier)
    return fill


def test_only_the_dealer_on_duty_counts_and_signs_a_fill(floor, people, refused_cleanly):
    fill = prepared_fill(floor, people)
    supervisor = people["supervisor"]
    with refused_cleanly(DomainError, field="signature", says="Rae Ng is not the dealer on duty"):
        services.slip_dealer_sign(slip=fill, signature=as_(people["other_dealer"]), by=supervisor)
    with refused_cleanly(DomainError, field="signature", says="is not a dealer: cannot sign"):
        services.slip_dealer_sign(
            slip=fill, signature=as_(people["second_supervisor"]), by=supervisor
        )
    step = services.slip_dealer_sign(slip=fill, signature=as_(people["dealer"]), by=supervisor)
    assert (step.step, step.person) == ("dealer", people["dealer"])
    assert step.signature.capacity == "dealer"


def test_a_dealer_signs_for_a_fill_with_their_pin(floor, people):
    supervisor, dealer = people["supervisor"], people["dealer"]
    pin_set(user=dealer, password=PASSWORD, pin="4816", by=dealer)
    fill = prepared_fill(floor, people)
    step = services.slip_dealer_sign(slip=fill, signature=as_(dealer, "4816"), by=dealer)
    signature = Signature.objects.get(record_type="cage.slip", record_id=fill.pk, signer=dealer)
    assert (signature.signer, signature.method, signature.capacity) == (dealer, "pin", "dealer")
    assert step.signature == signature
    services.slip_supervisor_sign(slip=fill, signature=signed(supervisor), by=supervisor)
    fill.refresh_from_db()
    assert fill.delivery.bank_entry.amount == 100  # the rack moved once the floor signed


def test_every_close_keeps_the_signature_of_who_closed(floor, clock, people):
    """The closes' records are their own: the day's close keeps compliance's signature."""
    chosen = kinds(floor, clock, people)["day close"]
    chosen.prepare()
    closed = chosen.call(as_(people["auditor"]))
    assert isinstance(closed, DayClose)
    shifts = ShiftClose.objects.filter(gaming_day=DAY)
    assert shifts.count() == 3
    for shift in shifts:
        assert (
            Signature.objects.get(record_type="cage.shiftclose", record_id=shift.pk).signer
            == (people["supervisor"])
        )
    assert InventoryCount.objects.filter(kind="closing").get().counted_by == people["dealer"]
    assert timedelta(0) <= clock.now - closed.closed_at
