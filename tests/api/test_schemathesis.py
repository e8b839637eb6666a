"""Schemathesis against the live schema (``/api/schema/``, served by the app under test): no
operation answers a 5xx, and every answer the schema documents matches it.

The app is Django's WSGI handler under the test settings (``cardroom.wsgi`` is production's),
so it shares the test's database transaction and sees the world the fixtures build. Three
tests:

- fuzzing: every operation, with examples valid by the schema (they reach the services) and
  invalid by it, bounded and derandomized (reproducible, and quick enough for CI); path ids
  are drawn from the world's objects, or left to schemathesis;
- every read (GET) at every object of the world its path can name, once;
- every write, once, with the valid body of the authorization matrix.

The operations of the fuzzing test run one after another inside the test, each with its own
Hypothesis run, so that one world serves them all; failures are collected and reported
together. (schemathesis' ``from_fixture`` would do the same, but its subtests do not run under
pytest 9.)
"""

from __future__ import annotations

import os
import re

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.db import connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core import NOT_SET
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import examples

from .conftest import CORRECTED_DEALER_CARDS, token_for
from .test_authorization import ACTORS, MATRIX, body_for

pytestmark = pytest.mark.django_db

# status_code_conformance: every status an operation answers is one its schema documents
# (the error codes are in the schema).
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]
# Examples per operation: 8 and 4 in Hypothesis's ci profile, fewer in dev (tests/conftest.py);
# SCHEMATHESIS_SCALE=10 multiplies them for a longer, random hunt.
SCALE = int(os.environ.get("SCHEMATHESIS_SCALE", "1"))
EXAMPLES = {
    GenerationMode.POSITIVE: examples(8) * SCALE,
    GenerationMode.NEGATIVE: examples(4) * SCALE,
}

# Which of the world's objects each path's {id} names (the first pattern that matches).
IDS = [
    (r"^/api/v1/tables/\{id\}/open/$", ["closed_table", "dp_table"]),
    (r"^/api/v1/tables/\{id\}/", ["dp_table", "house_table"]),
    (r"^/api/v1/reports/tables/\{id\}/", ["dp_table", "house_table"]),
    (r"^/api/v1/reports/hold/tables/\{id\}/", ["dp_table", "house_table"]),
    (r"^/api/v1/setting-changes/\{id\}/", ["change", "own_change"]),
    (r"^/api/v1/cardrooms/\{id\}/", ["cardroom"]),
    (r"^/api/v1/paytable-changes/\{id\}/", ["paytable_change", "own_paytable_change"]),
    (r"^/api/v1/self-approval-changes/\{id\}/", ["switch", "own_switch"]),
    (r"^/api/v1/staff/\{id\}/", ["staff_member"]),
    (r"^/api/v1/staff-changes/\{id\}/", ["staff_change", "own_staff_change"]),
    (r"^/api/v1/seatings/\{id\}/", ["seating"]),
    (
        r"^/api/v1/hands/\{id\}/",
        ["hand_open", "hand_wagering", "hand_dealt", "hand_ready", "hand_settled"],
    ),
    (r"^/api/v1/reports/players/\{id\}/", ["player"]),
    (r"^/api/v1/reports/seatings/\{id\}/", ["seating"]),
    (r"^/api/v1/exports/\{id\}/retry/$", ["failed_export", "export"]),
    (r"^/api/v1/exports/\{id\}/", ["export"]),
    (r"^/api/v1/cardrooms/\{id\}/", ["cardroom"]),
    (r"^/api/v1/slips/\{id\}/", ["slip"]),
    (r"^/api/v1/devices/\{id\}/", ["device"]),
    (r"^/api/v1/dealers/\{id\}/", ["other_dealer"]),
    (r"^/api/v1/drop-counts/\{id\}/", ["drop_count"]),
    (r"^/api/v1/waitlists/\{id\}/", ["waitlist"]),
    (r"^/api/v1/waitlist-entries/\{id\}/", ["waiting_entry", "called_entry"]),
    (r"^/api/v1/players/\{id\}/", ["identified_player"]),
    (r"^/api/v1/incidents/\{id\}/", ["incident"]),
    (r"^/api/v1/ctrs/\{id\}/", ["ctr"]),
    (r"^/api/v1/exclusions/import/\{id\}/", ["state_list_import"]),
    (r"^/api/v1/exclusions/\{id\}/", ["exclusion"]),
    (r"^/api/v1/reviews/\{id\}/", ["review"]),
    (r"^/api/v1/sar-cases/\{id\}/", ["sar_case"]),
    (r"^/api/v1/audit/verify/\{id\}/", ["chain_run"]),
    (r"^/api/v1/books/verify/\{id\}/", ["books_run"]),
    (r"^/api/v1/state/verify/\{id\}/", ["state_run"]),
]
#: What compliance reads alone (the authorization matrix): read as the auditor, not the floor.
COMPLIANCE_READS = re.compile(
    r"/(cash-log|ctrs|mtl\.csv|ctrs\.csv|structuring-flags|cash-policy|reviews|person-matches)/?$"
    r"|/(ctr-filer/|fincen-batch\.xml|exclusion-actions\.csv)$"
    r"|/exclusions/import/"
    r"|/sar-cases/"
)


def names_for(path: str) -> list[str]:
    return next((names for pattern, names in IDS if re.match(pattern, path)), [])


@pytest.fixture(autouse=True)
def keep_the_test_connection(monkeypatch):
    """A WSGI request closes "old" database connections when it starts and ends; in a test,
    that is the test's own connection, with its transaction (on PostgreSQL; SQLite's in-memory
    database is never closed). Django's test client holds this off for its own requests, and
    this fixture for the WSGI handler's."""
    for connection in connections.all():
        monkeypatch.setattr(connection, "close_if_unusable_or_obsolete", lambda: None)


@pytest.fixture
def localhost_allowed(settings):
    """Schemathesis calls a WSGI app as host ``localhost``: allowed whatever
    DJANGO_ALLOWED_HOSTS says."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]


@pytest.fixture
def supervisor_headers(world) -> dict[str, str]:
    return {"Authorization": f"Token {token_for(world.supervisor)}"}


def load_live_schema(headers: dict[str, str]):
    """The schema as the app serves it (to a floor supervisor's device)."""
    return schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler(), headers=headers)


_LOADED: dict[str, object] = {}


@pytest.fixture
def live_schema(localhost_allowed, supervisor_headers):
    """The live schema, loaded once for the tests that only read it (generating it takes a
    while); it is the same for every request."""
    if "schema" not in _LOADED:
        _LOADED["schema"] = load_live_schema(supervisor_headers)
    return _LOADED["schema"]


@pytest.mark.slow
def test_fuzzing_every_operation_finds_no_server_error_and_no_undocumented_answer(
    world, localhost_allowed, supervisor_headers
):
    schema = load_live_schema(supervisor_headers)
    ids = {name: world[name] for _, names in IDS for name in names}

    @schema.hook
    def flatmap_path_parameters(context, path_parameters):
        if not path_parameters:
            return st.just(path_parameters)
        choices = [path_parameters]
        if "id" in path_parameters:
            choices += [
                {**path_parameters, "id": ids[n]} for n in names_for(context.operation.path)
            ]
        if "day" in path_parameters:
            choices += [{**choice, "day": "2024-03-01"} for choice in choices]
        return st.sampled_from(choices)

    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 50  # every endpoint of cardroom/api/urls.py, by method
    failures: list[str] = []
    for operation in operations:
        for mode, count in EXAMPLES.items():

            @settings(
                max_examples=count,
                deadline=None,
                derandomize=SCALE == 1,
                database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode, hooks=schema.hooks))
            def run(case):
                case.call_and_validate(headers=supervisor_headers, checks=CHECKS)

            try:
                run()
            except Unsatisfiable:
                # Nothing in the request can be made invalid (no parameter, no body).
                assert mode is GenerationMode.NEGATIVE, operation.label
            except (Exception, BaseExceptionGroup) as error:  # noqa: BLE001 - reported below
                failures.append(f"{operation.label} ({mode.value}): {error}")

    assert not failures, "\n\n".join(failures)


def test_every_read_of_the_worlds_objects_answers_as_documented(
    live_schema, supervisor_headers, world, api
):
    auditor_headers = {"Authorization": f"Token {token_for(world.auditor)}"}
    """Every GET at every object of the world its path can name, once the world holds
    negative amounts too (a settled hand corrected: its reversal; wagers off stacks)."""
    hand = world.hand_settled
    corrected = api(world.supervisor).post(
        f"/api/v1/hands/{hand.pk}/corrections/",
        {
            "reason": "The 4s was the 4d",
            "corrects": hand.settlements.latest("entry").pk,
            "dealer_cards": CORRECTED_DEALER_CARDS,
        },
        format="json",
    )
    assert corrected.status_code == 201
    failures: list[str] = []
    calls = 0
    for operation in (result.ok() for result in live_schema.get_all_operations()):
        if operation.method.upper() != "GET":
            continue
        for name in names_for(operation.path) or [None]:
            parameters = {}
            if "{id}" in operation.path:
                parameters["id"] = world[name]
            if "{day}" in operation.path:
                parameters["day"] = "2024-03-01"
            # FinCEN's batch is of CTRs named (or a day's): the world's of an ended day.
            query = {"ctr": world["fincen_ctr"]} if "fincen-batch" in operation.path else None
            case = operation.Case(path_parameters=parameters or None, query=query)
            calls += 1
            reader = COMPLIANCE_READS.search(operation.path)
            headers = auditor_headers if reader else supervisor_headers
            if operation.path.startswith("/api/v1/device/"):  # the device's own routes
                headers = world.device_headers
            try:
                response = case.call_and_validate(headers=headers, checks=CHECKS)
                assert response.status_code == 200, response.text[:300]
            except (Exception, BaseExceptionGroup) as error:  # noqa: BLE001 - reported below
                failures.append(f"{operation.label} at {name}: {error}")
    assert calls >= 25
    assert not failures, "\n\n".join(failures)


# Every write the authorization matrix lets a role make, as the first role it lets.
WRITES = [
    (url, next(a for a, s in zip(ACTORS[1:], statuses[1:], strict=True) if 200 <= s < 300))
    for method, url, *statuses in MATRIX
    if method == "POST" and any(200 <= s < 300 for s in statuses[1:])
]


@pytest.mark.parametrize(("url", "actor"), WRITES, ids=[f"{u} as {a}" for u, a in WRITES])
def test_every_write_answers_as_documented(live_schema, world, url, actor):
    """Each write, once, with the valid body of the authorization matrix: its answer (201,
    200, 202, 204) is what the schema documents."""
    names = re.findall(r"\{(\w+)\}", url)
    operation = live_schema[re.sub(r"\{\w+\}", "{id}", url)]["POST"]
    body = body_for("POST", url, world, actor)
    case = operation.Case(
        path_parameters={"id": world[names[0]]} if names else None,
        body=body if body else NOT_SET,
        media_type="application/json",
    )
    headers = {
        "Authorization": f"Token {token_for(getattr(world, actor))}",
        "Idempotency-Key": f"write-{url}",  # a money-moving write needs one (428 without)
    }

    response = case.call_and_validate(headers=headers, checks=CHECKS)

    assert 200 <= response.status_code < 300, response.text[:300]
