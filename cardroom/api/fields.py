"""Serializer fields and a base view shared by the apps' API modules."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.views import APIView

from cardroom.errors import DomainError
from cardroom.money import money, money_text


@extend_schema_field({"type": "string", "pattern": r"^\d{1,10}(\.\d{1,2})?$", "example": "25.00"})
class MoneyField(serializers.Field):
    """Money in and out as a decimal string ("25.00"); an integer is accepted, a float never."""

    def to_internal_value(self, data: Any):
        try:
            return money(data, field=self.field_name)
        except DomainError as error:
            raise serializers.ValidationError(error.message) from None

    def to_representation(self, value: Any) -> str:
        return money_text(value)


@extend_schema_field(OpenApiTypes.STR)
class CardsField(serializers.CharField):
    """Cards in R1 notation, as the dealer types them: ``"As Td 9h 8c 7d 3s 2h"``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 60)
        super().__init__(**kwargs)


class ServiceView(APIView):
    """A view that parses with ``input_serializer``, calls one service, and answers."""

    input_serializer: type[serializers.Serializer] | None = None

    def parse(self, request: Any) -> dict[str, Any]:
        serializer = self.input_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data
