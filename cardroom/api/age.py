"""A cardroom's minimum age (``patrons.age``): everyone who reads configuration sees it; the
floor or an administrator sets it (PUT, audited)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.inputs import StrictSerializer
from patrons.age import SETTERS, cardroom_minimum_age_set
from patrons.models import MINIMUM_AGE_BOUNDS, Cardroom


class MinimumAgeIn(StrictSerializer):
    # Any whole number gets to the service, which refuses one outside the jurisdictions' range.
    minimum_age = serializers.IntegerField(min_value=0, max_value=1000)


class MinimumAgeOut(serializers.Serializer):
    cardroom = serializers.IntegerField(source="pk")
    minimum_age = serializers.IntegerField()
    lowest_allowed = serializers.SerializerMethodField()
    highest_allowed = serializers.SerializerMethodField()

    def get_lowest_allowed(self, cardroom: Cardroom) -> int:
        return MINIMUM_AGE_BOUNDS[0]

    def get_highest_allowed(self, cardroom: Cardroom) -> int:
        return MINIMUM_AGE_BOUNDS[1]


class CardroomMinimumAge(ServiceView):
    """The youngest a player may be in the cardroom (its jurisdiction's; California: 21),
    checked at registration, at a seat and at every cash buy-in. PUT sets it (18 to 25)."""

    write_roles = SETTERS
    input_serializer = MinimumAgeIn

    @extend_schema(responses=MinimumAgeOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(MinimumAgeOut(get_object_or_404(Cardroom, pk=pk)).data)

    @extend_schema(request=MinimumAgeIn, responses=MinimumAgeOut)
    def put(self, request: Request, pk: int) -> Response:
        cardroom = cardroom_minimum_age_set(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            minimum_age=self.parse(request)["minimum_age"],
            by=actor(request),
        )
        return Response(MinimumAgeOut(cardroom).data)
