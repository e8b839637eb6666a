"""Compliance's screens for players under the law (``/compliance/law/``): a gaming day's cash
log, the MTL, CTRs (file one; CSV), structuring flags, suspicious-activity reviews, the
exclusion lists (import a state list), and each player's page with the identity masked and an
audited "show". The floor's side (incidents, barring, identities, R16's restart and notice)
is in ``law_floor``.

ID numbers are shown through ``masked_id`` everywhere but the page that answers "show".
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance import cash_reports
from core.roles import COMPLIANCE_AUDITOR
from patrons import cash, ctrs, reviews, selectors
from patrons.ctr_person import masked_last4
from patrons.identity import identity_reveal
from patrons.masking import masked_id
from patrons.models import (
    Cardroom,
    CurrencyTransactionReport,
    ExclusionListImport,
    Player,
    SuspiciousActivityReview,
)
from patrons.persons import records_of
from patrons.state_list_imports import state_list_import_request
from tables import selectors as table_selectors

from . import law_sar
from .base import SignedInRequest, call_service, role_required, working_cardroom
from .forms.law import DayForm, FileForm, ImportForm, ReviewForm, ReviewNoteForm
from .forms.sar import SarOpenForm

compliance_only = role_required(COMPLIANCE_AUDITOR)


def cardroom_first() -> Cardroom:
    return working_cardroom() or Cardroom(name="(none)")


@compliance_only
def law_home(request: SignedInRequest) -> HttpResponse:
    """A gaming day's cash reporting, flags, reviews and the exclusion lists."""
    form = DayForm(request.GET or None)
    cardroom = cardroom_first()
    day = (form.cleaned_data["day"] if form.is_valid() else None) or table_selectors.gaming_day(
        cardroom, timezone.now()
    )
    return law_page(request, cardroom, day, day_form=form)


def law_page(
    request: SignedInRequest,
    cardroom: Cardroom,
    day: date,
    *,
    day_form: Any = None,
    file_form: Any = None,
    import_form: Any = None,
    batch_form: Any = None,
    refused: bool = False,
) -> HttpResponse:
    """The compliance page of ``cardroom`` (looked up once, by the caller); with a refused
    form (its errors shown), answered 422."""
    refused = refused or any(form is not None for form in (file_form, import_form, batch_form))
    context: dict[str, Any] = {
        "cardroom": cardroom,
        "form": day_form or DayForm(),
        "day": day,
        "log": selectors.cash_log(cardroom.pk, day).select_related("at_table__table"),
        "ctrs": selectors.ctrs(cardroom.pk, day).order_by("player__name", "player_id", "version"),
        "ctrs_to_file": ctrs.ctrs_to_file(cardroom)[:100],
        "today": ctrs.gaming_day_today(cardroom),
        "flags": selectors.structuring_flags(cardroom.pk).select_related("sar_case")[:50],
        "matches": selectors.person_matches(cardroom.pk, "open")[:50],
        "reviews": selectors.reviews()[:50],
        "exclusions": [(row, masked_id(row.id_number)) for row in selectors.exclusions()[:200]],
        "policy": selectors.cash_policy(cardroom.pk),
        "file_form": file_form or FileForm(),
        "import_form": import_form or ImportForm(),
        "batch_form": batch_form or DayForm(),
        # A refused form's page writes nothing, not even the look at the cases: it links them.
        **({} if refused else law_sar.sar_section(request, cardroom)),
    }
    return render(request, "law/compliance.html", context, status=422 if refused else 200)


@require_POST
@compliance_only
def ctr_file(request: SignedInRequest, pk: int) -> HttpResponse:
    report = get_object_or_404(CurrencyTransactionReport, pk=pk)
    form = FileForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: cash.ctr_file(
            report=report, reference=form.cleaned_data["reference"], by=request.user
        ),
    ):
        return redirect(f"/compliance/law/?day={report.gaming_day}")
    return law_page(request, cardroom_first(), report.gaming_day, file_form=form)


@compliance_only
def cash_csv(request: SignedInRequest, kind: str) -> HttpResponse:
    cardroom = cardroom_first()
    form = DayForm(request.GET or None)
    day = (form.cleaned_data["day"] if form.is_valid() else None) or table_selectors.gaming_day(
        cardroom, timezone.now()
    )
    build = cash_reports.ctr_csv if kind == "ctr" else cash_reports.mtl_csv
    text = build(cardroom=cardroom, start=day, end=day, by=request.user)
    response = HttpResponse(text, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{kind}-{day}.csv"'
    return response


@require_POST
@compliance_only
def exclusion_import(request: SignedInRequest) -> HttpResponse:
    """Queue a state list's import (a Celery task); its page shows the progress, then what
    was added. A file that cannot be read as a state list is refused here, on the page."""
    form = ImportForm(request.POST, request.FILES)
    job = None
    if form.is_valid():
        upload = form.cleaned_data["file"]
        text = _upload_text(form, upload)
        if text is not None:
            job = call_service(
                request,
                form,
                lambda: state_list_import_request(
                    text=text, source_name=upload.name or "", by=request.user
                ),
            )
    if job is None:
        cardroom = cardroom_first()
        today = table_selectors.gaming_day(cardroom, timezone.now())
        return law_page(request, cardroom, today, import_form=form)
    return redirect("law-exclusion-import-progress", job.pk)


def _upload_text(form: ImportForm, upload: Any) -> str | None:
    if upload.size > settings.EXCLUSION_LIST_MAX_BYTES:
        limit = settings.EXCLUSION_LIST_MAX_BYTES // (1024 * 1024)
        form.add_error("file", f"A state list is at most {limit} MB.")
        return None
    try:
        text: str = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        form.add_error("file", "The file is not UTF-8 text.")
        return None
    return text


@compliance_only
def exclusion_import_progress(request: SignedInRequest, pk: int) -> HttpResponse:
    """A state list's import: its progress while it runs (polled by htmx), then what it
    added, or why nothing was."""
    job = get_object_or_404(ExclusionListImport, pk=pk)
    return render(request, "law/imported.html", {"job": job})


@compliance_only
def law_player(request: SignedInRequest, pk: int) -> HttpResponse:
    """A player's identity (masked; "show" reveals it, audited), cash log and reviews."""
    player = get_object_or_404(Player, pk=pk)
    return _player_page(request, player, revealed=None)


def _player_page(
    request: SignedInRequest,
    player: Player,
    *,
    revealed: str | None,
    revealed_tin: str | None = None,
    form: Any = None,
    note_form: Any = None,
) -> HttpResponse:
    """A player's page (the whole ID number or TIN when compliance just asked to see it); with
    a refused form (its errors shown), answered 422."""
    identity = selectors.identity_of(player)
    context = {
        "player": player,
        "identity": identity,
        "masked": masked_id(identity.id_number) if identity else "",
        "tin_masked": masked_last4(identity.tin_last4) if identity else "",
        "revealed": revealed,
        "revealed_tin": revealed_tin,
        "cash": player.cash_transactions.order_by("-created_at")[:100],
        "reviews": selectors.reviews(player.pk),
        "records": records_of(player),
        "review_form": form or ReviewForm(),
        "note_form": note_form or ReviewNoteForm(),
        "sar_open_form": SarOpenForm(initial={"player": player.pk}),
    }
    refused = form is not None or note_form is not None
    return render(request, "law/player.html", context, status=422 if refused else 200)


@require_POST
@compliance_only
def law_player_reveal(request: SignedInRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = ReviewForm()
    show = "tin" if request.POST.get("show") == "tin" else "id_number"
    shown = call_service(
        request,
        form,
        lambda: identity_reveal(
            player=player, by=request.user, reason="shown on screen", show=show
        ),
    )
    if show == "tin":
        return _player_page(request, player, revealed=None, revealed_tin=shown)
    return _player_page(request, player, revealed=shown)


@require_POST
@compliance_only
def law_review_open(request: SignedInRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = ReviewForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: reviews.review_open(player=player, note=form.cleaned_data["note"], by=request.user),
    ):
        return redirect("law-player", pk=player.pk)
    return _player_page(request, player, revealed=None, form=form)


@require_POST
@compliance_only
def law_review_note(request: SignedInRequest, pk: int) -> HttpResponse:
    review = get_object_or_404(SuspiciousActivityReview, pk=pk)
    form = ReviewNoteForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: reviews.review_note(review=review, by=request.user, **form.cleaned_data),
    ):
        return redirect("law-player", pk=review.player_id)
    return _player_page(request, review.player, revealed=None, note_form=form)
