"""Who works in which cardroom: a staff member's cardrooms (read by those who manage staff),
granted and withdrawn by an administrator (``tables.services.memberships``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables import staff_selectors
from tables.services import memberships

from .base import ServiceView, actor
from .fields import RowField
from .idempotency import idempotent
from .inputs import StrictSerializer


class MembershipIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    #: True: the person works there from now on; false: no longer.
    works = serializers.BooleanField()


class CardroomNameOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class MembershipsOut(serializers.Serializer):
    user = serializers.IntegerField()
    cardrooms = CardroomNameOut(many=True)


def _answer(user: User) -> dict[str, Any]:
    # The cardrooms the asker reaches: another room's name is not theirs to read.
    rooms = Cardroom.objects.filter(memberships__user=user).order_by("name")
    return {"user": user.pk, "cardrooms": [{"id": r.pk, "name": r.name} for r in rooms]}


class StaffCardrooms(ServiceView):
    read_roles = (FLOOR_SUPERVISOR, ADMINISTRATOR)
    write_roles = (ADMINISTRATOR,)
    input_serializer = MembershipIn

    def _member(self, pk: int) -> User:
        people = staff_selectors.in_the_requests_cardrooms(User.objects.all())
        return get_object_or_404(people, pk=pk, is_superuser=False)

    @extend_schema(responses=MembershipsOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(MembershipsOut(_answer(self._member(pk))).data)

    @extend_schema(request=MembershipIn, responses=MembershipsOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        member, data, by = self._member(pk), self.parse(request), actor(request)
        if data["works"]:
            memberships.membership_grant(user=member, cardroom=data["cardroom"], by=by)
        else:
            memberships.membership_withdraw(user=member, cardroom=data["cardroom"], by=by)
        return Response(MembershipsOut(_answer(member)).data)
