"""Forms of the cage screens: counts by denomination (one field per chip or bill), slips, drop
counts, sign-offs. The services check the rules and name the field at fault.

A second person signs by typing their username and their password or PIN on this device
(never by being picked from a list); the person signed in signs with their own password or
PIN."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms

from cage.models import InventoryCount, Slip
from core.inputs import AsciiDigitsForm

from .ids import OwnIds
from .signing import SECRET_FIELD, SIGNER_FIELD

PIECES = {"inputmode": "numeric", "autocomplete": "off", "size": 4}


def piece_field(denomination: str, kind: str) -> str:
    return f"{kind}_{denomination}"


class PiecesForm(AsciiDigitsForm):
    """One field per denomination (``chips_25.00``), the number of pieces counted."""

    kinds: tuple[str, ...] = ("chips",)

    def __init__(
        self, *args: Any, denominations: dict[str, list[str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.denominations = denominations or {}
        for kind, values in self.denominations.items():
            for value in values:
                self.fields[piece_field(value, kind)] = forms.IntegerField(
                    min_value=0,
                    max_value=10**7,
                    required=False,
                    label=f"${value}",
                    # The running total (static/count_total.js) reads what a piece is worth.
                    widget=forms.NumberInput(
                        attrs=PIECES | {"data-denomination": value, "data-kind": kind}
                    ),
                )

    def pieces(self, kind: str) -> dict[str, int]:
        return {
            value: self.cleaned_data.get(piece_field(value, kind)) or 0
            for value in self.denominations.get(kind, [])
        }

    @property
    def piece_fields(self) -> dict[str, list[forms.BoundField]]:
        """The bound fields of each kind (``chips``, ``cash``), for the template."""
        return {
            kind: [self[piece_field(value, kind)] for value in values]
            for kind, values in self.denominations.items()
        }

    def total(self, kind: str | None = None) -> Decimal:
        """What the pieces counted so far come to (of one kind, or all): the running total the
        page shows before the count is recorded. A field not yet valid counts as none."""
        values = getattr(self, "cleaned_data", None) or {}
        return sum(
            (
                Decimal(value) * (values.get(piece_field(value, of)) or 0)
                for of, denominations in self.denominations.items()
                if kind in (None, of)
                for value in denominations
            ),
            Decimal("0.00"),
        )

    def service_fields(self) -> dict[str, str]:
        """A service's ``chips.25.00`` is this form's ``chips_25.00``."""
        return {
            f"{kind}.{value}": piece_field(value, kind)
            for kind, values in self.denominations.items()
            for value in values
        }


class InventoryCountForm(OwnIds, PiecesForm):
    ids = "count"
    kind = forms.ChoiceField(choices=InventoryCount.Kind.choices)
    counted_by = SIGNER_FIELD("Counted by: the dealer's username")
    counted_by_secret = SECRET_FIELD("The dealer's password or PIN", required=True)
    note = forms.CharField(max_length=2000, required=False, label="If it differs from the books")
    secret = SECRET_FIELD("Your password or PIN: you verify", required=True)

    def service_fields(self) -> dict[str, str]:
        return super().service_fields() | {"counted_by": "counted_by", "signature": "secret"}


class SlipForm(OwnIds, PiecesForm):
    ids = "slip"
    kind = forms.ChoiceField(choices=Slip.Kind.choices)


class VoidForm(AsciiDigitsForm):
    slip = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=2000, label="Why void")
    witness = SIGNER_FIELD("Witness: their username")
    witness_secret = SECRET_FIELD("The witness's password or PIN", required=True)


class SlipSignForm(AsciiDigitsForm):
    """The person signed in signs a step of a slip's chain with their own password or PIN."""

    slip = forms.IntegerField(widget=forms.HiddenInput)
    secret = SECRET_FIELD("Your password or PIN", required=True)

    # A refusal of the slip itself (out of turn, void) shows at the top, not by a hidden field.
    SERVICE_FIELDS = {"signature": "secret", "slip": None}


class RunnerForm(AsciiDigitsForm):
    """The runner signs on this device: their username and their own password or PIN."""

    slip = forms.IntegerField(widget=forms.HiddenInput)
    runner = SIGNER_FIELD("Runner: their username")
    runner_secret = SECRET_FIELD("The runner's password or PIN", required=True)

    SERVICE_FIELDS = {"signature": "runner", "slip": None}


class DealerSignForm(AsciiDigitsForm):
    """The dealer at the table signs for a fill or a credit with their own password or PIN."""

    secret = SECRET_FIELD("Your password or PIN", required=True)


class DropCountForm(PiecesForm):
    """A box's count; the second counter and, where the cardroom counts with more than two
    (``further``), each further counter sign here as themselves."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    second_counter = SIGNER_FIELD("Second counter: their username")
    second_counter_secret = SECRET_FIELD("The second counter's password or PIN", required=True)
    slip_originals = forms.CharField(
        max_length=2000, required=False, label="Slip originals in the box (serials)"
    )
    note = forms.CharField(max_length=2000, required=False)

    def __init__(self, *args: Any, further: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.further = [f"counter_{n}" for n in range(3, 3 + further)]
        for name in self.further:
            number = name.rsplit("_", 1)[1]
            self.fields[name] = SIGNER_FIELD(f"Counter {number}: their username")
            self.fields[f"{name}_secret"] = SECRET_FIELD(
                f"Counter {number}'s password or PIN", required=True
            )

    @property
    def further_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[name], self[f"{name}_secret"]) for name in self.further]

    def further_signers(self) -> list[tuple[str, str]]:
        data = self.cleaned_data
        return [(data[name], data[f"{name}_secret"]) for name in self.further]

    def serials(self) -> list[str]:
        """``F-000001, C-000002`` (commas or spaces) → the serials, as typed."""
        return [s for s in re.split(r"[\s,]+", self.cleaned_data["slip_originals"]) if s]

    def service_fields(self) -> dict[str, str]:
        further = {f"further_counters.{i}": name for i, name in enumerate(self.further)}
        return (
            super().service_fields()
            | further
            | {"further_counters": self.further[0] if self.further else ""}
            | {"slip_originals": "slip_originals"}
            | {f"slip_originals.{i}": "slip_originals" for i in range(200)}
        )


class DropCorrectionForm(PiecesForm):
    """A mistyped count, entered again as it should have been: initialled and signed by the
    member of the count team who corrects it (the original stays)."""

    kinds = ("cash", "chips")
    reason = forms.CharField(max_length=2000, label="What was mistyped")
    initials = forms.CharField(max_length=5, label="Your initials")
    secret = SECRET_FIELD("Your password or PIN", required=True)

    def service_fields(self) -> dict[str, str]:
        return super().service_fields() | {"signature": "secret"}


class SignOffForm(AsciiDigitsForm):
    count = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=2000, label="Explanation")
    secret = SECRET_FIELD(required=True)


class ShiftCloseForm(AsciiDigitsForm):
    gaming_day = forms.DateField(widget=forms.HiddenInput)
    shift = forms.CharField(max_length=20, widget=forms.HiddenInput)
    secret = SECRET_FIELD(required=True)


class DayCloseForm(AsciiDigitsForm):
    gaming_day = forms.DateField(widget=forms.HiddenInput)
    secret = SECRET_FIELD(required=True)
