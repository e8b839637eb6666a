"""What a request may send: a body of at most a few hundred KB (set once:
DATA_UPLOAD_MAX_MEMORY_SIZE), lists and objects refused by their length before any element
is read, no NUL character anywhere (body, form, query, path), and numbers and dates in ASCII
digits in every field that reads one."""

from __future__ import annotations

import inspect
import json
import time

import pytest
from django.conf import settings
from rest_framework import serializers

from cardroom.api import (
    audit_log,
    auth,
    cage,
    compliance,
    exclusions,
    hand_inputs,
    hold_reports,
    patron_reviews,
    patrons,
    paytables,
    signing,
    staff,
)
from cardroom.api.hand_inputs import DecisionsIn, WagersIn
from cardroom.api.inputs import StrictSerializer
from cardroom.api.models import IdempotencyKey
from cardroom.api.tables import (
    cardrooms,
    common,
    configuration,
    rotation,
    seating,
    sessions,
    setting_changes,
)
from wagers.models import Spot

from .test_errors import error_of

pytestmark = pytest.mark.django_db

V = "/api/v1"
MODULES = (
    audit_log,
    auth,
    cage,
    compliance,
    exclusions,
    hand_inputs,
    hold_reports,
    patron_reviews,
    patrons,
    paytables,
    signing,
    staff,
    *(cardrooms, common, configuration, rotation, seating, sessions, setting_changes),
)


def test_the_body_limit_is_a_few_hundred_kilobytes_set_once():
    assert 64 * 1024 <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 512 * 1024


def test_a_two_megabyte_body_is_refused_at_once_by_its_size(api, world):
    hand = world.hand_open
    body = json.dumps({"spots": [0] * 1_000_000})  # about 3 MB

    started = time.perf_counter()
    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/batch/", body, content_type="application/json"
    )
    elapsed = time.perf_counter() - started

    assert error_of(response, 400)["code"] == "body_too_large"
    assert elapsed < 1.0
    assert not Spot.objects.filter(hand=hand).exists()


def test_a_long_list_within_the_body_limit_is_refused_by_its_length_naming_it(api, world):
    hand = world.hand_open
    body = json.dumps({"spots": [0] * 100_000}, separators=(",", ":"))  # 200 KB: within

    started = time.perf_counter()
    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/batch/", body, content_type="application/json"
    )
    elapsed = time.perf_counter() - started

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("max_length", "spots")
    assert "100000 elements" in error["message"] and "at most 6" in error["message"]
    assert elapsed < 1.0
    assert not Spot.objects.filter(hand=hand).exists()


@pytest.mark.parametrize("serializer", [WagersIn, DecisionsIn])
def test_a_million_spots_are_refused_by_their_length_before_any_is_read(serializer):
    started = time.perf_counter()
    checked = serializer(data={"spots": [0] * 1_000_000})

    with pytest.raises(serializers.ValidationError) as refused:
        checked.is_valid(raise_exception=True)

    assert time.perf_counter() - started < 0.2  # element by element took seconds
    assert list(refused.value.detail) == ["spots"]
    assert refused.value.get_codes() == {"spots": ["max_length"]}


def test_an_object_of_a_hundred_thousand_seats_is_refused_by_its_length(api, world):
    hand = world.hand_wagering
    cards = {str(seat): "As" for seat in range(8)}  # one seat more than a table has

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/cards/",
        {"dealer_cards": "Ks 9s 4s 2c 7h 8c 3c", "spot_cards": cards},
        format="json",
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("max_length", "spot_cards")
    checked = hand_inputs.CardsIn(
        data={"dealer_cards": "", "spot_cards": dict.fromkeys(range(10**5))}
    )
    started = time.perf_counter()
    assert not checked.is_valid()
    assert time.perf_counter() - started < 0.2


def test_a_nested_list_too_long_is_named_by_its_path(api, world):
    shifts = [{"name": f"s{n}", "starts_at": f"{n % 24:02d}:{n // 24:02d}"} for n in range(25)]

    response = api(world.supervisor).post(
        f"{V}/cardrooms/{world['cardroom']}/shifts/", {"shifts": shifts}, format="json"
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("max_length", "shifts")


def _input_serializers() -> list[type[StrictSerializer]]:
    return [
        value
        for module in MODULES
        for _, value in inspect.getmembers(module, inspect.isclass)
        if issubclass(value, StrictSerializer) and value.__module__ == module.__name__
    ]


def _containers(serializer: serializers.Serializer, path: str = ""):
    for name, field in serializer.fields.items():
        at = f"{path}.{name}" if path else name
        if isinstance(field, serializers.ListSerializer | serializers.ListField):
            yield at, field
            child = field.child
            if isinstance(child, serializers.Serializer):
                yield from _containers(child, f"{at}[]")
        elif isinstance(field, serializers.DictField):
            yield at, field
            if isinstance(field.child, serializers.Serializer):
                yield from _containers(field.child, f"{at}.*")
        elif isinstance(field, serializers.Serializer):
            yield from _containers(field, at)


def test_every_list_and_object_of_every_input_names_its_largest_length():
    inputs = _input_serializers()
    unbounded = [
        f"{serializer.__name__}.{path}"
        for serializer in inputs
        for path, field in _containers(serializer())
        if getattr(field, "max_length", None) is None
    ]

    assert len(inputs) > 40  # the walk found the API's inputs
    assert not unbounded


# --- NUL characters -------------------------------------------------------------------------


def test_a_nul_in_a_json_string_is_a_400_naming_it_even_with_an_idempotency_key(api, world):
    response = api(world.administrator).post(
        f"{V}/cardrooms/",
        {"name": "Nul\u0000room"},
        format="json",
        headers={"Idempotency-Key": "nul-1"},
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("nul_character", "name")
    assert not IdempotencyKey.objects.filter(key="nul-1").exists()


def test_a_nul_in_an_unknown_key_is_a_400_and_the_key_is_not_echoed_raw(api, world):
    response = api(world.administrator).post(
        f"{V}/cardrooms/",
        {"name": "Room", "x\u0000": 1},
        format="json",
        headers={"Idempotency-Key": "nul-2"},
    )

    error = error_of(response, 400)
    assert error["code"] == "nul_character"
    assert "\u0000" not in json.dumps(error, ensure_ascii=False).replace("\\u0000", "")
    assert error["field"] == "x\\u0000"


def test_a_nul_deep_in_a_batch_is_named_by_its_path(api, world):
    hand, seating = world.hand_open, world.hand_open_seating

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/batch/",
        {"spots": [{"seating": seating.pk, "ante": "10\u0000"}]},
        format="json",
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("nul_character", "spots[0].ante")


def test_a_nul_in_a_form_post_is_a_400_naming_the_field(api, world):
    response = api(world.administrator).post(
        f"{V}/cardrooms/", {"name": "Nul\u0000room"}, headers={"Idempotency-Key": "nul-3"}
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("nul_character", "name")


def test_a_nul_in_a_query_parameter_is_a_400_naming_it(api, world):
    error = error_of(api(world.auditor).get(f"{V}/audit/events/?action=hand%00"), 400)

    assert (error["code"], error["field"]) == ("nul_character", "action")


def test_a_nul_in_the_path_is_a_400(api, world):
    table = world["dp_table"]
    error = error_of(api(world.auditor).get(f"{V}/reports/tables/{table}/days/2024%00/"), 400)

    assert error["code"] == "nul_character"


def test_a_nul_in_a_screen_form_is_a_400_page(client, supervisor):
    client.force_login(supervisor)

    response = client.post("/floor/incidents/report/", {"summary": "a\u0000b"})

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# --- ASCII digits -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"gaming_day": "٢٠٢٤-٠٣-٠١", "shift": "day"},
        {"gaming_day": "２０２４-03-01", "shift": "day"},
    ],
)
def test_a_date_in_digits_that_are_not_ascii_is_refused_naming_it(api, world, body):
    response = api(world.supervisor).post(
        f"{V}/cardrooms/{world['cardroom']}/shift-closes/", body, format="json"
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("ascii_digits", "gaming_day")


def test_a_chip_count_in_digits_that_are_not_ascii_is_refused_naming_it(api, world):
    response = api(world.supervisor).post(
        f"{V}/tables/{world['house_table']}/slips/",
        {"kind": "fill", "chips": {"100": "٥"}},
        format="json",
    )

    error = error_of(response, 400)
    assert (error["code"], error["field"]) == ("ascii_digits", "chips.100")


def test_a_moment_in_a_list_filter_in_digits_that_are_not_ascii_is_refused(api, world):
    response = api(world.auditor).get(f"{V}/hands/?started_after=٢٠٢٤-01-01T00:00Z")

    error = error_of(response, 400)
    assert error["field"] == "started_after"
    assert "0-9" in error["message"]


def test_a_table_named_in_a_filter_in_digits_that_are_not_ascii_is_refused(api, world):
    table = world["dp_table"]
    fancy = str(table).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))

    response = api(world.auditor).get(f"{V}/tables/?cardroom={fancy}")

    assert error_of(response, 400)["field"] == "cardroom"


def test_a_month_in_digits_that_are_not_ascii_is_refused(api, world):
    response = api(world.auditor).get(
        f"{V}/cardrooms/{world['cardroom']}/statistics/?month=٢٠٢٤-03"
    )

    assert error_of(response, 422)["field"] == "month"
