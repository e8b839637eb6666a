"""R17: changes to a table's settings (a two-person change), with the figures they make."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    BoundedDictField,
    PersonNameField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.paytables import ChangeFiguresOut
from cardroom.api.signing import ChangeDecisionIn, signature_input
from cardroom.api.tables.common import SETTINGS_KEYS, SUPERVISOR
from tables import figures, selectors
from tables.models import (
    Table,
)
from tables.services.setting_changes import (
    setting_change_approve,
    setting_change_propose,
    setting_change_reject,
    setting_change_withdraw,
)
from tables.staff_models import SettingChange, TwoPersonChange


class SettingChangeOut(serializers.Serializer):
    """A change to a table's settings: a kind of two-person change, read as the table's."""

    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    proposed_by = serializers.IntegerField(source="proposed_by_id")
    proposed_by_name = PersonNameField(source="proposed_by")
    proposed_at = serializers.DateTimeField()
    reason = serializers.CharField()
    new_values = serializers.JSONField()
    old_values = serializers.JSONField()
    status = serializers.ChoiceField(choices=TwoPersonChange.Status.choices)
    decided_by = serializers.IntegerField(source="decided_by_id", allow_null=True)
    decided_by_name = PersonNameField(source="decided_by", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    self_approved = serializers.BooleanField()
    version = serializers.IntegerField(allow_null=True)
    figures = serializers.SerializerMethodField()

    @extend_schema_field(ChangeFiguresOut)
    def get_figures(self, change: SettingChange) -> dict[str, Any]:
        """R17: what the settings it makes pay, next to those it replaces (game-math.md)."""
        current = None
        if change.status == TwoPersonChange.Status.PENDING:
            # One read of the settings in force per table, whatever the number of changes.
            cache = self.context.setdefault("current_settings", {})
            if change.table_id not in cache:
                cache[change.table_id] = selectors.current_settings(change.table)  # type: ignore[arg-type]
            current = cache[change.table_id]
        both = figures.setting_change_figures(change, current)
        return {name: figures.figures_json(value) for name, value in both.items()}


class SettingChangeIn(StrictSerializer):
    values = BoundedDictField(max_length=SETTINGS_KEYS)
    reason = serializers.CharField(max_length=2000)


class SettingChangeList(generics.ListAPIView, ServiceView):
    serializer_class = SettingChangeOut
    write_roles = SUPERVISOR
    input_serializer = SettingChangeIn

    def get_queryset(self) -> QuerySet[SettingChange]:
        if getattr(self, "swagger_fake_view", False):
            return SettingChange.objects.none()
        return selectors.setting_change_history(get_object_or_404(Table, pk=self.kwargs["pk"]))

    @extend_schema(request=SettingChangeIn, responses={201: SettingChangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        change = setting_change_propose(
            table=get_object_or_404(Table, pk=pk), **data, by=actor(request)
        )
        return Response(SettingChangeOut(change).data, status=201)


class SettingChangeDecision(ServiceView):
    """approve / reject / withdraw, by the URL's ``decision``."""

    write_roles = SUPERVISOR
    input_serializer = ChangeDecisionIn
    decision = ""

    @extend_schema(request=ChangeDecisionIn, responses=SettingChangeOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        change = get_object_or_404(SettingChange, pk=pk)
        data = self.parse(request)
        reason = data["reason"]
        if self.decision == "approve":
            setting_change_approve(
                change=change,
                signature=signature_input(request, data.get("signature")),
                by=actor(request),
            )
        elif self.decision == "reject":
            setting_change_reject(change=change, by=actor(request), reason=reason)
        else:
            setting_change_withdraw(change=change, by=actor(request))
        change = SettingChange.objects.select_related("decision__decided_by").get(pk=pk)
        return Response(SettingChangeOut(change).data)
