"""Forms of the dealer's screen. Amounts stay text: the services parse money and name the
field at fault, so a form shows the very message the API would answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms

from core.choices import enum_choices
from core.inputs import AsciiDigitsForm
from engine import Decision, Misdeal, RoundError
from engine.cards import parse_hand
from engine.checks import check_hand_size
from tables.models import Seating

AMOUNT = {"inputmode": "decimal", "autocomplete": "off", "size": 6}


class StartForm(AsciiDigitsForm):
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


class BankForm(AsciiDigitsForm):
    """The DP's bank, once the rotation has named the DP."""

    dp_bank = forms.CharField(
        label="DP's bank",
        widget=forms.TextInput(attrs={**AMOUNT, "size": 9}),
        error_messages={"required": "Enter the DP's bank: the chips it puts in action."},
    )


def _per_row_ids(form: forms.Form, kind: str, key: str) -> None:
    """One form a row (a seat, a spot) on the same page: ids of its own, so that each label
    and error list points at its own row's input. Set before validation: an error list takes
    its id from the field's when the error is added."""
    value = form.data.get(key) if form.is_bound else form.initial.get(key)
    form.auto_id = f"id_{kind}{''.join(filter(str.isalnum, str(value or '')))}_%s"


class WagerForm(AsciiDigitsForm):
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


#: A spot's wagers, in the order the wager row shows them.
WAGER_FIELDS = ("ante", "flush_bonus", "straight_flush_bonus")
WAGER_LABELS = {"ante": "Ante", "flush_bonus": "Flush", "straight_flush_bonus": "Str. flush"}


class WagersForm(AsciiDigitsForm):
    """Every seat's wagers of the hand in one post: ``ante_3``, ``flush_bonus_3``… A row with no
    amount at all is a seat that sits this hand out; a bonus without an ante is refused."""

    same = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: Iterable[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto_id = "id_wagers_%s"
        self.seats = list(seats)
        for seat in self.seats:
            for name in WAGER_FIELDS:
                self.fields[f"{name}_{seat}"] = forms.CharField(
                    required=False,
                    label=f"{WAGER_LABELS[name]}, seat {seat}",
                    widget=forms.TextInput(attrs={**AMOUNT, "data-seat": seat, "data-wager": name}),
                )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for seat in self.seats:
            bonus = data.get(f"flush_bonus_{seat}") or data.get(f"straight_flush_bonus_{seat}")
            if bonus and not (data.get(f"ante_{seat}") or "").strip():
                self.add_error(f"ante_{seat}", "A bonus needs an ante on the same spot (R5).")
        if not self.wagers() and not self.errors:
            raise forms.ValidationError(
                "No wagers to place: tap the chips of a seat's ante, or Same as last hand."
            )
        return data

    def wagers(self) -> dict[int, dict[str, str]]:
        """The seats with an ante, and their wagers as typed (the services parse the money)."""
        data = getattr(self, "cleaned_data", {})
        out = {}
        for seat in self.seats:
            row = {name: (data.get(f"{name}_{seat}") or "").strip() for name in WAGER_FIELDS}
            if row["ante"]:
                out[seat] = row
        return out


class SecondSpotForm(AsciiDigitsForm):
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


#: A cards field: the picker fills it, so a tablet opens no soft keyboard on it
#: (``inputmode="none"``); a keyboard still types into it (the picker's "Type" turns the soft
#: keyboard back on).
CARDS = {"data-cards": "", "inputmode": "none", "autocomplete": "off", "spellcheck": "false"}


class CardsForm(AsciiDigitsForm):
    """One field per live spot in deal order (seat 1, the first seat left of the dealer,
    first: seats are numbered clockwise) and the dealer's hand last, in R1 notation."""

    def __init__(self, *args: Any, seats: Iterable[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in sorted(seats):
            self.fields[f"cards_{seat}"] = forms.CharField(
                label=f"Seat {seat}",
                widget=forms.TextInput(attrs=CARDS),
                error_messages={"required": f"Seat {seat}'s seven cards are missing."},
            )
        self.fields["dealer_cards"] = forms.CharField(
            label="Dealer",
            widget=forms.TextInput(attrs=CARDS),
            error_messages={"required": "The dealer's seven cards are missing."},
        )

    def clean(self) -> dict[str, Any]:
        """Each hand's notation and count checked here (R1), so that every wrong hand is shown
        at once; cards in two hands are the service's to refuse."""
        super().clean()
        for name, value in list(self.cleaned_data.items()):
            try:
                check_hand_size(parse_hand(value, field=name), field=name)
            except RoundError as error:
                self.add_error(name, error.message)
        return self.cleaned_data

    def spot_cards(self) -> dict[int, str]:
        return {
            int(name.removeprefix("cards_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("cards_")
        }


class DecisionForm(AsciiDigitsForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _per_row_ids(self, "decide", "seat")

    seat = forms.IntegerField(widget=forms.HiddenInput)
    decision = forms.ChoiceField(choices=[(d.value, d.value) for d in Decision])
    raise_amount = forms.CharField(
        required=False, label="Raise", widget=forms.TextInput(attrs=AMOUNT)
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("decision") == Decision.RAISE and not (data.get("raise_amount") or "").strip():
            self.add_error("raise_amount", _RAISE_EMPTY)
        return data


_RAISE_EMPTY = "Enter the raise: from the ante up to the cap the spot's flush allows (R8)."

DECISION_CHOICES = [
    (Decision.RAISE.value, "Raise"),
    (Decision.FOLD.value, "Fold"),
    (Decision.WALKED_AWAY.value, "Walked away"),
]


class DecisionsForm(AsciiDigitsForm):
    """Every undecided spot's decision in one post (``decision_3``, ``raise_amount_3``); the
    raise is pre-filled with the cap the spot's flush allows (R8). ``settle`` settles too."""

    settle = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: Iterable[int] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto_id = "id_decisions_%s"
        self.seats = list(seats)
        for seat in self.seats:
            self.fields[f"decision_{seat}"] = forms.ChoiceField(
                label=f"Seat {seat}",
                choices=DECISION_CHOICES,
                widget=forms.RadioSelect,
                error_messages={"required": f"Seat {seat} has no decision: raise or fold."},
            )
            self.fields[f"raise_amount_{seat}"] = forms.CharField(
                required=False,
                label=f"Raise, seat {seat}",
                widget=forms.TextInput(attrs=AMOUNT),
            )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for seat in self.seats:
            if (
                data.get(f"decision_{seat}") == Decision.RAISE
                and not (data.get(f"raise_amount_{seat}") or "").strip()
            ):
                self.add_error(f"raise_amount_{seat}", _RAISE_EMPTY)
        return data

    def decisions(self) -> dict[int, dict[str, str]]:
        data = self.cleaned_data
        return {
            seat: {
                "decision": data[f"decision_{seat}"],
                # Only a raise has an amount (R8): a fold's pre-filled cap is not sent on.
                "raise_amount": (data.get(f"raise_amount_{seat}") or "").strip()
                if data[f"decision_{seat}"] == Decision.RAISE
                else "",
            }
            for seat in self.seats
        }


class SeatForm(AsciiDigitsForm):
    seat = forms.IntegerField(widget=forms.HiddenInput)


class MisdealForm(AsciiDigitsForm):
    reason = forms.ChoiceField(choices=enum_choices(Misdeal))


class CorrectionForm(AsciiDigitsForm):
    """A settled hand's correction: prefilled with the cards and decisions in force; only
    what differs is sent to the service. Fields speak of seats."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    dealer_cards = forms.CharField(required=False, label="Dealer's cards")
    # The settlement entry the page showed in force: a correction made meanwhile refuses this one.
    corrects = forms.IntegerField(widget=forms.HiddenInput)

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
