"""The cardroom's shifts and chip denominations: what every count and slip is made in."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, WallClockField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.services.cardrooms import (
    cardroom_cage_limit_set,
    cardroom_denominations_set,
    cardroom_shifts_set,
)

from .common import MAX_DENOMINATIONS, SUPERVISOR


class ShiftOut(serializers.Serializer):
    name = serializers.CharField()
    starts_at = WallClockField()


class ShiftIn(StrictSerializer):
    name = serializers.CharField(max_length=20)
    starts_at = WallClockField()


class ShiftsIn(StrictSerializer):
    shifts = ShiftIn(many=True, max_length=24)  # type: ignore[call-arg]  # one an hour at most


class CardroomShifts(ServiceView):
    """The shifts of the cardroom's gaming day; POST replaces them (a floor supervisor)."""

    write_roles = SUPERVISOR
    input_serializer = ShiftsIn

    @extend_schema(responses=ShiftOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        starts = table_selectors.shift_starts(cardroom)
        return Response(ShiftOut([{"name": n, "starts_at": s} for n, s in starts], many=True).data)

    @extend_schema(request=ShiftsIn, responses=ShiftOut(many=True))
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        shifts = [(s["name"], s["starts_at"]) for s in self.parse(request)["shifts"]]
        made = cardroom_shifts_set(cardroom=cardroom, shifts=shifts, by=actor(request))
        return Response(ShiftOut(made, many=True).data)


class DenominationsIn(StrictSerializer):
    denominations = serializers.ListField(child=MoneyField(), max_length=MAX_DENOMINATIONS)


class DenominationsOut(serializers.Serializer):
    denominations = serializers.ListField(child=serializers.CharField())


class CardroomDenominations(ServiceView):
    """The chip denominations racks, fills and credits are counted in."""

    write_roles = SUPERVISOR
    input_serializer = DenominationsIn

    @extend_schema(responses=DenominationsOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        return Response({"denominations": cardroom.chip_denominations})

    @extend_schema(request=DenominationsIn, responses=DenominationsOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = cardroom_denominations_set(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            **self.parse(request),
            by=actor(request),
        )
        return Response({"denominations": cardroom.chip_denominations})


class CageLimitIn(StrictSerializer):
    largest_cage_amount = MoneyField()


class CageLimitOut(serializers.Serializer):
    largest_cage_amount = MoneyField()


class CardroomCageLimit(ServiceView):
    """The most a fill or credit slip, a rack count or a drop count may total in the cardroom
    (a larger one is refused naming its field); POST changes it (a floor supervisor)."""

    write_roles = SUPERVISOR
    input_serializer = CageLimitIn

    @extend_schema(responses=CageLimitOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        return Response(CageLimitOut(cardroom).data)

    @extend_schema(request=CageLimitIn, responses=CageLimitOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = cardroom_cage_limit_set(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            largest=self.parse(request)["largest_cage_amount"],
            by=actor(request),
        )
        return Response(CageLimitOut(cardroom).data)
