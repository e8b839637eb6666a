"""A table's card-reading shuffler or shoe: the floor supervisor registers it, rotates its
token and revokes it (``tables.services.devices``). The token is in the answer of the
registration and of a rotation, once: it is kept as a digest only, and neither answer is
remembered for an ``Idempotency-Key`` retry (that would keep the token); a retried
registration is refused by ``table`` (the table has its device), a retried rotation rotates
again. Revoking takes a key as every other POST."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import SUPERVISOR
from tables import device_selectors
from tables.models import ShufflerDevice, Table
from tables.services.devices import device_register, device_revoke, device_token_rotate


class DeviceOut(serializers.ModelSerializer):
    registered_by_name = PersonNameField(source="registered_by")
    revoked_by_name = PersonNameField(source="revoked_by", allow_null=True)
    kind_name = serializers.CharField(source="get_kind_display", read_only=True)
    token_prefix = serializers.SerializerMethodField()

    class Meta:
        model = ShufflerDevice
        fields = [
            "id", "table", "kind", "kind_name", "make", "model", "serial", "certification_ref",
            "registered_by", "registered_by_name", "registered_at", "revoked_by",
            "revoked_by_name", "revoked_at", "token_prefix",
        ]  # fmt: skip

    def get_token_prefix(self, device: ShufflerDevice) -> str:
        """The first characters of the token in use ("" once revoked): to tell tokens apart."""
        return device_selectors.token_prefix_of(device)


class IssuedOut(DeviceOut):
    token = serializers.CharField(read_only=True, help_text="Shown once: keep it in the device.")

    class Meta(DeviceOut.Meta):
        fields = [*DeviceOut.Meta.fields, "token"]


class DeviceIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=ShufflerDevice.Kind.choices, default="shuffler")
    make = serializers.CharField(max_length=100)
    model = serializers.CharField(max_length=100)
    serial = serializers.CharField(max_length=100)
    certification_ref = serializers.CharField(
        max_length=100, required=False, default="", allow_blank=True
    )


def _issued(device: ShufflerDevice, token: str) -> dict[str, Any]:
    device = device_selectors.devices_of(device.table).get(pk=device.pk)
    return {**DeviceOut(device).data, "token": token}


class DeviceList(generics.ListAPIView, ServiceView):
    """A table's devices, the one in service first; POST registers one."""

    serializer_class = DeviceOut
    write_roles = SUPERVISOR
    input_serializer = DeviceIn
    takes_idempotency_key = False  # the answer holds the token, shown once

    def get_queryset(self) -> QuerySet[ShufflerDevice]:
        if getattr(self, "swagger_fake_view", False):
            return ShufflerDevice.objects.none()
        return device_selectors.devices_of(get_object_or_404(Table, pk=self.kwargs["pk"]))

    @extend_schema(request=DeviceIn, responses={201: IssuedOut})
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        table = get_object_or_404(Table, pk=pk)
        issued = device_register(table=table, **data, by=actor(request))
        return Response(_issued(*issued), status=201)


class DeviceTokenRotate(ServiceView):
    """A new token for the device; the one before stops working at once."""

    write_roles = SUPERVISOR
    takes_idempotency_key = False  # the answer holds the token, shown once

    @extend_schema(request=None, responses=IssuedOut)
    def post(self, request: Request, pk: int) -> Response:
        device = get_object_or_404(ShufflerDevice, pk=pk)
        return Response(_issued(*device_token_rotate(device=device, by=actor(request))))


class DeviceRevoke(ServiceView):
    """Take the device out of service: its token stops working at once."""

    write_roles = SUPERVISOR

    @extend_schema(request=None, responses=DeviceOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        device = device_revoke(device=get_object_or_404(ShufflerDevice, pk=pk), by=actor(request))
        device = device_selectors.devices_of(device.table).get(pk=device.pk)
        return Response(DeviceOut(device).data)
