"""``POST /api/v1/device/hands/``: a table's shuffler reports the round's hands as it
dispenses them (``wagers.services.shuffler``), signed with its own token
(``Authorization: Device <token>``, ``device_auth``) and nothing else.

Its ``sequence`` is the message's idempotency key: the same (device, sequence) and body answer
the first answer again (200) and book nothing; the same sequence with another body is refused
(409, ``sequence``). A refusal of the hands is answered in the errors' one shape and kept for
the dealer's screen: 409 for the hand (none waiting for cards, or not the device's table's),
400 for the hands themselves (``hands``: their number; ``hands.N``: the N-th, from 0, is not
seven cards or repeats a card, R1).
"""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView
from cardroom.api.device_auth import DeviceAuthentication, IsDevice
from cardroom.api.fields import IdField
from cardroom.api.hand_outputs import HandDetailOut, hand_answer
from cardroom.api.inputs import StrictSerializer
from engine.table import MAX_SPOTS
from tables.models import ShufflerDevice
from wagers import services
from wagers.models import Hand, ShufflerReport

#: The HTTP status of a kept refusal, by its code; any other refusal of the hands is a 400.
_STATUS = {"conflict": 409, "forbidden": 403, "not_found": 404}
#: Bounds of the body, well above a round (8 hands of 7): a wrong count reaches the service,
#: which refuses it by name and keeps the refusal.
_MOST_HANDS, _MOST_CARDS = 2 * (MAX_SPOTS + 1), 52


class DeviceHandsIn(StrictSerializer):
    sequence = serializers.IntegerField(
        min_value=0, max_value=2**63 - 1, help_text="The device's own number of the message."
    )
    hand = IdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The hand the cards are for; when given, the table's hand waiting for cards.",
    )
    hands = serializers.ListField(
        child=serializers.ListField(
            child=serializers.CharField(max_length=4), max_length=_MOST_CARDS
        ),
        max_length=_MOST_HANDS,
        help_text="In dispense order: the live spots by seat, then the dealer's (or the "
        "designated player's) hand; seven cards each, like 'Ah'.",
    )


class DeviceHandsOut(HandDetailOut):
    """The dealt hand, as the hand API answers it, and the message's ``sequence``."""

    sequence = serializers.IntegerField(read_only=True)

    class Meta(HandDetailOut.Meta):
        fields = [*HandDetailOut.Meta.fields, "sequence"]


def _render(hand: Hand) -> dict[str, Any]:
    """The hand's answer as JSON values, as it is stored for a replay."""
    data: dict[str, Any] = json.loads(JSONRenderer().render(hand_answer(hand)))
    return data


class DeviceHands(ServiceView):
    """The round's hands from the table's shuffler: dealt to the live spots by seat, then the
    dealer's hand (R1), card source "shuffler"."""

    authentication_classes = [DeviceAuthentication]
    permission_classes = [IsDevice]
    write_roles = ()  # no person's role: only a device's token is let in (IsDevice)
    input_serializer = DeviceHandsIn
    takes_idempotency_key = False  # the message's own ``sequence`` is its key

    @extend_schema(
        request=DeviceHandsIn,
        responses={
            201: OpenApiResponse(DeviceHandsOut, description="Dealt."),
            200: OpenApiResponse(
                DeviceHandsOut,
                description="The same message again: the first answer, nothing booked.",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        device = request.auth
        assert isinstance(device, ShufflerDevice)  # IsDevice let nobody else in
        received = services.hand_cards_from_shuffler(
            device=device,
            sequence=data["sequence"],
            hand_id=data["hand"],
            hands=data["hands"],
            render=_render,
        )
        report = received.report
        if report.outcome == ShufflerReport.Outcome.REFUSED:
            return Response(report.answer, status=_STATUS.get(report.code, 400))
        status = 200 if received.replayed else 201
        return Response({**report.answer, "sequence": report.sequence}, status=status)
