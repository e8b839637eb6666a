"""REST API for suspicious activity cases (31 CFR 1021.320): compliance's alone. Every other
role is answered 404 on every route here, whatever the method, so that no one else learns
that a case exists; every look by compliance (the list, a case) is an audit event."""

from __future__ import annotations

from typing import Any, ClassVar

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import IdField, MoneyField, PersonNameField, RowField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.permissions import RolePermission
from core.errors import DomainError
from core.people import person_name
from core.roles import COMPLIANCE_AUDITOR, role_of
from patrons import sar_cases, sar_selectors
from patrons.models import (
    Cardroom,
    Player,
    SarCase,
    SarDecision,
    StructuringFlag,
    SuspiciousActivityReview,
)

COMPLIANCE = (COMPLIANCE_AUDITOR,)


class ComplianceAlone(IsAuthenticated):
    """Signed in (else 401), and compliance: anyone else is told the route is not there."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not super().has_permission(request, view):
            return False
        if role_of(request.user) != COMPLIANCE_AUDITOR:
            raise exceptions.NotFound()
        return True


class _SarView(ServiceView):
    permission_classes = [ComplianceAlone, RolePermission]
    read_roles: ClassVar[tuple[str, ...]] = COMPLIANCE
    write_roles: ClassVar[tuple[str, ...]] = COMPLIANCE


class SarOpenIn(StrictSerializer):
    structuring_flag = RowField(
        StructuringFlag.objects.all(), required=False, allow_null=True, default=None
    )
    review = RowField(
        SuspiciousActivityReview.objects.all(), required=False, allow_null=True, default=None
    )
    player = RowField(Player.objects.all(), required=False, allow_null=True, default=None)
    transactions = serializers.ListField(
        child=IdField(), required=False, default=list, max_length=500
    )
    detected_on = serializers.DateField(required=False, allow_null=True, default=None)
    suspect_identified = serializers.BooleanField(required=False, default=True)
    summary = serializers.CharField(max_length=5000)


class SarNoteIn(StrictSerializer):
    note = serializers.CharField(max_length=5000)


class SarDecisionIn(StrictSerializer):
    outcome = serializers.ChoiceField(choices=SarDecision.Outcome.choices)
    reason = serializers.CharField(max_length=5000)
    filing_reference = serializers.CharField(
        max_length=60, required=False, allow_blank=True, default=""
    )


class SarCaseOut(serializers.ModelSerializer):
    """A case with what it says today: the cash involved against the $5,000 line, the
    deadline and the days left, its transactions, notes and decision."""

    player_name = serializers.CharField(source="player.name", read_only=True)
    opened_by_name = PersonNameField(source="opened_by")
    test = serializers.SerializerMethodField()
    deadline = serializers.SerializerMethodField()
    transactions = serializers.SerializerMethodField()
    notes = serializers.SerializerMethodField()
    decision = serializers.SerializerMethodField()

    class Meta:
        model = SarCase
        fields = [
            "id",
            "cardroom",
            "player",
            "player_name",
            "origin",
            "structuring_flag",
            "review",
            "summary",
            "detected_on",
            "suspect_identified",
            "due_on",
            "opened_by",
            "opened_by_name",
            "opened_at",
            "test",
            "deadline",
            "transactions",
            "notes",
            "decision",
        ]

    def _facts(self, case: SarCase) -> sar_selectors.SarFacts:
        return sar_selectors.facts(case, sar_cases.today_at(case.cardroom))

    def get_test(self, case: SarCase) -> dict[str, Any]:
        """The $5,000 test: the cash involved (in, out, in all) and whether it meets it."""
        facts = self._facts(case)
        money = MoneyField()
        return {
            "cash_in": money.to_representation(facts.cash_in),
            "cash_out": money.to_representation(facts.cash_out),
            "involved": money.to_representation(facts.involved),
            "meets_threshold": facts.meets_threshold,
            "words": facts.threshold_words,
        }

    def get_deadline(self, case: SarCase) -> dict[str, Any]:
        facts = self._facts(case)
        return {
            "due_on": case.due_on,
            "days_left": facts.days_left,
            "overdue": facts.overdue,
            "status": facts.status,
        }

    def get_transactions(self, case: SarCase) -> list[dict[str, Any]]:
        return [
            {
                "id": t.pk,
                "player": t.player_id,
                "direction": t.direction,
                "kind": t.kind,
                "amount": MoneyField().to_representation(t.amount),
                "gaming_day": t.gaming_day,
                "created_at": t.created_at,
            }
            for t in case.transactions.all()
        ]

    def get_notes(self, case: SarCase) -> list[dict[str, Any]]:
        return [
            {"note": n.note, "by": n.by.get_username(), "by_name": person_name(n.by), "at": n.at}
            for n in case.notes.all()
        ]

    def get_decision(self, case: SarCase) -> dict[str, Any] | None:
        decision = sar_selectors.decision_of(case)
        if decision is None:
            return None
        return {
            "outcome": decision.outcome,
            "reason": decision.reason,
            "filing_reference": decision.filing_reference,
            "by": decision.by.get_username(),
            "by_name": person_name(decision.by),
            "at": decision.at,
        }


def _case(pk: int) -> SarCase:
    rows = sar_selectors.with_details(SarCase.objects.select_related("cardroom"))
    return get_object_or_404(rows, pk=pk)


class SarCaseList(_SarView):
    """The cardroom's cases, soonest due first (``?due=overdue``: undecided and past their
    deadline; ``?due=open``: undecided); POST opens one from a structuring flag, a review
    or a player."""

    input_serializer = SarOpenIn

    @extend_schema(
        parameters=[OpenApiParameter("due", str, enum=list(sar_selectors.DUE_FILTERS))],
        responses=SarCaseOut(many=True),
    )
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        due = request.query_params.get("due") or None
        if due is not None and due not in sar_selectors.DUE_FILTERS:
            raise DomainError(
                f"due is one of: {', '.join(sar_selectors.DUE_FILTERS)}.", field="due"
            )
        today = sar_cases.today_at(cardroom)
        cases = list(sar_selectors.sar_cases(cardroom.pk, due=due, today=today)[:200])
        sar_cases.sar_cases_looked_at(cardroom=cardroom, cases=cases, due=due, by=actor(request))
        return Response(SarCaseOut(cases, many=True).data)

    @extend_schema(request=SarOpenIn, responses={201: SarCaseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        opening = sar_cases.SarOpening(**self.parse(request))
        case = sar_cases.sar_case_open(cardroom=cardroom, opening=opening, by=actor(request))
        return Response(SarCaseOut(_case(case.pk)).data, status=201)


class SarCaseDetail(_SarView):
    @extend_schema(responses=SarCaseOut)
    def get(self, request: Request, pk: int) -> Response:
        case = _case(pk)
        sar_cases.sar_case_looked_at(case=case, by=actor(request))
        return Response(SarCaseOut(case).data)


class SarNoteView(_SarView):
    read_roles = ()
    input_serializer = SarNoteIn

    @extend_schema(request=SarNoteIn, responses={201: SarCaseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        case = get_object_or_404(SarCase, pk=pk)
        sar_cases.sar_note_add(case=case, **self.parse(request), by=actor(request))
        return Response(SarCaseOut(_case(pk)).data, status=201)


class SarDecisionView(_SarView):
    read_roles = ()
    input_serializer = SarDecisionIn

    @extend_schema(request=SarDecisionIn, responses={201: SarCaseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        case = get_object_or_404(SarCase, pk=pk)
        sar_cases.sar_decide(case=case, **self.parse(request), by=actor(request))
        return Response(SarCaseOut(_case(pk)).data, status=201)
