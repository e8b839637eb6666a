"""Fills and credits: requested by a floor supervisor, signed step by step (``slip_steps``), or
voided with a witness who signs."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import selectors, services
from cage.models import Slip, SlipStep
from cage.slip_selectors import slip_next_step
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, signature_input
from core.roles import PLAY_READERS
from tables.models import Table

from .common import SUPERVISOR, pieces, require_sees_cage_records


class SlipStepOut(serializers.ModelSerializer):
    person_name = PersonNameField(source="person")

    class Meta:
        model = SlipStep
        fields = ["step", "person", "person_name", "at"]


class SlipOut(serializers.ModelSerializer):
    total = MoneyField()
    number = serializers.CharField(read_only=True)
    status = serializers.SerializerMethodField()
    requested_by_name = PersonNameField(source="requested_by")
    delivered_by = serializers.SerializerMethodField()
    delivered_by_name = PersonNameField(source="delivery.delivered_by", allow_null=True)
    voided_by = serializers.SerializerMethodField()
    voided_by_name = PersonNameField(source="void.voided_by", allow_null=True)
    witness = serializers.SerializerMethodField()
    witness_name = PersonNameField(source="void.witness", allow_null=True)
    void_reason = serializers.SerializerMethodField()
    steps = SlipStepOut(many=True, read_only=True)
    next_step = serializers.SerializerMethodField()

    class Meta:
        model = Slip
        fields = [
            "id",
            "number",
            "kind",
            "serial",
            "table",
            "gaming_day",
            "shift",
            "chips",
            "total",
            "requested_by",
            "requested_by_name",
            "requested_at",
            "status",
            "delivered_by",
            "delivered_by_name",
            "voided_by",
            "voided_by_name",
            "witness",
            "witness_name",
            "void_reason",
            "steps",
            "next_step",
        ]

    def get_next_step(self, slip: Slip) -> str | None:
        """The step the slip waits for (None once delivered or void)."""
        if slip_status(slip) != "requested":
            return None
        return slip_next_step(slip, list(slip.steps.all()))

    def get_status(self, slip: Slip) -> str:
        return slip_status(slip)

    def get_delivered_by(self, slip: Slip) -> int | None:
        delivery = getattr(slip, "delivery", None)
        return delivery.delivered_by_id if delivery else None

    def get_voided_by(self, slip: Slip) -> int | None:
        void = getattr(slip, "void", None)
        return void.voided_by_id if void else None

    def get_witness(self, slip: Slip) -> int | None:
        void = getattr(slip, "void", None)
        return void.witness_id if void else None

    def get_void_reason(self, slip: Slip) -> str | None:
        void = getattr(slip, "void", None)
        return void.reason if void else None


def slip_status(slip: Slip) -> str:
    if hasattr(slip, "void"):
        return "void"
    return "delivered" if hasattr(slip, "delivery") else "requested"


class SlipIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = pieces()


class TableSlips(generics.ListAPIView, ServiceView):
    """A house-banked table's fill and credit slips, newest first; POST requests one."""

    moves_money = True
    serializer_class = SlipOut
    write_roles = SUPERVISOR
    input_serializer = SlipIn

    def get_queryset(self) -> QuerySet[Slip]:
        if getattr(self, "swagger_fake_view", False):
            return Slip.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_cage_records(self.request, table.pk)
        return selectors.slips(table)

    @extend_schema(request=SlipIn, responses={201: SlipOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        slip = services.slip_request(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SlipOut(slip).data, status=201)


class SlipDetail(generics.RetrieveAPIView):
    queryset = selectors.slips()
    serializer_class = SlipOut
    read_roles = PLAY_READERS

    def get_object(self) -> Slip:
        slip: Slip = super().get_object()
        require_sees_cage_records(self.request, slip.table_id)
        return slip


class VoidIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000)
    witness = SecondSignatureIn(help_text="The witness (a dealer or floor supervisor) signs.")


class SlipVoid(ServiceView):
    """A slip never delivered is voided by a floor supervisor and a witness, with a reason."""

    moves_money = True
    write_roles = SUPERVISOR
    input_serializer = VoidIn

    @extend_schema(request=VoidIn, responses=SlipOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        services.slip_void(
            slip=get_object_or_404(Slip, pk=pk),
            reason=data["reason"],
            witness=signature_input(request, data["witness"]),
            by=actor(request),
        )
        return Response(SlipOut(selectors.slips().get(pk=pk)).data)
