"""Forms of the dealer's screen. Amounts stay text: the services parse money and name the
field at fault, so a form shows the very message the API would answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from cardroom.kernel.choices import enum_choices
from tables.models import Seating
from wagers.engine import Decision, Misdeal

AMOUNT = {"inputmode": "decimal", "autocomplete": "off", "size": 6}


class StartForm(forms.Form):
    dp_bank = forms.CharField(
        required=False,
        label="DP's bank",
        widget=forms.TextInput(attrs={**AMOUNT, "size": 11, "placeholder": "whole stack"}),
    )
    refusals = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        label="Refuse the button this hand",
        choices=(),
        # One checkbox a seat, one tap each (the template lays the choices out one by one).
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, seats: Iterable[Seating] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        refusals = self.fields["refusals"]
        assert isinstance(refusals, forms.TypedMultipleChoiceField)
        refusals.choices = [(s.seat, f"Seat {s.seat} {s.player}") for s in seats]


def _per_row_ids(form: forms.Form, kind: str, key: str) -> None:
    """One form a row (a seat, a spot) on the same page: ids of its own, so that each label
    and error list points at its own row's input. Set before validation: an error list takes
    its id from the field's when the error is added."""
    value = form.data.get(key) if form.is_bound else form.initial.get(key)
    form.auto_id = f"id_{kind}{''.join(filter(str.isalnum, str(value or '')))}_%s"


class WagerForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _per_row_ids(self, "wager", "seating")

    seating = forms.IntegerField(widget=forms.HiddenInput)
    seat = forms.IntegerField(required=False, widget=forms.HiddenInput)
    ante = forms.CharField(widget=forms.TextInput(attrs=AMOUNT))
    flush_bonus = forms.CharField(
        required=False, label="Flush", widget=forms.TextInput(attrs=AMOUNT)
    )
    straight_flush_bonus = forms.CharField(
        required=False, label="Str. flush", widget=forms.TextInput(attrs=AMOUNT)
    )


class SecondSpotForm(forms.Form):
    """R6: a player on one spot takes a second at an empty seat (double the minimum ante on
    each). Posted to the same step as a first spot's wager."""

    seating = forms.TypedChoiceField(coerce=int, label="Player", choices=())
    seat = forms.TypedChoiceField(coerce=int, label="At seat", choices=())
    ante = forms.CharField(widget=forms.TextInput(attrs=AMOUNT))
    flush_bonus = forms.CharField(
        required=False, label="Flush", widget=forms.TextInput(attrs=AMOUNT)
    )
    straight_flush_bonus = forms.CharField(
        required=False, label="Str. flush", widget=forms.TextInput(attrs=AMOUNT)
    )

    def __init__(
        self,
        *args: Any,
        players: Iterable[Seating] = (),
        seats: Iterable[int] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.auto_id = "id_second_%s"
        seating, seat = self.fields["seating"], self.fields["seat"]
        assert isinstance(seating, forms.TypedChoiceField)
        assert isinstance(seat, forms.TypedChoiceField)
        seating.choices = [(s.pk, f"Seat {s.seat} {s.player}") for s in players]
        seat.choices = [(number, f"Seat {number}") for number in seats]


class CardsForm(forms.Form):
    """The dealer's hand and one field per live spot, in R1 notation."""

    dealer_cards = forms.CharField(label="Dealer", widget=forms.TextInput(attrs={"data-cards": ""}))

    def __init__(self, *args: Any, seats: Iterable[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[f"cards_{seat}"] = forms.CharField(
                label=f"Seat {seat}", widget=forms.TextInput(attrs={"data-cards": ""})
            )

    def spot_cards(self) -> dict[int, str]:
        return {
            int(name.removeprefix("cards_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("cards_")
        }


class DecisionForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _per_row_ids(self, "decide", "seat")

    seat = forms.IntegerField(widget=forms.HiddenInput)
    decision = forms.ChoiceField(choices=[(d.value, d.value) for d in Decision])
    raise_amount = forms.CharField(
        required=False, label="Raise", widget=forms.TextInput(attrs=AMOUNT)
    )


class SeatForm(forms.Form):
    seat = forms.IntegerField(widget=forms.HiddenInput)


class MisdealForm(forms.Form):
    reason = forms.ChoiceField(choices=enum_choices(Misdeal))


class CorrectionForm(forms.Form):
    """A settled hand's correction: prefilled with the cards and decisions in force; only
    what differs is sent to the service. Fields speak of seats."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    dealer_cards = forms.CharField(required=False, label="Dealer's cards")

    def __init__(
        self,
        *args: Any,
        seats: Iterable[int] = (),
        deciders: Iterable[int] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[f"cards_{seat}"] = forms.CharField(
                required=False, label=f"Seat {seat}'s cards"
            )
        for seat in deciders:
            self.fields[f"decision_{seat}"] = forms.ChoiceField(
                required=False,
                label=f"Seat {seat}'s decision",
                choices=[(d.value, d.value.replace("_", " ")) for d in Decision],
            )
            self.fields[f"raise_{seat}"] = forms.CharField(
                required=False,
                label=f"Seat {seat}'s raise ($)",
                widget=forms.TextInput(attrs=AMOUNT),
            )
        self.order_fields([name for name in self.fields if name != "reason"] + ["reason"])

    def _changed(self, name: str) -> bool:
        """A field differs from what is in force (the prefilled value); one not sent at all
        is left as it is."""
        if name not in self.data:
            return False
        given = str(self.cleaned_data.get(name) or "").split()
        return given != str(self.initial.get(name) or "").split()

    def dealer_cards_changed(self) -> str | None:
        value = self.cleaned_data.get("dealer_cards") or ""
        return value if value and self._changed("dealer_cards") else None

    def spot_cards(self) -> dict[int, str]:
        return {
            int(name.removeprefix("cards_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("cards_") and value and self._changed(name)
        }

    def decisions(self) -> dict[int, dict[str, Any]]:
        """The corrected decisions, by seat: those whose decision or raise differs."""
        found: dict[int, dict[str, Any]] = {}
        for name in self.fields:
            if not name.startswith("decision_"):
                continue
            seat = int(name.removeprefix("decision_"))
            if self._changed(name) or self._changed(f"raise_{seat}"):
                decision = self.cleaned_data.get(name) or ""
                given: dict[str, Any] = {"decision": decision}
                if decision == "raise" or self.cleaned_data.get(f"raise_{seat}"):
                    given["raise_amount"] = self.cleaned_data.get(f"raise_{seat}") or None
                found[seat] = given
        return found
