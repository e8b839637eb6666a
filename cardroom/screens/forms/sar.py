"""Forms of the suspicious activity case screens (compliance's alone)."""

from __future__ import annotations

from django import forms

from core.inputs import AsciiDigitsForm
from patrons.models import SarDecision

from .ids import OwnIds


class SarOpenForm(OwnIds, AsciiDigitsForm):
    """Open a case from a structuring flag (its button), a review or on a player (the
    player's page)."""

    ids = "sar_open"
    structuring_flag = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    review = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    summary = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)
    detected_on = forms.DateField(required=False, help_text="Empty: the flag's day, or today.")
    suspect_identified = forms.TypedChoiceField(
        choices=[("yes", "A suspect is identified (30 days)"), ("no", "No suspect yet (60 days)")],
        coerce=lambda value: value == "yes",
        initial="yes",
    )


class SarNoteForm(OwnIds, AsciiDigitsForm):
    ids = "sar_note"
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)


class SarDecisionForm(OwnIds, AsciiDigitsForm):
    ids = "sar_decision"
    outcome = forms.ChoiceField(choices=SarDecision.Outcome.choices)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)
    filing_reference = forms.CharField(max_length=60, required=False, label="BSA id (when filed)")
