"""Forms of the cage screens: counts by denomination (one field per chip or bill), slips, drop
counts, sign-offs. The services check the rules and name the field at fault."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from cage.models import InventoryCount, Slip
from cardroom.kernel.inputs import AsciiDigitsForm

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
                    widget=forms.NumberInput(attrs=PIECES),
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

    def service_fields(self) -> dict[str, str]:
        """A service's ``chips.25.00`` is this form's ``chips_25.00``."""
        return {
            f"{kind}.{value}": piece_field(value, kind)
            for kind, values in self.denominations.items()
            for value in values
        }


class InventoryCountForm(PiecesForm):
    kind = forms.ChoiceField(choices=InventoryCount.Kind.choices)
    counted_by = forms.ModelChoiceField(queryset=User.objects.none(), label="Counted by")
    note = forms.CharField(max_length=2000, required=False, label="If it differs from the books")

    def __init__(self, *args: Any, counters: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["counted_by"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = counters


class SlipForm(PiecesForm):
    kind = forms.ChoiceField(choices=Slip.Kind.choices)


class VoidForm(AsciiDigitsForm):
    slip = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=2000)
    witness = forms.ModelChoiceField(queryset=User.objects.none())

    def __init__(self, *args: Any, witnesses: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["witness"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = witnesses


class SlipActionForm(AsciiDigitsForm):
    slip = forms.IntegerField(widget=forms.HiddenInput)


class DropCountForm(PiecesForm):
    table = forms.IntegerField(widget=forms.HiddenInput)
    second_counter = forms.ModelChoiceField(queryset=User.objects.none())
    note = forms.CharField(max_length=2000, required=False)

    def __init__(self, *args: Any, counters: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["second_counter"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = counters


class SignOffForm(AsciiDigitsForm):
    count = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=2000, label="Explanation")


class ShiftCloseForm(AsciiDigitsForm):
    gaming_day = forms.DateField(widget=forms.HiddenInput)
    shift = forms.CharField(max_length=20, widget=forms.HiddenInput)


class DayCloseForm(AsciiDigitsForm):
    gaming_day = forms.DateField(widget=forms.HiddenInput)
