"""A late closing count of a table session closed without one: two floor supervisors, each
signing as themselves."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import services
from cardroom.api.base import ServiceView, actor
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, SignatureIn, signature_input
from tables.models import TableSession

from .common import SUPERVISOR, pieces
from .counts import InventoryCountOut


class LateClosingCountIn(StrictSerializer):
    chips = pieces()
    counted_by = SecondSignatureIn(help_text="The floor supervisor who counted signs.")
    signature = SignatureIn(help_text="The verifying floor supervisor's own password or PIN.")
    note = serializers.CharField(max_length=2000, help_text="Why the closing count is late.")


class SessionLateClosingCount(ServiceView):
    """POST records the closing count of a table session that was closed without one (old
    data, or a fault), so that its shift and gaming day can close: a floor supervisor counts
    and signs (``counted_by``), a second verifies and signs (``signature``), with a ``note``
    saying why it is late. It is booked in the shift the session closed in, marked late."""

    moves_money = True
    write_roles = SUPERVISOR
    input_serializer = LateClosingCountIn

    @extend_schema(request=LateClosingCountIn, responses={201: InventoryCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        count = services.inventory_late_closing_count_record(
            session=get_object_or_404(TableSession, pk=pk),
            chips=data["chips"],
            counted_by=signature_input(request, data["counted_by"]),
            signature=signature_input(request, data["signature"]),
            note=data["note"],
            by=actor(request),
        )
        return Response(InventoryCountOut(count).data, status=201)
