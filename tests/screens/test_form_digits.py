"""Every screen form reads numbers, dates and ids in ASCII digits only: Django's own fields
would read "٥" (Arabic-Indic five) as 5."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django import forms

import cardroom.screens
from cardroom.screens.forms.cage import SlipForm
from cardroom.screens.forms.tables import TableCreateForm
from core.inputs import FORM_FIELDS_IN_DIGITS, AsciiDigitsForm


def _screen_forms() -> list[type[forms.Form]]:
    found = []
    for info in pkgutil.walk_packages(cardroom.screens.__path__, "cardroom.screens."):
        module = importlib.import_module(info.name)
        found += [
            value
            for _, value in inspect.getmembers(module, inspect.isclass)
            if issubclass(value, forms.BaseForm) and value.__module__ == module.__name__
        ]
    return found


def test_every_screen_form_that_reads_a_number_or_a_date_is_an_ascii_digits_form():
    found = _screen_forms()
    reading = [
        form
        for form in found
        if any(isinstance(field, FORM_FIELDS_IN_DIGITS) for field in form.base_fields.values())
    ]

    assert len(found) > 30 and len(reading) > 10
    assert [form for form in reading if not issubclass(form, AsciiDigitsForm)] == []
    assert issubclass(SlipForm, AsciiDigitsForm)  # its count fields are made in __init__


@pytest.mark.parametrize("seats", ["٧", "７"])
def test_a_number_in_other_digits_is_refused_next_to_its_field(seats):
    form = TableCreateForm({"name": "T", "banking": "house", "seat_count": seats})

    assert not form.is_valid()
    assert form.errors["seat_count"] == ["Write numbers and dates with the digits 0-9."]
    assert TableCreateForm({"name": "T", "banking": "house", "seat_count": "7"}).is_valid()


def test_a_count_in_a_field_made_by_the_form_itself_is_checked_too():
    form = SlipForm({"kind": "fill", "chips_100.00": "٥"}, denominations={"chips": ["100.00"]})

    assert not form.is_valid()
    assert "chips_100.00" in form.errors
    good = SlipForm({"kind": "fill", "chips_100.00": "5"}, denominations={"chips": ["100.00"]})
    assert good.is_valid(), good.errors
    assert good.pieces("chips") == {"100.00": 5}
