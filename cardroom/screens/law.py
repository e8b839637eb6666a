"""Screens for players under the law.

- Compliance (``/compliance/law/``): a gaming day's cash log, the MTL, CTRs (file one; CSV),
  structuring flags, suspicious-activity reviews, the exclusion lists (import a state list),
  and each player's page with the identity masked and an audited "show".
- The floor and compliance (``/floor/incidents/``): the incident log with exclusion-match
  alerts, reporting and following up; barring a player.
- The floor: a stopped game's restart (R16, 2026) and the printable table notice.

ID numbers are shown through ``masked_id`` everywhere but the page that answers "show".
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance import cash_reports
from core.inputs import AsciiDigitsForm, whole_number
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons import cash, exclusions, incidents, reviews, selectors
from patrons.identity import IdentityInput, identity_record, identity_reveal
from patrons.masking import masked_id
from patrons.models import (
    CurrencyTransactionReport,
    Exclusion,
    ExclusionListImport,
    IdType,
    Incident,
    IncidentEntry,
    SuspiciousActivityReview,
)
from patrons.state_list_imports import state_list_import_request
from tables import selectors as table_selectors
from tables.models import Cardroom, Player, Table
from tables.rotation import game_restart

from .base import SignedInRequest, call_service, role_required

compliance_only = role_required(COMPLIANCE_AUDITOR)
floor_and_compliance = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)
floor_only = role_required(FLOOR_SUPERVISOR)


class DayForm(AsciiDigitsForm):
    day = forms.DateField(required=False)


class FileForm(AsciiDigitsForm):
    reference = forms.CharField(max_length=60)


class ImportForm(AsciiDigitsForm):
    file = forms.FileField()


class ReviewForm(AsciiDigitsForm):
    note = forms.CharField(widget=forms.Textarea, max_length=5000)


class ReviewNoteForm(AsciiDigitsForm):
    status = forms.ChoiceField(choices=SuspiciousActivityReview.Status.choices)
    note = forms.CharField(widget=forms.Textarea, max_length=5000)


class IncidentForm(AsciiDigitsForm):
    kind = forms.ChoiceField(choices=Incident.Kind.choices)
    table = forms.ModelChoiceField(Table.objects.order_by("name"), required=False)
    players = forms.ModelMultipleChoiceField(Player.objects.order_by("name"), required=False)
    summary = forms.CharField(widget=forms.Textarea, max_length=5000)


class FollowUpForm(AsciiDigitsForm):
    kind = forms.ChoiceField(choices=IncidentEntry.Kind.choices)
    text = forms.CharField(widget=forms.Textarea, max_length=5000)


class BarForm(AsciiDigitsForm):
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


def _cardroom() -> Cardroom:
    return Cardroom.objects.order_by("pk").first() or Cardroom(name="(none)")


# --- compliance -----------------------------------------------------------------------------


@compliance_only
def law_home(request: SignedInRequest) -> HttpResponse:
    """A gaming day's cash reporting, flags, reviews and the exclusion lists."""
    form = DayForm(request.GET or None)
    cardroom = _cardroom()
    day = (form.cleaned_data["day"] if form.is_valid() else None) or table_selectors.gaming_day(
        cardroom, timezone.now()
    )
    return _law_page(request, cardroom, day, day_form=form)


def _law_page(
    request: SignedInRequest,
    cardroom: Cardroom,
    day: date,
    *,
    day_form: Any = None,
    file_form: Any = None,
    import_form: Any = None,
) -> HttpResponse:
    """The compliance page of ``cardroom`` (looked up once, by the caller); with a refused
    form (its errors shown), answered 422."""
    refused = file_form is not None or import_form is not None
    context: dict[str, Any] = {
        "cardroom": cardroom,
        "form": day_form or DayForm(),
        "day": day,
        "log": selectors.cash_log(cardroom.pk, day).select_related("at_table__table"),
        "ctrs": selectors.ctrs(cardroom.pk, day),
        "flags": selectors.structuring_flags(cardroom.pk)[:50],
        "reviews": selectors.reviews()[:50],
        "exclusions": [(row, masked_id(row.id_number)) for row in selectors.exclusions()[:200]],
        "policy": selectors.cash_policy(cardroom.pk),
        "file_form": file_form or FileForm(),
        "import_form": import_form or ImportForm(),
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
    return _law_page(request, _cardroom(), report.gaming_day, file_form=form)


@compliance_only
def cash_csv(request: SignedInRequest, kind: str) -> HttpResponse:
    cardroom = _cardroom()
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
        cardroom = _cardroom()
        today = table_selectors.gaming_day(cardroom, timezone.now())
        return _law_page(request, cardroom, today, import_form=form)
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
    form: Any = None,
    note_form: Any = None,
) -> HttpResponse:
    """A player's page; with a refused form (its errors shown), answered 422."""
    identity = selectors.identity_of(player)
    context = {
        "player": player,
        "identity": identity,
        "masked": masked_id(identity.id_number) if identity else "",
        "revealed": revealed,
        "cash": player.cash_transactions.order_by("-created_at")[:100],
        "reviews": selectors.reviews(player.pk),
        "review_form": form or ReviewForm(),
        "note_form": note_form or ReviewNoteForm(),
    }
    refused = form is not None or note_form is not None
    return render(request, "law/player.html", context, status=422 if refused else 200)


@require_POST
@compliance_only
def law_player_reveal(request: SignedInRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = ReviewForm()
    number = call_service(
        request,
        form,
        lambda: identity_reveal(player=player, by=request.user, reason="shown on screen"),
    )
    return _player_page(request, player, revealed=number)


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


# --- the floor and compliance: incidents, barring -------------------------------------------


@floor_and_compliance
def incident_list(request: SignedInRequest) -> HttpResponse:
    return _incidents_page(request, IncidentForm(), BarForm(), status=200)


def _incidents_page(
    request: SignedInRequest, form: Any, bar: Any, follow: Any = None, *, status: int = 422
) -> HttpResponse:
    """The incident log; answered 422 when it comes back with a refused form."""
    rows = selectors.incidents()[:100]
    context = {
        "incidents": [(row, selectors.incident_status(row)) for row in rows],
        "form": form,
        "bar_form": bar,
        "follow_form": follow or FollowUpForm(),
    }
    return render(request, "law/incidents.html", context, status=status)


@require_POST
@floor_and_compliance
def incident_report(request: SignedInRequest) -> HttpResponse:
    form = IncidentForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: incidents.incident_report(
            cardroom=_cardroom(),
            kind=form.cleaned_data["kind"],
            summary=form.cleaned_data["summary"],
            table=form.cleaned_data["table"],
            players=list(form.cleaned_data["players"]),
            by=request.user,
        ),
    ):
        return redirect("law-incidents")
    return _incidents_page(request, form, BarForm())


@require_POST
@floor_and_compliance
def incident_follow_up(request: SignedInRequest, pk: int) -> HttpResponse:
    incident = get_object_or_404(Incident, pk=pk)
    form = FollowUpForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: incidents.incident_follow_up(
            incident=incident, by=request.user, **form.cleaned_data
        ),
    ):
        return redirect("law-incidents")
    return _incidents_page(request, IncidentForm(), BarForm(), follow=form)


@require_POST
@floor_and_compliance
def exclusion_bar(request: SignedInRequest) -> HttpResponse:
    form = BarForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        entry = exclusions.ExclusionInput(
            kind=data["kind"],
            name=data["player"].name,
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            reason=data["reason"],
        )
        if call_service(
            request,
            form,
            lambda: exclusions.exclusion_add(
                cardroom=data["player"].cardroom,
                entry=entry,
                player=data["player"],
                by=request.user,
            ),
        ):
            return redirect("law-incidents")
    return _incidents_page(request, IncidentForm(), form)


@floor_and_compliance
def identity_page(request: SignedInRequest) -> HttpResponse:
    """Record (or replace) a player's identity, with an optional photo: what the cash
    reporting lines require before a large cash transaction. The number is shown masked."""
    if request.method != "POST":
        initial = {"player": request.GET.get("player")}
        return _identity_page(request, IdentityForm(initial=initial), recorded=_recorded(request))
    form = IdentityForm(request.POST, request.FILES)
    if form.is_valid():
        data = dict(form.cleaned_data)
        player, photo = data.pop("player"), data.pop("photo")
        row = call_service(
            request,
            form,
            lambda: identity_record(
                player=player, identity=IdentityInput(**data), photo=photo, by=request.user
            ),
        )
        if row:
            return redirect(f"{request.path}?recorded={player.pk}")
    return _identity_page(request, form, recorded=None, status=422)


def _recorded(request: SignedInRequest) -> Any:
    pk = whole_number(request.GET.get("recorded"))
    if pk is None:
        return None
    player = Player.objects.filter(pk=pk).first()
    identity = selectors.identity_of(player) if player else None
    return (player, masked_id(identity.id_number)) if identity else None


def _identity_page(
    request: SignedInRequest, form: Any, *, recorded: Any, status: int = 200
) -> HttpResponse:
    context = {"form": form, "recorded": recorded}
    return render(request, "law/identity.html", context, status=status)


# --- the floor: R16 (2026) -------------------------------------------------------------------


@require_POST
@floor_only
def game_restart_view(request: SignedInRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=pk)
    form = RestartForm(request.POST)
    if form.is_valid():
        call_service(
            request,
            form,
            lambda: game_restart(table=table, note=form.cleaned_data["note"], by=request.user),
        )
    if form.errors:
        return render(request, "law/restart.html", {"table": table, "form": form}, status=422)
    return redirect("floor-table", pk=table.pk)


@floor_and_compliance
def table_notice(request: SignedInRequest, pk: int) -> HttpResponse:
    """The notice R16 requires at the table, to print (a print stylesheet)."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    settings = table_selectors.current_settings(table)
    return render(
        request,
        "law/notice.html",
        {
            "table": table,
            "settings": settings,
            "today": date.today(),
            "stop": table_selectors.game_stop_open(table),
            "restart_form": RestartForm(),
        },
    )
