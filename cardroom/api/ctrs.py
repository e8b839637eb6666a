"""REST API for currency transaction reports: the list (one gaming day's, or those due or
overdue), and compliance's filing of a version once its gaming day is over (``patrons.ctrs``).
The CTR file as CSV is ``cardroom.api.patrons.CashCsv``."""

from __future__ import annotations

from datetime import date

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR
from patrons import cash, ctrs, selectors
from patrons.models import Cardroom, CurrencyTransactionReport

COMPLIANCE = (COMPLIANCE_AUDITOR,)


def query_day(request: Request, name: str, default: date | None = None) -> date | None:
    """A date in the query (``?day=``), or ``default``; refused naming it otherwise."""
    text = request.query_params.get(name)
    if not text:
        return default
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field=name) from None


class CtrOut(serializers.ModelSerializer):
    """A CTR version: due 15 days after its gaming day (``overdue`` once past it and not
    filed); an amendment ``amends`` the version filed and says what ``changes``."""

    cash_in = MoneyField()
    cash_out = MoneyField()
    player_name = serializers.CharField(source="player.name")
    filed_by_name = PersonNameField(source="filed_by", allow_null=True)
    overdue = serializers.SerializerMethodField()

    class Meta:
        model = CurrencyTransactionReport
        fields = [
            "id",
            "player",
            "player_name",
            "gaming_day",
            "version",
            "amends",
            "changes",
            "due_on",
            "overdue",
            "cash_in",
            "cash_out",
            "status",
            "filing_reference",
            "filed_by",
            "filed_by_name",
            "filed_at",
            "created_at",
        ]

    def get_overdue(self, report: CurrencyTransactionReport) -> bool:
        return ctrs.overdue(report)


class FileIn(StrictSerializer):
    reference = serializers.CharField(max_length=60)


@extend_schema(
    parameters=[
        OpenApiParameter("day", OpenApiTypes.DATE, description="one gaming day's CTRs"),
        OpenApiParameter(
            "due", str, enum=list(ctrs.DUE_LISTS), description="still to file: due or overdue"
        ),
    ]
)
class CtrList(generics.ListAPIView):
    """A cardroom's CTR versions (``?day=`` one gaming day's); ``?due=due`` those still to
    file and not yet past due, ``?due=overdue`` those past due and not filed."""

    serializer_class = CtrOut
    read_roles = COMPLIANCE

    def get_queryset(self) -> QuerySet[CurrencyTransactionReport]:
        if getattr(self, "swagger_fake_view", False):
            return CurrencyTransactionReport.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        due = self.request.query_params.get("due")
        if due is not None:
            rows = ctrs.ctrs_due(cardroom, due)
            day = query_day(self.request, "day")
            return rows.filter(gaming_day=day) if day else rows
        return selectors.ctrs(cardroom.pk, query_day(self.request, "day"))


class CtrFile(ServiceView):
    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = FileIn

    @extend_schema(request=FileIn, responses=CtrOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        report = get_object_or_404(CurrencyTransactionReport, pk=pk)
        report = cash.ctr_file(report=report, **self.parse(request), by=actor(request))
        return Response(CtrOut(report).data)
