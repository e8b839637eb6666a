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
    TinType,
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
    # The person as a CTR names them: optional here, each part given whole.
    last_name = forms.CharField(max_length=60, required=False)
    first_name = forms.CharField(max_length=60, required=False)
    middle_name = forms.CharField(max_length=60, required=False)
    street = forms.CharField(max_length=100, required=False)
    city = forms.CharField(max_length=60, required=False)
    state = forms.CharField(max_length=2, required=False, help_text="two letters: CA, NV")
    zip_code = forms.CharField(label="ZIP code", max_length=10, required=False)
    country = forms.CharField(max_length=2, required=False, initial="US", help_text="ISO: US")
    tin = forms.CharField(
        label="TIN (SSN, ITIN or EIN)",
        max_length=11,
        required=False,
        help_text="nine digits; empty keeps the one on file; shown masked once saved",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    tin_type = forms.ChoiceField(
        label="TIN type", choices=[("", "—"), *TinType.choices], required=False
    )
    occupation = forms.CharField(max_length=60, required=False)


class RestartForm(AsciiDigitsForm):
    note = forms.CharField(widget=forms.Textarea, max_length=2000)
