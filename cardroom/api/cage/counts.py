"""A house-banked table's rack counts: the dealer counts and signs, the floor supervisor
verifies and signs."""

from __future__ import annotations

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import selectors, services
from cage.models import InventoryCount
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, SignatureIn, signature_input
from tables.models import Table

from .common import SUPERVISOR, pieces, require_sees_cage_records


class InventoryCountOut(serializers.ModelSerializer):
    total = MoneyField()
    book_total = MoneyField(allow_null=True)
    variance = serializers.SerializerMethodField()
    counted_by_name = PersonNameField(source="counted_by")
    verified_by_name = PersonNameField(source="verified_by")

    class Meta:
        model = InventoryCount
        fields = [
            "id",
            "table",
            "session",
            "kind",
            "gaming_day",
            "shift",
            "chips",
            "total",
            "book_total",
            "variance",
            "counted_by",
            "counted_by_name",
            "verified_by",
            "verified_by_name",
            "note",
            "late",
            "created_at",
        ]

    def get_variance(self, count: InventoryCount) -> str | None:
        if count.book_total is None:
            return None
        return SignedMoneyField().to_representation(count.total - count.book_total)


class InventoryCountIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=InventoryCount.Kind.choices)
    chips = pieces()
    counted_by = SecondSignatureIn(help_text="The dealer (or floor supervisor) who counted signs.")
    signature = SignatureIn(help_text="The verifying floor supervisor's own password or PIN.")
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class TableInventory(generics.ListAPIView, ServiceView):
    """A house-banked table's rack counts, newest first; POST records one: the dealer who
    counted signs (``counted_by``: their username and password or PIN), and the floor
    supervisor who verifies signs too (``signature``). A closing count closes the table."""

    moves_money = True
    serializer_class = InventoryCountOut
    write_roles = SUPERVISOR
    input_serializer = InventoryCountIn

    def get_queryset(self) -> QuerySet[InventoryCount]:
        if getattr(self, "swagger_fake_view", False):
            return InventoryCount.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_cage_records(self.request, table.pk)
        return selectors.inventory_counts(table)

    @extend_schema(request=InventoryCountIn, responses={201: InventoryCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        count = services.inventory_count_record(
            table=get_object_or_404(Table, pk=pk),
            kind=data["kind"],
            chips=data["chips"],
            counted_by=signature_input(request, data["counted_by"]),
            signature=signature_input(request, data["signature"]),
            note=data["note"],
            by=actor(request),
        )
        return Response(InventoryCountOut(count).data, status=201)
