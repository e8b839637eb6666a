"""Forms of the cashier's screen: the cage's counts (chips by denomination, cash by bill, two
signatures), players' cash at the cage, the cage's other transactions, chips issued. Every
form on the page has ids of its own (``auto_id``), so that a label's tap lands in its form."""

from __future__ import annotations

from django import forms

from cage.models import CageCount, CageEntry, ChipIssue
from cage.services.cage_ledger import OWN_SERVICE
from core.inputs import AsciiDigitsForm

from .cage import PiecesForm
from .signing import SECRET_FIELD, SIGNER_FIELD

#: Each form's ids on the page: ``id_count_note``, ``id_sale_player``…
AUTO_IDS = {
    "count": "id_count_%s",
    "sale": "id_sale_%s",
    "entry": "id_entry_%s",
    "issue": "id_issue_%s",
}


class CageCountForm(PiecesForm):
    kind = forms.ChoiceField(choices=CageCount.Kind.choices)
    note = forms.CharField(max_length=2000, required=False, label="If it differs from the books")
    other = SIGNER_FIELD("Second person: their username")
    other_secret = SECRET_FIELD("Their password or PIN", required=True)
    secret = SECRET_FIELD("Your password or PIN", required=True)

    def service_fields(self) -> dict[str, str]:
        return super().service_fields() | {
            "signature": "secret",
            "witness": "other",
            "incoming": "other",
            "cardroom": "kind",
        }


class PlayerCashForm(PiecesForm):
    player = forms.IntegerField(min_value=1, label="Player number")
    direction = forms.ChoiceField(
        choices=[("in", "Sell chips for cash"), ("out", "Redeem chips for cash")]
    )

    def service_fields(self) -> dict[str, str]:
        return super().service_fields() | {"cashier": "player"}


class CageEntryForm(PiecesForm):
    kind = forms.ChoiceField(choices=[k for k in CageEntry.Kind.choices if k[0] not in OWN_SERVICE])
    cash = forms.DecimalField(
        max_digits=12, decimal_places=2, min_value=0, required=False, label="Cash"
    )
    reference = forms.CharField(max_length=60, required=False, label="Reference (slip, bag)")


class ChipIssueForm(PiecesForm):
    direction = forms.ChoiceField(choices=ChipIssue.Direction.choices)
    reason = forms.CharField(max_length=2000)
    witness = SIGNER_FIELD("Witness: their username")
    witness_secret = SECRET_FIELD("The witness's password or PIN", required=True)


class StatementDayForm(AsciiDigitsForm):
    day = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
