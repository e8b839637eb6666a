"""The floor's screens for players under the law (``/floor/``): the incident log with
exclusion-match alerts, reporting and following up, barring a player (the floor and
compliance); a player's identity; a stopped game's restart (R16, 2026) and the printable
table notice (the floor). ID numbers are shown masked.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core.inputs import whole_number
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons import exclusions, incidents, selectors
from patrons.ctr_person import PERSON_PARTS, CtrPerson, masked_last4
from patrons.identity import IdentityInput, identity_record
from patrons.masking import masked_id
from patrons.models import Incident, IncidentEntry, Player
from tables import selectors as table_selectors
from tables.models import Table
from tables.rotation import game_restart
from wagers.services import incidents as incidents_at_tables

from .base import SignedInRequest, call_service, role_required
from .forms.law import BarForm, FollowUpForm, IdentityForm, IncidentForm, RestartForm
from .law import cardroom_first

floor_and_compliance = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)
floor_only = role_required(FLOOR_SUPERVISOR)


# --- the floor and compliance: incidents, barring -------------------------------------------


@floor_and_compliance
def incident_list(request: SignedInRequest) -> HttpResponse:
    return _incidents_page(request, IncidentForm(), BarForm(), status=200)


def _incidents_page(
    request: SignedInRequest, form: Any, bar: Any, follow: Any = None, *, status: int = 422
) -> HttpResponse:
    """The incident log; answered 422 when it comes back with a refused form."""
    rows = selectors.incidents().select_related("at_table__table", "at_hand__hand")[:100]
    context = {
        "incidents": [(row, selectors.incident_status(row)) for row in rows],
        "form": form,
        "bar_form": bar,
        "follow_form": follow or FollowUpForm(),
        "outcomes": IncidentEntry.Outcome.choices,
    }
    return render(request, "law/incidents.html", context, status=status)


@require_POST
@floor_and_compliance
def incident_report(request: SignedInRequest) -> HttpResponse:
    form = IncidentForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: incidents_at_tables.incident_report(
            cardroom=cardroom_first(),
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
        person = CtrPerson(**{key: data.pop(key) for key in PERSON_PARTS})
        identity = IdentityInput(**data, person=person)
        row = call_service(
            request,
            form,
            lambda: identity_record(player=player, identity=identity, photo=photo, by=request.user),
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
    if identity is None:
        return None
    return (player, masked_id(identity.id_number), masked_last4(identity.tin_last4))


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
