"""Compliance's download of FinCEN's CTR batch (XML) for the Law page's gaming day: the file
FinCEN's BSA E-Filing takes, carrying whole TINs and ID numbers (audited). A refusal (no
filer set, the day still running, a CTR missing a field) is shown on the Law page."""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpResponse
from django.utils import timezone

from compliance.fincen_batch import fincen_batch
from tables import selectors as table_selectors

from . import law
from .base import SignedInRequest, call_service
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
