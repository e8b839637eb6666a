"""Forms of the table screens (dealer and floor supervisor). Amounts stay text: the services
parse money and name the field at fault."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet

from core.inputs import AsciiDigitsForm
from core.people import person_name
from patrons.models import Cardroom, Player
from tables.models import PaytableKind, Seating
from tables.rules import SETTINGS
from tables.staff_models import PaytableChange

from .signing import SECRET_FIELD

AMOUNT = {"inputmode": "decimal", "autocomplete": "off", "size": 7}
#: How a buy-in or add-on is paid; blank: the table's default (cash at a house-banked table,
#: chips at a designated-player table).
TENDERS = [("", "table default"), ("cash", "cash"), ("chips", "chips")]


class SeatPlayerForm(AsciiDigitsForm):
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


class StackForm(AsciiDigitsForm):
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


class ChangeForm(AsciiDigitsForm):
    """Names the setting change a button acts on (approve, reject, withdraw); an approval is
    signed with the approver's password or PIN."""

    change = forms.IntegerField(required=False)
    secret = SECRET_FIELD()


class PersonChoiceField(forms.ModelChoiceField):
    """A choice of person by full name, the username beside it ("Dee Lee (dealer)")."""

    def label_from_instance(self, obj: Any) -> str:
        name = person_name(obj)
        return name if name == obj.get_username() else f"{name} ({obj.get_username()})"


class OpenTableForm(AsciiDigitsForm):
    dealer: forms.ModelChoiceField[User] = PersonChoiceField(queryset=User.objects.none())

    def __init__(self, *args: Any, dealers: QuerySet[User], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        dealer = self.fields["dealer"]
        assert isinstance(dealer, forms.ModelChoiceField)
        dealer.queryset = dealers


class TableCreateForm(AsciiDigitsForm):
    name = forms.CharField(max_length=100)
    banking = forms.ChoiceField(
        choices=[("designated_player", "designated player"), ("house", "house banked")]
    )
    seat_count = forms.IntegerField(min_value=1, max_value=7, initial=7, label="Seats")
    # Blank: the table's default for its banking (a house-banked table takes no fee, R12).
    ante_min = forms.CharField(
        required=False, label="Minimum ante ($)", widget=forms.TextInput(attrs=AMOUNT)
    )
    ante_max = forms.CharField(
        required=False, label="Maximum ante ($)", widget=forms.TextInput(attrs=AMOUNT)
    )
    bonus_min = forms.CharField(
        required=False, label="Minimum bonus ($)", widget=forms.TextInput(attrs=AMOUNT)
    )
    bonus_max = forms.CharField(
        required=False, label="Maximum bonus ($)", widget=forms.TextInput(attrs=AMOUNT)
    )
    chip_unit = forms.CharField(
        required=False, label="Smallest chip ($)", widget=forms.TextInput(attrs=AMOUNT)
    )
    bonus_mode = forms.ChoiceField(
        required=False,
        label="Bonuses pay",
        choices=[("", "the default"), ("versus_dp", "against the DP"), ("paytable", "paytable")],
    )
    rake_mode = forms.ChoiceField(
        required=False,
        label="Fee from",
        choices=[
            ("", "the default"),
            ("all_players", "every spot and the DP"),
            ("players_not_dp", "every spot but the DP"),
            ("dp_only", "the DP only"),
            ("none", "no fee"),
        ],
    )
    rake_amount = forms.CharField(
        required=False, label="Fee per hand ($)", widget=forms.TextInput(attrs=AMOUNT)
    )

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

    def clean(self) -> dict[str, Any]:
        """A house-banked table takes no collection fee (R12): a fee given is refused next
        to its field, before the service would refuse it too."""
        data = super().clean() or {}
        if data.get("banking") == "house":
            if data.get("rake_mode") not in (None, "", "none"):
                self.add_error("rake_mode", "A house-banked table takes no collection fee (R12).")
            if (data.get("rake_amount") or "").strip() not in ("", "0", "0.0", "0.00"):
                self.add_error("rake_amount", "A house-banked table takes no collection fee (R12).")
        return data

    def settings(self) -> dict[str, Any]:
        """The settings given; the rest take the table's defaults."""
        return {name: self.cleaned_data[name] for name in self.SETTINGS if self.cleaned_data[name]}


#: Each setting as the floor reads it: its label, and a word of help where the name is not
#: enough. The forms and the settings table of the table screen use the same words.
SETTING_LABELS: dict[str, tuple[str, str]] = {
    "ante_min": ("Minimum ante ($)", "R5"),
    "ante_max": ("Maximum ante ($)", "R5"),
    "bonus_min": ("Minimum bonus wager ($)", "R5"),
    "bonus_max": ("Maximum bonus wager ($)", "R5"),
    "chip_unit": ("Smallest chip ($)", "wagers are multiples of it"),
    "bonus_mode": ("Bonuses pay", "R10"),
    "flush_paytable": ("Flush Bonus paytable", "flush size : odds to 1, e.g. 4:2, 5:10"),
    "straight_flush_paytable": ("Straight Flush Bonus paytable", "size : odds to 1"),
    "max_aggregate_payout": ("Most a hand's bonuses pay ($)", "R11; blank: no cap"),
    "rake_mode": ("Collection fee from", "R12"),
    "rake_amount": ("Collection fee per hand ($)", "R12"),
    "dp_min_bank": ("Smallest DP bank ($)", "R16"),
    "dp_max_consecutive": ("Most hands in a row as DP", "R16"),
    "draw_suit_order": ("Suit order for the draw", "lowest first, e.g. cdhs"),
    "dp_rotation_window": ("DP rotation window (minutes)", "R16"),
}
BONUS_MODES = [("versus_dp", "against the DP's hand"), ("paytable", "by the paytable alone")]
FEE_MODES = [
    ("all_players", "every spot and the DP"),
    ("players_not_dp", "every spot but the DP"),
    ("dp_only", "the DP only"),
    ("none", "no fee"),
]


def paytable_text(lines: Any) -> str:
    """``{"4": 2, "5": 10}`` as a supervisor types it: ``4:2, 5:10``."""
    if not isinstance(lines, dict):
        return "" if lines is None else str(lines)
    ordered = sorted(lines.items(), key=lambda item: int(item[0]))
    return ", ".join(f"{size}:{odds}" for size, odds in ordered)


def parse_paytable(text: str) -> dict[str, int]:
    """A paytable typed as ``size:odds`` lines, comma-separated (JSON is read too)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            found = json.loads(text)
        except ValueError as error:
            raise forms.ValidationError("Write the paytable like 4:2, 5:10, 6:50.") from error
        if not isinstance(found, dict):
            raise forms.ValidationError("Write the paytable like 4:2, 5:10, 6:50.")
        return found
    lines: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        # ASCII digits only: "٥".isdigit() is true, and int() would read it as 5.
        found_line = re.fullmatch(r"([0-9]{1,2})\s*:\s*([0-9]{1,9})", item)
        if found_line is None:
            raise forms.ValidationError(
                f"{item!r} is not size:odds; write the lines like 4:2, 5:10, 6:50."
            )
        lines[str(int(found_line[1]))] = int(found_line[2])
    return lines


class PaytableField(forms.CharField):
    """A paytable typed as ``4:2, 5:10, …``; cleaned to ``{"4": 2, "5": 10}``."""

    def prepare_value(self, value: Any) -> Any:
        return paytable_text(value) if isinstance(value, dict) else value

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        return parse_paytable(text) if text else None


def setting_label(name: str) -> str:
    return SETTING_LABELS.get(name, (name.replace("_", " ").capitalize(), ""))[0]


class SettingChangeForm(AsciiDigitsForm):
    """Every setting, prefilled with the current value and labelled as the floor reads it;
    only those changed are proposed."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, current: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current = current or {}
        for name in SETTINGS:
            value = self.current.get(name)
            label, help_text = SETTING_LABELS.get(name, (name, ""))
            field: forms.Field
            if name.endswith("paytable"):
                field = PaytableField(
                    required=False,
                    initial=value,
                    widget=forms.TextInput(attrs={"class": "paytable", "size": 30}),
                )
            elif name in ("bonus_mode", "rake_mode"):
                choices = BONUS_MODES if name == "bonus_mode" else FEE_MODES
                field = forms.ChoiceField(required=False, choices=choices, initial=value)
            elif name in AMOUNT_SETTINGS:
                field = forms.CharField(
                    required=False,
                    initial="" if value is None else value,
                    widget=forms.TextInput(attrs=AMOUNT),
                )
            else:
                field = forms.CharField(required=False, initial="" if value is None else value)
            field.label, field.help_text = label, help_text
            self.fields[name] = field
        self.order_fields([*SETTINGS, "reason"])

    def changed_values(self) -> dict[str, Any]:
        changed = {}
        for name in SETTINGS:
            value = self.cleaned_data.get(name)
            if value in (None, "") and name != "max_aggregate_payout":
                continue
            before = self.initial.get(name, self.fields[name].initial)
            if isinstance(value, dict):  # a paytable
                if {str(k): v for k, v in value.items()} != before:
                    changed[name] = value
            elif str(value) != str(before):
                changed[name] = _typed(name, value)
        return changed


AMOUNT_SETTINGS = (
    "ante_min",
    "ante_max",
    "bonus_min",
    "bonus_max",
    "chip_unit",
    "max_aggregate_payout",
    "rake_amount",
    "dp_min_bank",
)


def _typed(name: str, value: Any) -> Any:
    """The form's text as the service expects it: whole numbers as ints, no cap as None."""
    if name in ("dp_max_consecutive", "dp_rotation_window"):
        # ASCII digits only: "٥".isdigit() is true, and int() would read it as 5.
        return int(value) if re.fullmatch(r"[0-9]{1,9}", str(value)) else value
    if name == "max_aggregate_payout" and value in (None, ""):
        return None
    return value


class PaytableChangeForm(AsciiDigitsForm):
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


class PaytableDecisionForm(AsciiDigitsForm):
    """Names the catalogue change a button acts on (approve, reject, withdraw)."""

    change = forms.IntegerField()
    reason = forms.CharField(required=False)
    secret = SECRET_FIELD()
