"""Forms of the table screens (dealer and floor supervisor). Amounts stay text: the services
parse money and name the field at fault."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from tables.models import Cardroom, PaytableChange, PaytableKind, Player, Seating
from tables.rules import SETTINGS

AMOUNT = {"inputmode": "decimal", "autocomplete": "off", "size": 7}
#: How a buy-in or add-on is paid; blank: the table's default (cash at a house-banked table,
#: chips at a designated-player table).
TENDERS = [("", "table default"), ("cash", "cash"), ("chips", "chips")]


class SeatPlayerForm(forms.Form):
    """Seat a registered player, or a new one by name, and take the buy-in."""

    seat = forms.IntegerField(min_value=1, max_value=7)
    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    name = forms.CharField(required=False, label="or new player", max_length=100)
    buy_in = forms.CharField(required=False, label="Buy-in", widget=forms.TextInput(attrs=AMOUNT))
    tender = forms.ChoiceField(choices=TENDERS, required=False, label="Paid with")

    def __init__(self, *args: Any, cardroom: Cardroom | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)
        player.queryset = (
            Player.objects.filter(cardroom=cardroom)
            .exclude(pk__in=Seating.objects.filter(left_at=None).values("player"))
            .order_by("name")
            if cardroom
            else Player.objects.none()
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("name") or "").strip():
            self.add_error("player", "Choose a player, or type a new player's name.")
        return data


class StackForm(forms.Form):
    """One change to a seated player: chips on or off, sit out, come back, leave, waiver."""

    seating = forms.IntegerField(widget=forms.HiddenInput)
    tender = forms.ChoiceField(choices=TENDERS, required=False)
    action = forms.ChoiceField(
        choices=[
            (a, a)
            for a in (
                "add",
                "cash_out",
                "sit_out",
                "come_back",
                "leave",
                "waive",
                "unwaive",
                "prop",
                "unprop",
            )
        ]
    )
    amount = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))

    def clean(self) -> dict[str, Any]:
        """Nothing moves money on an empty field: chips on or off need their amount (an empty
        Cash out would otherwise take the whole stack off the table)."""
        super().clean()
        data = self.cleaned_data
        action = data.get("action")
        if action in ("add", "cash_out") and not (data.get("amount") or "").strip():
            what = "add" if action == "add" else "cash out"
            self.add_error("amount", f"Enter the amount to {what}: the amount field is empty.")
        return data


class ChangeForm(forms.Form):
    """Names the setting change a button acts on (approve, reject, withdraw)."""

    change = forms.IntegerField(required=False)


class OpenTableForm(forms.Form):
    dealer: forms.ModelChoiceField[User] = forms.ModelChoiceField(queryset=User.objects.none())

    def __init__(self, *args: Any, dealers: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        dealer = self.fields["dealer"]
        assert isinstance(dealer, forms.ModelChoiceField)
        dealer.queryset = dealers


class TableCreateForm(forms.Form):
    name = forms.CharField(max_length=100)
    banking = forms.ChoiceField(
        choices=[("designated_player", "designated player"), ("house", "house banked")]
    )
    seat_count = forms.IntegerField(min_value=1, max_value=7, initial=7)
    # Blank: the table's default for its banking (a house-banked table takes no fee, R12).
    ante_min = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))
    ante_max = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))
    bonus_min = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))
    bonus_max = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))
    chip_unit = forms.CharField(required=False, widget=forms.TextInput(attrs=AMOUNT))
    bonus_mode = forms.ChoiceField(
        required=False,
        choices=[("", "default"), ("versus_dp", "versus DP"), ("paytable", "paytable")],
    )
    rake_mode = forms.ChoiceField(
        required=False,
        label="Fee mode",
        choices=[("", "default")]
        + [(m, m.replace("_", " ")) for m in ("all_players", "players_not_dp", "dp_only", "none")],
    )
    rake_amount = forms.CharField(required=False, label="Fee", widget=forms.TextInput(attrs=AMOUNT))

    SETTINGS = (
        "ante_min",
        "ante_max",
        "bonus_min",
        "bonus_max",
        "chip_unit",
        "bonus_mode",
        "rake_mode",
        "rake_amount",
    )

    def settings(self) -> dict[str, Any]:
        """The settings given; the rest take the table's defaults."""
        return {name: self.cleaned_data[name] for name in self.SETTINGS if self.cleaned_data[name]}


class SettingChangeForm(forms.Form):
    """Every setting, prefilled with the current value; only those changed are proposed."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, current: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current = current or {}
        for name in SETTINGS:
            value = self.current.get(name)
            field: forms.Field
            if name.endswith("paytable"):
                field = forms.JSONField(required=False, initial=value)
            else:
                field = forms.CharField(required=False, initial="" if value is None else value)
            self.fields[name] = field

    def changed_values(self) -> dict[str, Any]:
        changed = {}
        for name in SETTINGS:
            value = self.cleaned_data.get(name)
            if value in (None, "") and name != "max_aggregate_payout":
                continue
            if str(value) != str(self.initial.get(name, self.fields[name].initial)):
                changed[name] = _typed(name, value)
        return changed


def _typed(name: str, value: Any) -> Any:
    """The form's text as the service expects it: whole numbers as ints, no cap as None."""
    if name in ("dp_max_consecutive", "dp_rotation_window"):
        # ASCII digits only: "٥".isdigit() is true, and int() would read it as 5.
        return int(value) if re.fullmatch(r"[0-9]{1,9}", str(value)) else value
    if name == "max_aggregate_payout" and value in (None, ""):
        return None
    return value


class PaytableChangeForm(forms.Form):
    """R17: propose to add a paytable to the catalogue, or to retire one. The lines are typed
    as they are posted: size:odds (N to 1), comma-separated."""

    kind = forms.ChoiceField(choices=PaytableKind.choices)
    lines = forms.CharField(
        label="Paytable (size:odds)", widget=forms.TextInput(attrs={"placeholder": "4:1, 5:10"})
    )
    action = forms.ChoiceField(
        choices=PaytableChange.Action.choices, initial="add", widget=forms.HiddenInput
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))

    def clean_lines(self) -> dict[str, int]:
        text = self.cleaned_data["lines"]
        lines: dict[str, int] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            # ASCII digits only: "٥".isdigit() is true, and int() would read it as 5.
            found = re.fullmatch(r"([0-9]{1,2})\s*:\s*([0-9]{1,9})", item)
            if found is None:
                raise forms.ValidationError(
                    f"{item!r} is not size:odds; write the lines like 4:1, 5:10, 6:100."
                )
            lines[str(int(found[1]))] = int(found[2])
        if not lines:
            raise forms.ValidationError("Give the paytable's lines, like 4:1, 5:10, 6:100.")
        return lines


class PaytableDecisionForm(forms.Form):
    """Names the catalogue change a button acts on (approve, reject, withdraw)."""

    change = forms.IntegerField()
    reason = forms.CharField(required=False)
