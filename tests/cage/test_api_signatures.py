"""The cage's signatures through the API (design.md 8): a second person signs in the request
that needs them with ``{"username", "secret"}``, the person signed in with ``{"secret"}`` —
never an id picked from a list. Each refusal answers in the one error shape naming the body's
field, and writes nothing but a wrong secret's failure and the refused permission."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User

from audit.models import AuditEvent
from tables.models import Signature
from tests.conftest import PASSWORD, signed

from ..api.conftest import token_client
from .conftest import RACK
from .support import DAY, Floor, sign_through
from .test_signatures import cage_rows, runner_required

pytestmark = pytest.mark.django_db

V = "/api/v1"
WRONG = "not-the-password"


@dataclass
class Endpoint:
    """A request that carries one signature: ``body(entry)`` is the body with ``entry`` as the
    signature at ``field``; ``answer`` reads the signer's id and name from the answer."""

    actor: User
    url: Callable[[], str]
    body: Callable[[dict | None], dict]
    field: str
    signer: User
    answer: Callable[[dict], tuple[int, str]]
    close: Callable[[], Any]
    closed: tuple[int, str]  # the status and the field once the record is closed
    prepare: Callable[[], Any] = lambda: None
    created: int = 200
    on_record: User | None = None
    outsider: User | None = None


def endpoints(floor: dict, clock: Any, p: dict[str, User]) -> dict[str, Endpoint]:
    f = Floor(floor, clock, p)
    supervisor, dealer = f.supervisor, f.dealer
    own = {"secret": PASSWORD}

    def count(counted_by: dict | None, signature: dict | None) -> dict:
        return {"kind": "closing", "chips": RACK, "counted_by": counted_by, "signature": signature}

    def box(entry: dict | None) -> dict:
        return {"gaming_day": DAY.isoformat(), "shift": "day", "second_counter": entry}

    def fill_url(action: str) -> Callable[[], str]:
        return lambda: f"{V}/slips/{f.fill.pk}/{action}/"

    def signed_off(answer: dict) -> tuple[int, str]:
        return answer["signed_off_by"], answer["signed_off_by_name"]

    return {
        "rack counter": Endpoint(
            actor=supervisor,
            url=lambda: f"{V}/tables/{f.house.pk}/inventory/",
            body=lambda entry: count(entry, own),
            field="counted_by",
            signer=dealer,
            created=201,
            answer=lambda a: (a["counted_by"], a["counted_by_name"]),
            close=lambda: f.count_rack(signed(dealer), signed(supervisor)),
            closed=(409, "table"),
            on_record=supervisor,
            outsider=p["auditor"],
        ),
        "rack verifier": Endpoint(
            actor=supervisor,
            url=lambda: f"{V}/tables/{f.house.pk}/inventory/",
            body=lambda entry: count(_entry(dealer), entry),
            field="signature",
            signer=supervisor,
            created=201,
            answer=lambda a: (a["verified_by"], a["verified_by_name"]),
            close=lambda: f.count_rack(signed(dealer), signed(supervisor)),
            closed=(409, "table"),
        ),
        "second counter": Endpoint(
            actor=p["counter"],
            prepare=lambda: clock.at("14:05"),
            url=lambda: f"{V}/tables/{f.dp.pk}/drop-counts/",
            body=box,
            field="second_counter",
            signer=p["second_counter"],
            created=201,
            answer=lambda a: (a["second_counter"], a["second_counter_name"]),
            close=lambda: (f.day_shift_counted(), f.close_shift()),
            closed=(409, "shift"),
            on_record=p["counter"],
            outsider=dealer,
        ),
        "slip dealer": Endpoint(
            actor=supervisor,  # the floor's device at the table: the dealer signs on it
            prepare=f.prepare_fill,
            url=fill_url("dealer-sign"),
            body=lambda entry: {"signature": entry},
            field="signature",
            signer=dealer,
            answer=step_signer("dealer"),
            close=lambda: f.void(signed(dealer)),
            closed=(409, "slip"),
            on_record=p["cashier"],  # who prepared the fill
            outsider=p["auditor"],
        ),
        "slip runner": Endpoint(
            actor=p["cashier"],  # the cage's device: the runner signs on it
            prepare=lambda: (runner_required(f.cardroom), f.prepare_fill()),
            url=fill_url("carry"),
            body=lambda entry: {"signature": entry},
            field="signature",
            signer=p["second_cashier"],
            answer=step_signer("carried"),
            close=lambda: f.void(signed(dealer)),
            closed=(409, "slip"),
            on_record=p["cashier"],
            outsider=dealer,
        ),
        "slip cashier": Endpoint(
            actor=p["cashier"],
            prepare=f.request_fill,
            url=fill_url("prepare"),
            body=lambda entry: {"signature": entry},
            field="signature",
            signer=p["cashier"],
            answer=step_signer("prepared"),
            close=lambda: f.void(signed(dealer)),
            closed=(409, "slip"),
        ),
        "slip supervisor": Endpoint(
            actor=supervisor,
            prepare=f.dealer_signed,
            url=fill_url("supervisor-sign"),
            body=lambda entry: {"signature": entry},
            field="signature",
            signer=supervisor,
            answer=step_signer("supervisor"),
            close=lambda: f.supervisor_sign(signed(supervisor)),
            closed=(409, "slip"),
        ),
        "witness": Endpoint(
            actor=supervisor,
            prepare=f.request_fill,
            url=fill_url("void"),
            body=lambda entry: {"reason": "Wrong table", "witness": entry},
            field="witness",
            signer=dealer,
            answer=lambda a: (a["witness"], a["witness_name"]),
            close=lambda: sign_through(f.fill, p),
            closed=(409, "slip"),
            on_record=supervisor,
            outsider=p["counter"],
        ),
        "variance sign-off": Endpoint(
            actor=supervisor,
            prepare=lambda: f.day_shift_counted(over=True),
            url=lambda: f"{V}/drop-counts/{f.house_box().pk}/sign-off/",
            body=lambda entry: {"reason": "A dollar chip tipped in", "signature": entry},
            field="signature",
            signer=supervisor,
            answer=signed_off,
            close=lambda: (f.sign_off(signed(supervisor)), f.close_shift()),
            closed=(409, "count"),
        ),
        "shift close": Endpoint(
            actor=supervisor,
            prepare=f.day_shift_counted,
            url=lambda: f"{V}/cardrooms/{f.cardroom.pk}/shift-closes/",
            body=lambda entry: {"gaming_day": DAY.isoformat(), "shift": "day", "signature": entry},
            field="signature",
            signer=supervisor,
            created=201,
            answer=lambda a: (a["closed_by"], a["closed_by_name"]),
            close=f.close_shift,
            closed=(409, "shift"),
        ),
        "day close": Endpoint(
            actor=p["auditor"],
            prepare=f.day_over,
            url=lambda: f"{V}/cardrooms/{f.cardroom.pk}/day-closes/",
            body=lambda entry: {"gaming_day": DAY.isoformat(), "signature": entry},
            field="signature",
            signer=p["auditor"],
            created=201,
            answer=lambda a: (a["closed_by"], a["closed_by_name"]),
            close=lambda: f.close_day(signed(p["auditor"])),
            closed=(409, "gaming_day"),
        ),
    }


def step_signer(step: str) -> Callable[[dict], tuple[int, str]]:
    """Who signed ``step`` of the slip, by id and name, from the slip's answer."""
    return lambda a: next((s["person"], s["person_name"]) for s in a["steps"] if s["step"] == step)


def _entry(user: User, secret: str = PASSWORD) -> dict:
    return {"username": user.get_username(), "secret": secret}


SECOND_PERSON = ("rack counter", "second counter", "slip dealer", "slip runner", "witness")
OWN = (
    "rack verifier",
    "slip cashier",
    "slip supervisor",
    "variance sign-off",
    "shift close",
    "day close",
)


def _ready(name: str, floor: dict, clock: Any, people: dict) -> Endpoint:
    endpoint = endpoints(floor, clock, people)[name]
    endpoint.prepare()
    return endpoint


@pytest.fixture(params=SECOND_PERSON + OWN)
def endpoint(request, floor, clock, people) -> Endpoint:
    return _ready(request.param, floor, clock, people)


@pytest.fixture(params=SECOND_PERSON)
def second_endpoint(request, floor, clock, people) -> Endpoint:
    return _ready(request.param, floor, clock, people)


def post(endpoint: Endpoint, entry: dict | None) -> Any:
    body = endpoint.body(entry)
    if entry is None:
        body.pop(endpoint.field)
    return token_client(endpoint.actor).post(endpoint.url(), body, format="json")


def events_since(seq: int | None) -> list[str]:
    return list(
        AuditEvent.objects.filter(seq__gt=seq or 0).order_by("seq").values_list("action", flat=True)
    )


def last_seq() -> int | None:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first()


def refused(endpoint: Endpoint, entry: dict | None, status: int, field: str) -> dict:
    """The request is refused with ``status`` naming ``field``; no record of the cage and no
    signature is written. The error, for more checks."""
    before = cage_rows()
    response = post(endpoint, entry)
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["field"] == field, error
    assert cage_rows() == before
    return error


def test_each_signature_is_given_in_the_request_and_the_answer_names_the_signer(endpoint):
    own = endpoint.signer == endpoint.actor
    response = post(endpoint, {"secret": PASSWORD} if own else _entry(endpoint.signer))
    assert response.status_code == endpoint.created, response.content
    assert endpoint.answer(response.json()) == (
        endpoint.signer.pk,
        endpoint.signer.get_full_name(),
    )
    assert Signature.objects.filter(signer=endpoint.signer).count() >= 1


def test_a_wrong_secret_is_refused_naming_the_field_and_audited(endpoint):
    since = last_seq()
    error = refused(endpoint, _entry(endpoint.signer, WRONG), 403, endpoint.field)
    assert (error["code"], error["message"]) == (
        "signature_refused",
        "That username, password or PIN is wrong.",
    )
    assert events_since(since) == ["signature.failed", "permission.refused"]


def test_five_wrong_secrets_lock_the_signer_out(endpoint):
    for _ in range(5):
        refused(endpoint, _entry(endpoint.signer, WRONG), 403, endpoint.field)
    error = refused(endpoint, _entry(endpoint.signer), 403, endpoint.field)
    assert "Too many wrong passwords or PINs" in error["message"]


def test_no_signature_once_the_record_is_closed(endpoint):
    endpoint.close()
    status, field = endpoint.closed
    refused(endpoint, _entry(endpoint.signer), status, field)


def test_a_request_without_its_signature_names_the_missing_field(endpoint):
    refused(endpoint, None, 400, endpoint.field)


def test_the_same_person_never_signs_twice(second_endpoint):
    assert second_endpoint.on_record is not None
    error = refused(second_endpoint, _entry(second_endpoint.on_record), 422, second_endpoint.field)
    assert "is on this record already: another person signs" in error["message"]


def test_a_person_without_the_role_cannot_sign(second_endpoint):
    assert second_endpoint.outsider is not None
    error = refused(second_endpoint, _entry(second_endpoint.outsider), 422, second_endpoint.field)
    assert "cannot sign" in error["message"]


def test_an_id_is_no_signature(second_endpoint):
    """The old bodies named the second person by id: refused, nothing written."""
    before = cage_rows()
    body = second_endpoint.body(None) | {second_endpoint.field: second_endpoint.signer.pk}
    response = token_client(second_endpoint.actor).post(second_endpoint.url(), body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"].startswith(second_endpoint.field)
    assert cage_rows() == before
