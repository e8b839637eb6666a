"""One error shape everywhere, ``{"error": {"code", "message", "field"}}``, with the status that
applies (400, 401, 403, 404, 405, 409, 422); bad input never produces a 500. A
refused write names its field, says why and writes nothing but, for a refused permission, its
audit event (``nothing_written``, tests/conftest.py)."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from audit.models import AuditEvent

pytestmark = pytest.mark.django_db

V = "/api/v1"


def error_of(response, status: int) -> dict:
    """The response's error, after checking the status and that the shape is exactly the one."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["error"]
    error = body["error"]
    assert set(error) == {"code", "message", "field"}
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert error["field"] is None or isinstance(error["field"], str)
    return error


# --- each status, its shape -------------------------------------------------------------------


def test_a_missing_field_is_a_400_naming_it(api, world, nothing_written):
    client = api(world.administrator)
    with nothing_written():
        error = error_of(client.post(f"{V}/cardrooms/", {}, format="json"), 400)

    assert error["code"] == "required"
    assert error["field"] == "name"
    assert "required" in error["message"]


def test_a_json_float_amount_is_a_400_naming_the_amount(api, world, nothing_written):
    client, url = api(world.dealer), f"{V}/seatings/{world['seating']}/add-chips/"
    with nothing_written():
        response = client.post(url, {"amount": 100.0}, format="json")

    error = error_of(response, 400)
    assert error["field"] == "amount"
    assert "12.50" in error["message"]  # it says how to write an amount


def test_a_nested_error_names_the_json_path(api, world, nothing_written):
    client, url = api(world.dealer), f"{V}/hands/{world['hand_wagering']}/cards/"
    with nothing_written():
        response = client.post(
            url,
            {"dealer_cards": "Ks 9s 4s 2c 7h 8c 3c", "spot_cards": {"1": ["As"]}},
            format="json",
        )

    error = error_of(response, 400)
    assert error["field"] == "spot_cards.1"
    assert error["message"] == "Not a valid string."  # a hand is "As Kd …", not a list


def test_malformed_json_is_a_400(api, world, nothing_written):
    client = api(world.administrator)
    with nothing_written():
        response = client.post(
            f"{V}/cardrooms/", data='{"name": "Open brace', content_type="application/json"
        )

    error = error_of(response, 400)
    assert error["code"] == "parse_error"
    assert error["field"] is None
    assert "JSON parse error" in error["message"]


def test_no_credentials_is_a_401_with_a_challenge(api):
    response = api(None).get(f"{V}/tables/")

    error = error_of(response, 401)
    assert error["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_a_wrong_token_is_a_401(api):
    client = api(None)
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 64)

    assert error_of(client.get(f"{V}/tables/"), 401)["code"] == "authentication_failed"


def test_a_role_that_may_not_write_is_a_403_and_the_refusal_is_audited(api, world, nothing_written):
    client = api(world.dealer)
    with nothing_written(audited=("permission.refused",)):
        response = client.post(f"{V}/cardrooms/", {"name": "Mine"}, format="json")

    error = error_of(response, 403)
    assert error["code"] == "permission_denied"
    assert error["field"] is None
    assert "Your role does not allow this" in error["message"]
    refusal = AuditEvent.objects.get(action="permission.refused")
    assert refusal.actor == world.dealer
    assert "POST /api/v1/cardrooms/" in refusal.payload


def test_a_dealer_off_duty_is_a_403_from_the_service(api, world, nothing_written):
    client, url = api(world.other_dealer), f"{V}/seatings/{world['seating']}/add-chips/"
    with nothing_written(audited=("permission.refused",)):
        response = client.post(url, {"amount": "100"}, format="json")

    error = error_of(response, 403)
    assert error["code"] == "forbidden"
    assert error["field"] is None
    assert "dealer on duty" in error["message"]


def test_a_user_without_a_role_is_a_403(api, make_user):
    error = error_of(api(make_user("visitor")).get(f"{V}/tables/"), 403)

    assert error["code"] == "permission_denied"


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", f"{V}/tables/999999/"),
        ("get", f"{V}/hands/999999/"),
        ("get", f"{V}/seatings/999999/stack/"),
        ("get", f"{V}/tables/999999/rotation/"),
        ("get", f"{V}/reports/players/999999/"),
        ("get", f"{V}/exports/999999/download/"),
        ("post", f"{V}/hands/999999/settle/"),
        ("post", f"{V}/hands/999999/deal/"),
        ("post", f"{V}/seatings/999999/sit-out/"),
        ("post", f"{V}/setting-changes/999999/approve/"),
        ("post", f"{V}/tables/999999/close/"),
        ("get", f"{V}/tables/99999999999999999999999/"),  # past any database's ids
        ("post", f"{V}/hands/99999999999999999999999/settle/"),
        ("get", f"{V}/tables/99999999999999999999999/settings/"),
        ("get", f"{V}/no-such-endpoint/"),
    ],
)
def test_an_unknown_id_is_a_404(api, world, method, url):
    response = getattr(api(world.supervisor), method)(url, {}, format="json")

    if url.endswith("no-such-endpoint/"):
        # Outside any view: Django's own 404 page, not an API answer.
        assert response.status_code == 404
        return
    assert error_of(response, 404)["code"] == "not_found"


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        (f"{V}/hands/{{hand_open}}/wagers/", {"seating": 10**30, "ante": "10"}, "seating"),
        (f"{V}/hands/{{hand_dealt}}/decisions/", {"seat": 10**30, "decision": "fold"}, "seat"),
        (f"{V}/tables/{{dp_table}}/dealer/", {"dealer": 10**30}, "dealer"),
        (f"{V}/tables/{{dp_table}}/seatings/", {"player": 10**30, "seat": 3}, "player"),
        (f"{V}/players/", {"cardroom": 10**30, "name": "X"}, "cardroom"),
        (f"{V}/tables/{{dp_table}}/hands/", {"refusals": [10**30]}, "refusals[0]"),
        (f"{V}/tables/{{dp_table}}/hands/", {"draw_cards": {"one": "As"}}, "draw_cards"),
    ],
)
def test_an_id_or_seat_no_database_keeps_is_a_400_naming_it(
    api, world, nothing_written, url, body, field
):
    client, path = api(world.supervisor), url.format_map(world)
    with nothing_written():
        response = client.post(path, body, format="json")

    error = error_of(response, response.status_code)
    assert error["field"] == field
    assert response.status_code in (400, 422)
    assert error["message"]


def test_an_unknown_seating_in_a_body_is_a_404(api, world, nothing_written):
    client, url = api(world.dealer), f"{V}/hands/{world['hand_open']}/wagers/"
    with nothing_written():
        response = client.post(url, {"seating": 999999, "ante": "10"}, format="json")

    error = error_of(response, 404)
    assert error["code"] == "not_found"
    # Found by the view, not a service: Django's "Not found.", naming no field (not even the
    # body's "seating" that it did not find).
    assert (error["field"], error["message"]) == (None, "Not found.")


def test_a_method_the_endpoint_does_not_serve_is_a_405(api, world):
    response = api(world.supervisor).delete(f"{V}/tables/")

    assert error_of(response, 405)["code"] == "method_not_allowed"
    assert "GET" in response["Allow"]


def test_a_step_out_of_order_is_a_409_naming_the_status(api, world, nothing_written):
    client, url = api(world.dealer), f"{V}/hands/{world['hand_wagering']}/settle/"
    with nothing_written():
        response = client.post(url)

    error = error_of(response, 409)
    assert error["code"] == "conflict"
    assert error["field"] == "status"
    assert "cannot settle yet: the cards are not dealt" in error["message"]


def test_a_rule_refusal_is_a_422_naming_the_field(api, world, nothing_written):
    client, url = api(world.dealer), f"{V}/hands/{world['hand_open']}/wagers/"
    body = {"seating": world["hand_open_seating"], "ante": "500"}
    with nothing_written():
        response = client.post(url, body, format="json")

    error = error_of(response, 422)
    assert error["code"] == "invalid"
    assert error["field"] == "ante"
    assert "The ante $500.00 is off the limits" in error["message"]


def test_an_unsupported_media_type_is_a_415(api, world):
    response = api(world.administrator).post(
        f"{V}/cardrooms/", data="name=x", content_type="text/plain"
    )

    assert error_of(response, 415)["code"] == "unsupported_media_type"


# --- bad input never produces a 500 ----------------------------------------------------------

NASTY_BODIES = [
    [],
    [1, 2, 3],
    [["amount", "1"]],
    "a string",
    12345,
    None,
    True,
    {"unknown": "key", "another": [1, {"deep": None}]},
    {
        "amount": 10**40,
        "ante": -(10**40),
        "seat": 10**40,
        "seating": 10**40,
        "dealer": 10**40,
        "player": 10**40,
        "cardroom": 10**40,
        "buy_in": "9" * 400,
    },
    {"amount": 1e308, "ante": 1.5, "seat": 1.5, "dealer": 1.5, "value": 1.5, "seating": 1.5},
    {"amount": [], "ante": {}, "seat": [], "dealer": {}, "value": [], "reason": ["x"]},
    {"amount": "9999999999.99", "buy_in": "9999999999", "seat": 3, "player": 1, "dp_bank": "0"},
    {"seat": "three", "decision": "shout", "raise_amount": "lots", "reason": "x" * 5000},
    {"spot_cards": [], "dealer_cards": None, "values": [], "refusals": {}, "draw_cards": []},
    {"spot_cards": {"x": "As"}, "draw_cards": {"seven": "As"}, "refusals": ["a"]},
    {"spot_cards": {"1": "As " * 100}, "dealer_cards": "Zz " * 7, "draw_cards": {"1": "Zz"}},
    {"values": {"ante_max": 1.5}, "reason": "r"},
    {"values": {"nonsense": {"a": 1}, "flush_paytable": "x"}, "reason": "r"},
    {"values": {"flush_paytable": {"4": 10**40}, "seats": 10**40}, "reason": "r"},
    {"kind": "audit_log", "start": "2024-13-45T99:99", "end": "yesterday"},
    {"kind": "audit_log", "start": "9999-12-31T23:59:59Z", "end": "0001-01-01T00:00:00Z"},
    {"name": "\x00", "time_zone": "Mars/Olympus", "gaming_day_starts_at": "25:61"},
    {"name": "x" * 5000, "banking": "nobody", "seat_count": 10**40, "settings": []},
    {"cardroom": "one", "name": "", "banking": "house", "seat_count": -1, "settings": {"a": 1}},
    {"username": ["x"], "password": {"a": 1}},
    {"table": [], "dealer": "x", "spots": {}, "misdeal": 1.5},
    {"table": {"ante_max": 10**40}, "dealer": {"cards": 7}, "spots": [None, 1, "x"]},
]

# Every POST endpoint, at objects that exist (the world makes them on first use).
POST_URLS = [
    f"{V}/auth/token/",
    f"{V}/auth/token/revoke/",
    f"{V}/cardrooms/",
    f"{V}/tables/",
    f"{V}/tables/{{closed_table}}/open/",
    f"{V}/tables/{{dp_table}}/dealer/",
    f"{V}/tables/{{dp_table}}/setting-changes/",
    f"{V}/tables/{{dp_table}}/seatings/",
    f"{V}/tables/{{dp_table}}/rotation/",
    f"{V}/tables/{{dp_table}}/hands/",
    f"{V}/setting-changes/{{change}}/approve/",
    f"{V}/setting-changes/{{change}}/reject/",
    f"{V}/setting-changes/{{own_change}}/withdraw/",
    f"{V}/players/",
    f"{V}/seatings/{{seating}}/add-chips/",
    f"{V}/seatings/{{seating}}/cash-out/",
    f"{V}/seatings/{{seating}}/sit-out/",
    f"{V}/seatings/{{seating}}/come-back/",
    f"{V}/seatings/{{seating}}/dp-waiver/",
    f"{V}/seatings/{{seating}}/proposition/",
    f"{V}/hands/{{hand_open}}/wagers/",
    f"{V}/hands/{{hand_wagering}}/deal/",
    f"{V}/hands/{{hand_wagering}}/cards/",
    f"{V}/hands/{{hand_dealt}}/decisions/",
    f"{V}/hands/{{hand_wagering}}/dead-spots/",
    f"{V}/hands/{{hand_wagering}}/misdeal/",
    f"{V}/hands/{{hand_open}}/cancel/",
    f"{V}/hands/{{hand_ready}}/settle/",
    f"{V}/hands/{{hand_settled}}/corrections/",
    f"{V}/seatings/{{seating}}/leave/",
    f"{V}/settle-preview/",
    f"{V}/audit/verify/",
    f"{V}/books/verify/",
    f"{V}/state/verify/",
    f"{V}/exports/",
    f"{V}/tables/{{dp_table}}/close/",
]


@pytest.mark.slow
def test_nasty_bodies_never_produce_a_500(api, world):
    """Every nasty body at every POST endpoint. The bodies of one endpoint go one after
    another (what one changes, the next meets); each endpoint runs in a savepoint rolled back
    after it, so that every endpoint meets the same world."""
    for url in POST_URLS:
        url.format_map(world)  # build every object first
    client = api(world.supervisor)
    wrong: list[str] = []
    for url in POST_URLS:
        path = url.format_map(world)
        with transaction.atomic():
            for index, body in enumerate(NASTY_BODIES):
                # With a key: the body goes through the idempotency fingerprint too.
                try:
                    response = client.post(
                        path,
                        data=json.dumps(body),
                        content_type="application/json",
                        headers={"Idempotency-Key": f"nasty-{index}"},
                    )
                    if response.status_code >= 400:
                        error_of(response, response.status_code)
                    assert response.status_code < 500, response.content[:300]
                except Exception as error:  # noqa: BLE001 - reported with the others
                    wrong.append(f"{url} <- {json.dumps(body)[:120]}: {error!r}"[:600])
            transaction.set_rollback(True)
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("raw", "field", "says"),
    [
        ('{"amount": NaN}', None, "JSON parse error"),
        ('{"amount": Infinity}', None, "JSON parse error"),
        ("[" * 5000, None, "JSON parse error - the body is nested"),
        ("[" * 500 + "]" * 500, None, "JSON parse error - the body is nested"),
        ('{"a":' * 100 + "1" + "}" * 100, None, "the body is nested more than 32 deep"),
        ('{"amount": ' + "9" * 5000 + "}", None, "JSON parse error"),
        # A lone surrogate is no text (it could be neither stored nor echoed): refused as such.
        ('{"a": "\\ud800"}', None, "a string has a lone surrogate"),
        ("\xff\xfe", None, "JSON parse error"),
        # Empty: the amount is missing.
        ("", "amount", "This field is required"),
    ],
)
def test_unparseable_or_too_deep_bodies_are_400s(api, world, nothing_written, raw, field, says):
    client, url = api(world.dealer), f"{V}/seatings/{world['seating']}/add-chips/"
    with nothing_written():
        response = client.post(
            url, data=raw.encode("utf-8", "surrogatepass"), content_type="application/json"
        )

    assert response.status_code == 400, response.content[:300]
    error = error_of(response, 400)
    assert error["field"] == field
    assert says in error["message"]


def test_form_encoded_bodies_are_read_too(api, world):
    client = api(world.supervisor)
    for url in (f"{V}/settle-preview/", f"{V}/cardrooms/", f"{V}/tables/"):
        response = client.post(url, {"name": ["a", "b"], "spots": "x"}, format="multipart")
        assert response.status_code < 500
        if response.status_code >= 400:
            error_of(response, response.status_code)


@pytest.mark.parametrize(
    "query",
    [
        "page=0",
        "page=-1",
        "page=abc",
        "page=99999999999999999999",
        "cursor=%25%25",
        "cursor=cD0yMDI0LTEzLTQ1",  # p=2024-13-45: a position that is no date
        "cursor=bz05OTk5OTk5OTk5OTk5OTk5OTk5OTk5",  # o=99…: an offset past anything
        "table=abc",
        "table=99999999999999999999999",
        "status=nonsense",
        "started_after=not-a-date",
        "started_before=2024-13-45",
        "started_after=2024-03-01T00:00:00%2B23:03",  # PostgreSQL takes offsets to ±15:59
        "started_after=0001-01-01T00:00:00%2B14:00",  # no UTC equivalent
        "started_before=9999-12-31T23:59:59-14:00",
        "occurred_after=0044-03-13T05:23:56%2B23:03",
        "occurred_before=9999-12-31T23:59:59-14:00",
        "cardroom=1.5",
        "cardroom=99999999999999999999999",
        "actor=99999999999999999999999",
        "actor=-1e400",
    ],
)
def test_bad_query_parameters_never_produce_a_500(api, world, query):
    client = api(world.supervisor)
    for url in (f"{V}/hands/", f"{V}/tables/", f"{V}/audit/events/", f"{V}/players/"):
        response = client.get(f"{url}?{query}")
        assert response.status_code < 500, (url, query, response.content[:300])
        if response.status_code >= 400:
            error_of(response, response.status_code)


@pytest.mark.parametrize(
    "url",
    [
        f"{V}/tables/{{dp_table}}/rotation/?from=yesterday",
        f"{V}/tables/{{dp_table}}/rotation/?from=2024-03-02T00:00&to=2024-03-01T00:00",
        f"{V}/tables/{{dp_table}}/rotation/compliance/?to=9999-99-99",
        f"{V}/tables/{{dp_table}}/rotation/?from=2024-03-01T00:00%2B23:03",
        f"{V}/tables/{{dp_table}}/rotation/?to=0001-01-01T00:00:00",
        f"{V}/reports/players/{{player}}/?from=0001-01-01T00:00:00%2B14:00",
        f"{V}/reports/tables/{{dp_table}}/days/2024-02-30/",
        f"{V}/reports/tables/{{dp_table}}/days/not-a-day/",
        f"{V}/reports/tables/{{dp_table}}/days/0001-01-01/",
        f"{V}/reports/tables/{{dp_table}}/days/9999-12-31/",
        f"{V}/audit/events/?occurred_after=garbage&actor=x",
    ],
)
def test_bad_periods_are_refused_not_crashed(api, world, url):
    response = api(world.supervisor).get(url.format_map(world))

    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 400:
        error_of(response, response.status_code)


def test_a_stack_that_would_overflow_is_refused_not_crashed(api, world, nothing_written):
    """Money is at most 12 digits (DecimalField(12, 2)): a stack cannot grow past it."""
    client = api(world.dealer)
    url = f"{V}/seatings/{world['seating']}/add-chips/"
    with nothing_written():  # $1,000 on the stack: not even the first fits
        responses = [client.post(url, {"amount": "9999999999"}, format="json") for _ in range(12)]

    answers = [response.status_code for response in responses]
    assert all(status < 500 for status in answers), answers
    for response in responses:
        error = error_of(response, 422)
        assert error["field"] == "amount"
        assert "has $1000.00 on the table, and $9999999999.00 more would pass" in error["message"]
