"""``GET /api/v1/device/hand/``: what the table's shuffler reads before it deals — its table's
hand waiting for cards (or none), how many seven-card hands to dispense, and the last sequence
number the system holds from it (``wagers.shuffler_waiting``). Signed with the device's own
token (``Authorization: Device <token>``) and nothing else, like the hands it posts; it names
no player and shows no card."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView
from cardroom.api.device_auth import DeviceAuthentication, IsDevice
from tables.models import ShufflerDevice
from wagers.shuffler_waiting import device_waiting


class DeviceWaitingOut(serializers.Serializer):
    table = serializers.IntegerField(help_text="The device's table.")
    table_name = serializers.CharField()
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand waiting for cards (null: none waits)."
    )
    number = serializers.IntegerField(allow_null=True, help_text="Its number at the table.")
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="Its live spots' seats, in dispense order."
    )
    hands = serializers.IntegerField(
        help_text="How many seven-card hands to dispense: the spots', then the dealer's (0: "
        "no hand waits)."
    )
    last_sequence = serializers.IntegerField(
        allow_null=True, help_text="The last sequence number received from this device."
    )


class DeviceWaiting(ServiceView):
    """The device's table and the hand it may deal now."""

    authentication_classes = [DeviceAuthentication]
    permission_classes = [IsDevice]
    read_roles = ()  # no person's role: only a device's token is let in (IsDevice)

    @extend_schema(responses=DeviceWaitingOut)
    def get(self, request: Request) -> Response:
        device = request.auth
        assert isinstance(device, ShufflerDevice)  # IsDevice let nobody else in
        return Response(DeviceWaitingOut(device_waiting(device)).data)
