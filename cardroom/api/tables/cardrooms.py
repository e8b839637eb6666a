"""Cardrooms, and R17's self-approval switch of each (a two-person change)."""

from __future__ import annotations

from datetime import time

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    RowField,
    WallClockField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import ChangeDecisionIn, signature_input
from core.roles import ADMINISTRATOR
from patrons.models import Cardroom, Licensee
from tables import selectors
from tables.services.cardrooms import cardroom_create
from tables.services.self_approval import (
    self_approval_change_decide,
    self_approval_change_propose,
    self_approval_change_withdraw,
)
from tables.staff_models import SelfApprovalChange, TwoPersonChange


class CardroomOut(serializers.ModelSerializer):
    gaming_day_starts_at = WallClockField()

    class Meta:
        model = Cardroom
        fields = [
            "id",
            "name",
            "licensee",
            "time_zone",
            "gaming_day_starts_at",
            "self_approval_allowed",
        ]


class SelfApprovalChangeOut(serializers.Serializer):
    """A change to a cardroom's self-approval switch: a kind of two-person change."""

    id = serializers.IntegerField()
    cardroom = serializers.IntegerField(source="cardroom_id")
    allowed = serializers.BooleanField()
    reason = serializers.CharField()
    proposed_by = serializers.IntegerField(source="proposed_by_id")
    proposed_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=TwoPersonChange.Status.choices)
    decided_by = serializers.IntegerField(source="decided_by_id", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_reason = serializers.SerializerMethodField()

    def get_decision_reason(self, change: SelfApprovalChange) -> str | None:
        decision = change.decided
        return None if decision is None else decision.reason


class CardroomIn(StrictSerializer):
    """A new cardroom; self-approval starts off (it changes through a two-person change)."""

    name = serializers.CharField(max_length=100)
    time_zone = serializers.CharField(max_length=64, default="UTC")
    gaming_day_starts_at = WallClockField(default=time(6, 0))
    # The operator: cash is totalled by person across its cardrooms. None: a licensee of its
    # own, of the cardroom's name.
    licensee = RowField(Licensee.objects.all(), required=False, allow_null=True, default=None)


class SelfApprovalChangeIn(StrictSerializer):
    allowed = serializers.BooleanField()
    reason = serializers.CharField(max_length=2000)


class CardroomList(generics.ListAPIView, ServiceView):
    """Cardrooms; an administrator creates one (not a floor supervisor)."""

    queryset = Cardroom.objects.order_by("name")
    serializer_class = CardroomOut
    write_roles = (ADMINISTRATOR,)
    input_serializer = CardroomIn

    @extend_schema(request=CardroomIn, responses={201: CardroomOut})
    @idempotent
    def post(self, request: Request) -> Response:
        cardroom = cardroom_create(**self.parse(request), by=actor(request))
        return Response(CardroomOut(cardroom).data, status=201)


class SelfApprovalChangeList(generics.ListAPIView, ServiceView):
    """R17's self-approval switch of a cardroom: its changes, newest first; an administrator
    proposes one, a second administrator approves it."""

    serializer_class = SelfApprovalChangeOut
    write_roles = (ADMINISTRATOR,)
    input_serializer = SelfApprovalChangeIn

    def get_queryset(self) -> QuerySet[SelfApprovalChange]:
        if getattr(self, "swagger_fake_view", False):
            return SelfApprovalChange.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        return selectors.self_approval_history(cardroom)

    @extend_schema(request=SelfApprovalChangeIn, responses={201: SelfApprovalChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = self_approval_change_propose(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SelfApprovalChangeOut(change).data, status=201)


class SelfApprovalDecisionView(ServiceView):
    """approve / reject / withdraw, by the URL's ``decision``."""

    write_roles = (ADMINISTRATOR,)
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=SelfApprovalChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(SelfApprovalChange, pk=pk)
        data = self.parse(request)
        if self.decision == "withdraw":
            self_approval_change_withdraw(change=change, by=actor(request))
        else:
            self_approval_change_decide(
                change=change,
                approve=self.decision == "approve",
                reason=data["reason"],
                signature=signature_input(request, data.get("signature")),
                by=actor(request),
            )
        change = SelfApprovalChange.objects.select_related("decision").get(pk=pk)
        return Response(SelfApprovalChangeOut(change).data)
