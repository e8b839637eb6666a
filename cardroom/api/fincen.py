"""REST API for FinCEN's CTR batch: the cardroom's CTR filer (the filing institution, set by
compliance) and the batch XML of a gaming day's CTRs (compliance's alone; each download is an
audit event, for the whole TINs and ID numbers it carries)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.inputs import StrictSerializer
from compliance.fincen_batch import fincen_batch
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR
from patrons.ctr_filer import FilerInput, ctr_filer_set
from patrons.models import Cardroom, CtrFiler

from .ctrs import query_day

COMPLIANCE = (COMPLIANCE_AUDITOR,)
FILER_FIELDS = [field.name for field in fields(FilerInput)]


class FilerIn(StrictSerializer):
    legal_name = serializers.CharField(max_length=200)
    ein = serializers.CharField(max_length=20)
    street = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100)
    state = serializers.CharField(max_length=10)
    zip_code = serializers.CharField(max_length=20)
    country = serializers.CharField(max_length=10, required=False, default="US")
    contact_office = serializers.CharField(max_length=200)
    phone = serializers.CharField(max_length=30)
    phone_extension = serializers.CharField(
        max_length=10, required=False, default="", allow_blank=True
    )
    transmitter_contact = serializers.CharField(max_length=200)
    transmitter_tcc = serializers.CharField(max_length=20)


class FilerOut(serializers.Serializer):
    """The filer on file (``on_file`` false and every field empty: none set yet)."""

    cardroom = serializers.IntegerField()
    on_file = serializers.BooleanField()
    legal_name = serializers.CharField()
    ein = serializers.CharField()
    street = serializers.CharField()
    city = serializers.CharField()
    state = serializers.CharField()
    zip_code = serializers.CharField()
    country = serializers.CharField()
    contact_office = serializers.CharField()
    phone = serializers.CharField()
    phone_extension = serializers.CharField()
    transmitter_contact = serializers.CharField()
    transmitter_tcc = serializers.CharField()
    updated_at = serializers.DateTimeField(allow_null=True)


def filer_answer(cardroom: Cardroom, row: CtrFiler | None) -> dict[str, Any]:
    values = {name: getattr(row, name) if row else "" for name in FILER_FIELDS}
    return {
        "cardroom": cardroom.pk,
        "on_file": row is not None,
        **values,
        "updated_at": row.updated_at if row else None,
    }


class CtrFilerView(ServiceView):
    """GET: who files the cardroom's CTRs with FinCEN. PUT: compliance sets it (all fields)."""

    read_roles = COMPLIANCE
    write_roles = COMPLIANCE
    input_serializer = FilerIn

    @extend_schema(responses=FilerOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        row = CtrFiler.objects.filter(cardroom=cardroom).first()
        return Response(FilerOut(filer_answer(cardroom, row)).data)

    @extend_schema(request=FilerIn, responses=FilerOut)
    def put(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        row = ctr_filer_set(
            cardroom=cardroom, filer=FilerInput(**self.parse(request)), by=actor(request)
        )
        return Response(FilerOut(filer_answer(cardroom, row)).data)


def _ctr_ids(request: Request) -> list[int]:
    texts = request.query_params.getlist("ctr")
    if not all(text.isascii() and text.isdigit() and len(text) < 10 for text in texts):
        raise DomainError("Each ctr is a CTR's number.", field="ctr")
    return [int(text) for text in texts]


class FincenBatch(ServiceView):
    """``?day=YYYY-MM-DD`` (an ended gaming day) or ``?ctr=12&ctr=13``: the CTRs as one
    FinCEN BSA E-Filing batch XML file. Carries whole TINs and ID numbers: audited."""

    read_roles = COMPLIANCE

    @extend_schema(
        parameters=[
            OpenApiParameter("day", OpenApiTypes.DATE, description="an ended gaming day"),
            OpenApiParameter("ctr", OpenApiTypes.INT, many=True, description="CTR numbers"),
        ],
        responses={(200, "application/xml"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        day, ids = query_day(request, "day"), _ctr_ids(request)
        content = fincen_batch(cardroom=cardroom, day=day, ctr_ids=ids, by=actor(request))
        name = f"fincen-ctr-{day}.xml" if day else f"fincen-ctr-{ids[0]}.xml"
        response = HttpResponse(content, content_type="application/xml")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
