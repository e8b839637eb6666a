"""Compliance's download of FinCEN's CTR batch (XML) for the Law page's gaming day: the file
FinCEN's BSA E-Filing takes, carrying whole TINs and ID numbers (audited). A refusal (no
filer set, the day still running, a CTR missing a field) is shown on the Law page. And who
files: the institution's details the batch carries, set by compliance."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance.fincen_batch import fincen_batch
from patrons.ctr_filer import FilerInput, ctr_filer_set
from patrons.models import CtrFiler
from tables import selectors as table_selectors

from . import law
from .base import SignedInRequest, call_service
from .confirmation import confirm_first
from .forms.law import DayForm


@law.compliance_only
def fincen_batch_xml(request: SignedInRequest) -> HttpResponse:
    cardroom = law.cardroom_first()
    form = DayForm(request.GET or None)
    today = table_selectors.gaming_day(cardroom, timezone.now())
    day = (form.cleaned_data["day"] if form.is_valid() else None) or today - timedelta(days=1)
    content = call_service(
        request,
        form,
        lambda: fincen_batch(cardroom=cardroom, day=day, by=request.user),
        fields={"ctr": None, "ctr_filer": None},
    )
    if content is None:
        return law.law_page(request, cardroom, day, batch_form=form)
    response = HttpResponse(content, content_type="application/xml")
    response["Content-Disposition"] = f'attachment; filename="fincen-ctr-{day}.xml"'
    return response


class FilerForm(forms.Form):
    """Who files the cardroom's CTRs, as FinCEN's batch names the institution (checked by
    ``patrons.ctr_filer``, which names the field at fault)."""

    legal_name = forms.CharField(max_length=150, label="Legal name")
    ein = forms.CharField(max_length=12, label="EIN")
    street = forms.CharField(max_length=100)
    city = forms.CharField(max_length=50)
    state = forms.CharField(max_length=3, label="State (two letters)")
    zip_code = forms.CharField(max_length=10, label="ZIP code")
    country = forms.CharField(max_length=2, initial="US", label="Country (two letters)")
    contact_office = forms.CharField(max_length=150, label="Office FinCEN calls")
    phone = forms.CharField(max_length=20)
    phone_extension = forms.CharField(max_length=6, required=False, label="Extension")
    transmitter_contact = forms.CharField(max_length=150, label="Transmitter's contact")
    transmitter_tcc = forms.CharField(max_length=8, label="Transmitter control code (TCC)")


def _filer_sentence(request: HttpRequest) -> str | None:
    form = FilerForm(request.POST)
    if not form.is_valid():
        return None
    data = form.cleaned_data
    return (
        f"Set {data['legal_name']} (EIN {data['ein']}) as who files this cardroom's CTRs, "
        "from the next FinCEN batch on?"
    )


@law.compliance_only
def ctr_filer(request: SignedInRequest) -> HttpResponse:
    """The filer's details, as set (or blank before they are)."""
    row = CtrFiler.objects.filter(cardroom=law.cardroom_first()).first()
    initial = {name: getattr(row, name) for name in FilerForm.base_fields} if row else None
    return _filer_page(request, FilerForm(initial=initial), row, status=200)


@require_POST
@law.compliance_only
@confirm_first(_filer_sentence)
def ctr_filer_save(request: SignedInRequest) -> HttpResponse:
    cardroom = law.cardroom_first()
    form = FilerForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: ctr_filer_set(
            cardroom=cardroom, filer=FilerInput(**form.cleaned_data), by=request.user
        ),
    ):
        return redirect("law-ctr-filer")
    row = CtrFiler.objects.filter(cardroom=cardroom).first()
    return _filer_page(request, form, row, status=422)


def _filer_page(request: HttpRequest, form: FilerForm, row: Any, *, status: int) -> HttpResponse:
    return render(request, "law/ctr_filer.html", {"form": form, "filer": row}, status=status)
