"""A cardroom's group of minute settings (``tables.services.cardroom_minutes``): GET answers
them, PUT sets any of them. A PUT takes no ``Idempotency-Key``: the same PUT twice leaves the
same settings (each one audited), as the minimum age's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from patrons.models import Cardroom

Setter = Callable[..., Cardroom]


def minutes_field() -> serializers.IntegerField:
    # Any whole number gets to the service, which refuses one outside its bounds by name.
    return serializers.IntegerField(min_value=0, max_value=100_000, required=False)


class CardroomMinutes(ServiceView):
    """Subclasses name the ``output`` serializer, the ``input_serializer`` and the ``setter``
    service (``cardroom=``, ``values=``, ``by=``), and are documented with ``documented``."""

    output: ClassVar[type[serializers.Serializer[Any]]]
    setter: ClassVar[Setter]

    def get(self, request: Request, pk: int) -> Response:
        return Response(self.output(get_object_or_404(Cardroom, pk=pk)).data)

    def put(self, request: Request, pk: int) -> Response:
        cardroom = type(self).setter(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            values=self.parse(request),
            by=actor(request),
        )
        return Response(self.output(cardroom).data)


def documented(view: type[CardroomMinutes]) -> type[CardroomMinutes]:
    """The schema of a minutes view: its output for GET and PUT, its input for PUT."""
    return extend_schema_view(
        get=extend_schema(responses=view.output),
        put=extend_schema(request=view.input_serializer, responses=view.output),
    )(view)
