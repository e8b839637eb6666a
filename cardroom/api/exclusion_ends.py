"""A house bar's end by two people (a two-person change: one floor supervisor proposes,
another approves and signs), an exclusion match's outcome (what the cardroom did), and the
cardroom's exclusion actions for the state as CSV."""

from __future__ import annotations

from datetime import date

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import ChangeDecisionIn, signature_input
from compliance.exclusion_actions import exclusion_actions_csv
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons import incidents
from patrons.models import Cardroom, Exclusion, Incident, IncidentEntry
from tables.services.exclusion_ends import (
    exclusion_end_decide,
    exclusion_end_propose,
    exclusion_end_withdraw,
)
from tables.staff_models import ExclusionEndChange, TwoPersonChange


class ExclusionEndChangeOut(serializers.Serializer):
    id = serializers.IntegerField()
    cardroom = serializers.IntegerField(source="cardroom_id")
    exclusion = serializers.IntegerField(source="exclusion_id")
    ends_on = serializers.CharField()
    reason = serializers.CharField()
    proposed_by = serializers.IntegerField(source="proposed_by_id")
    proposed_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=TwoPersonChange.Status.choices)
    decided_by = serializers.IntegerField(source="decided_by_id", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)


class ExclusionEndChangeIn(StrictSerializer):
    ends_on = serializers.DateField()
    reason = serializers.CharField(max_length=2000)


class ExclusionEndChangeList(generics.ListAPIView, ServiceView):
    """A house bar's proposed ends, newest first; a floor supervisor proposes one."""

    serializer_class = ExclusionEndChangeOut
    read_roles = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)
    write_roles = (FLOOR_SUPERVISOR,)
    input_serializer = ExclusionEndChangeIn

    def get_queryset(self) -> QuerySet[ExclusionEndChange]:
        if getattr(self, "swagger_fake_view", False):
            return ExclusionEndChange.objects.none()
        exclusion = get_object_or_404(Exclusion, pk=self.kwargs["pk"])
        return ExclusionEndChange.objects.filter(values__exclusion=exclusion.pk).select_related(
            "decision"
        )

    @extend_schema(request=ExclusionEndChangeIn, responses={201: ExclusionEndChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = exclusion_end_propose(
            exclusion=get_object_or_404(Exclusion, pk=pk),
            **self.parse(request),
            by=actor(request),
        )
        return Response(ExclusionEndChangeOut(change).data, status=201)


class ExclusionEndDecision(ServiceView):
    """approve (a second floor supervisor, signing) / reject / withdraw, by the URL."""

    write_roles = (FLOOR_SUPERVISOR,)
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=ExclusionEndChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(ExclusionEndChange, pk=pk)
        data = self.parse(request)
        if self.decision == "withdraw":
            exclusion_end_withdraw(change=change, by=actor(request))
        else:
            exclusion_end_decide(
                change=change,
                approve=self.decision == "approve",
                reason=data["reason"],
                signature=signature_input(request, data.get("signature")),
                by=actor(request),
            )
        change = ExclusionEndChange.objects.select_related("decision").get(pk=pk)
        return Response(ExclusionEndChangeOut(change).data)


class OutcomeIn(StrictSerializer):
    outcome = serializers.ChoiceField(choices=IncidentEntry.Outcome.choices)
    text = serializers.CharField(max_length=2000)


class OutcomeOut(serializers.Serializer):
    incident = serializers.IntegerField(source="incident_id")
    outcome = serializers.CharField()
    text = serializers.CharField()
    at = serializers.DateTimeField()


class IncidentOutcome(ServiceView):
    """What the cardroom did after an exclusion match (the floor or compliance)."""

    read_roles = ()
    write_roles = incidents.REVIEWERS
    input_serializer = OutcomeIn

    @extend_schema(request=OutcomeIn, responses={201: OutcomeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        entry = incidents.incident_outcome_record(
            incident=get_object_or_404(Incident, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(OutcomeOut(entry).data, status=201)


def _day(request: Request, name: str, default: date) -> date:
    text = request.query_params.get(name)
    if not text:
        return default
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"{text!r} is not a date (YYYY-MM-DD).", field=name) from None


class ExclusionActionsCsv(ServiceView):
    """``?start=&end=`` (days, inclusive; today by default): the cardroom's exclusion actions
    for the state as CSV."""

    read_roles = (COMPLIANCE_AUDITOR,)

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        today = date.today()
        start = _day(request, "start", today)
        end = _day(request, "end", start)
        text = exclusion_actions_csv(cardroom=cardroom, start=start, end=end, by=actor(request))
        response = HttpResponse(text, content_type="text/csv")
        response["Content-Disposition"] = (
            f'attachment; filename="exclusion-actions-{start}-{end}.csv"'
        )
        return response
