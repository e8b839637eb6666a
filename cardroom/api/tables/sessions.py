"""Table sessions: opening, the dealer on duty, closing."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    IdField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import SUPERVISOR
from core.errors import DomainError
from tables.models import (
    Table,
    TableSession,
)
from tables.services.sessions import table_close, table_dealer_change, table_open


class SessionOut(serializers.ModelSerializer):
    class Meta:
        model = TableSession
        fields = ["id", "dealer", "opened_by", "opened_at", "closed_by", "closed_at"]


class DealerIn(StrictSerializer):
    dealer = IdField()


class TableOpen(ServiceView):
    write_roles = SUPERVISOR
    input_serializer = DealerIn

    @extend_schema(request=DealerIn, responses={201: SessionOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        dealer = _user(self.parse(request)["dealer"])
        session = table_open(table=table, dealer=dealer, by=actor(request))
        return Response(SessionOut(session).data, status=201)


class TableClose(ServiceView):
    write_roles = SUPERVISOR

    @extend_schema(request=None, responses=SessionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        session = table_close(table=get_object_or_404(Table, pk=pk), by=actor(request))
        return Response(SessionOut(session).data)


class TableDealer(ServiceView):
    write_roles = SUPERVISOR
    input_serializer = DealerIn

    @extend_schema(request=DealerIn, responses=SessionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        dealer = _user(self.parse(request)["dealer"])
        session = table_dealer_change(table=table, dealer=dealer, by=actor(request))
        return Response(SessionOut(session).data)


def _user(pk: int) -> User:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        raise DomainError(f"There is no user {pk}.", field="dealer")
    return user
