from __future__ import annotations

from django import forms

from compliance.models import Export
from core.inputs import AsciiDigitsForm
from tables.models import Table

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"})


class EventSearchForm(AsciiDigitsForm):
    actor = forms.CharField(required=False, label="Actor (name or username)")
    action = forms.CharField(required=False, label="Action starts with")
    start = forms.DateTimeField(required=False, label="From (local time)", widget=DATETIME)
    end = forms.DateTimeField(required=False, label="To (local time)", widget=DATETIME)


class ReportForm(AsciiDigitsForm):
    table = forms.ModelChoiceField(queryset=Table.objects.order_by("name"))
    day = forms.DateField(label="Gaming day", widget=forms.DateInput(attrs={"type": "date"}))


class ExportForm(AsciiDigitsForm):
    kind = forms.ChoiceField(choices=Export.Kind.choices)
    start = forms.DateTimeField(label="From (local time)", widget=DATETIME)
    end = forms.DateTimeField(label="To (local time)", widget=DATETIME)


class AcknowledgeForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        label="What was found and done",
        max_length=2000,
    )
