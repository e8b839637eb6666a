"""Tables and their settings versions."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    AsciiIntegerField,
    BoundedDictField,
    MoneyField,
    RowField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import SETTINGS_KEYS, SUPERVISOR
from cardroom.api.tables.seating import SeatingOut
from cardroom.api.tables.sessions import SessionOut
from core.inputs import AsciiDigitsForm
from patrons.models import Cardroom
from tables import rules, selectors
from tables.models import BANKING_CHOICES, Table, TableSettings
from tables.services.configuration import table_create


class SettingsOut(serializers.ModelSerializer):
    ante_min = MoneyField()
    ante_max = MoneyField()
    bonus_min = MoneyField()
    bonus_max = MoneyField()
    chip_unit = MoneyField()
    max_aggregate_payout = MoneyField(allow_null=True)
    rake_amount = MoneyField()
    dp_min_bank = MoneyField()

    class Meta:
        model = TableSettings
        fields = ["version", "created_at", *rules.SETTINGS]


class TableOut(serializers.ModelSerializer):
    class Meta:
        model = Table
        fields = ["id", "cardroom", "name", "seat_count", "banking", "created_at"]


class TableDetailOut(TableOut):
    settings = serializers.SerializerMethodField()
    session = serializers.SerializerMethodField()
    seatings = serializers.SerializerMethodField()

    class Meta(TableOut.Meta):
        fields = [*TableOut.Meta.fields, "settings", "session", "seatings"]

    @extend_schema(responses=SettingsOut)
    def get_settings(self, table: Table) -> dict:
        return SettingsOut(selectors.current_settings(table)).data

    def get_session(self, table: Table) -> dict | None:
        session = selectors.open_session(table)
        return SessionOut(session).data if session else None

    @extend_schema_field(SeatingOut(many=True, allow_null=True))
    def get_seatings(self, table: Table) -> list[Any] | None:
        """The players and their stacks, for those who see the table's stacks;
        null for anybody else."""
        viewer = self.context.get("viewer")
        if viewer is not None and not viewer.sees_stacks(table.pk):
            return None
        return list(SeatingOut(selectors.seated(table), many=True).data)


class TableIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    name = serializers.CharField(max_length=100)
    banking = serializers.ChoiceField(choices=BANKING_CHOICES)
    seat_count = AsciiIntegerField(default=7)
    settings = BoundedDictField(required=False, default=dict, max_length=SETTINGS_KEYS)


class TableFilter(django_filters.FilterSet):
    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = Table
        fields = ["cardroom", "banking"]


class TableList(generics.ListAPIView, ServiceView):
    queryset = Table.objects.order_by("cardroom_id", "name")
    serializer_class = TableOut
    filterset_class = TableFilter
    write_roles = SUPERVISOR
    input_serializer = TableIn

    @extend_schema(request=TableIn, responses={201: TableDetailOut})
    @idempotent
    def post(self, request: Request) -> Response:
        table = table_create(**self.parse(request), by=actor(request))
        return Response(TableDetailOut(table).data, status=201)


class TableDetail(generics.RetrieveAPIView):
    queryset = Table.objects.all()
    serializer_class = TableDetailOut

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "viewer": selectors.viewer(self.request.user)}


class TableSettingsList(generics.ListAPIView):
    serializer_class = SettingsOut

    def get_queryset(self) -> QuerySet[TableSettings]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return TableSettings.objects.none()
        return TableSettings.objects.filter(table_id=self.kwargs["pk"]).order_by("-version")
