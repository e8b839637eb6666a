"""Forms of the screens for players under the law: the cash log's day, CTR filing, a state
list's import, reviews, incidents, barring, identities, a stopped game's restart."""

from __future__ import annotations

from django import forms

from core.inputs import AsciiDigitsForm
from patrons.models import (
    Exclusion,
    IdType,
    Incident,
    IncidentEntry,
    Player,
    SuspiciousActivityReview,
)
from tables.models import Table

from .ids import OwnIds


class DayForm(AsciiDigitsForm):
    day = forms.DateField(required=False)


class FileForm(AsciiDigitsForm):
    reference = forms.CharField(max_length=60)


class ImportForm(AsciiDigitsForm):
    file = forms.FileField()


class ReviewForm(AsciiDigitsForm):
    note = forms.CharField(widget=forms.Textarea, max_length=5000)


class ReviewNoteForm(OwnIds, AsciiDigitsForm):
    ids = "review_note"
    status = forms.ChoiceField(choices=SuspiciousActivityReview.Status.choices)
    note = forms.CharField(widget=forms.Textarea, max_length=5000)


class IncidentForm(OwnIds, AsciiDigitsForm):
    ids = "incident"
    kind = forms.ChoiceField(choices=Incident.Kind.choices)
    table = forms.ModelChoiceField(Table.objects.order_by("name"), required=False)
    players = forms.ModelMultipleChoiceField(Player.objects.order_by("name"), required=False)
    summary = forms.CharField(widget=forms.Textarea, max_length=5000)


class FollowUpForm(OwnIds, AsciiDigitsForm):
    ids = "follow_up"
    kind = forms.ChoiceField(choices=IncidentEntry.Kind.choices)
    text = forms.CharField(widget=forms.Textarea, max_length=5000)


class BarForm(OwnIds, AsciiDigitsForm):
    ids = "bar"
    player = forms.ModelChoiceField(Player.objects.order_by("name"))
    kind = forms.ChoiceField(choices=Exclusion.Kind.choices)
    starts_on = forms.DateField()
    ends_on = forms.DateField(required=False, help_text="empty: for life")
    reason = forms.CharField(widget=forms.Textarea, max_length=2000)


class IdentityForm(AsciiDigitsForm):
    player = forms.ModelChoiceField(Player.objects.order_by("name"))
    date_of_birth = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    id_type = forms.ChoiceField(label="ID type", choices=IdType.choices)
    id_number = forms.CharField(label="ID number", max_length=60)
    id_issuer = forms.CharField(label="Issued by", max_length=60)
    id_expires = forms.DateField(label="Expires", widget=forms.DateInput(attrs={"type": "date"}))
    photo = forms.FileField(required=False, help_text="optional: a JPEG or PNG, at most 5 MB")


class RestartForm(AsciiDigitsForm):
    note = forms.CharField(widget=forms.Textarea, max_length=2000)
