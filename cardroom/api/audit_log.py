"""REST API for the audit log: its events, verifications of the chain, the books and the state,
and checkpoints."""

from __future__ import annotations

from typing import Any

import django_filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from audit.actions import SAR_PREFIX
from audit.models import AuditEvent, Checkpoint
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import PersonNameField
from cardroom.api.filters import IdFilter, UtcDateTimeFilter
from cardroom.api.idempotency import idempotent
from compliance import services
from compliance.models import VerificationRun
from core.inputs import AsciiDigitsForm
from core.roles import AUDITORS, COMPLIANCE_AUDITOR, role_of
from tables import selectors as table_selectors
from tables.audit_chains import audit_events_in_scope
from wagers import selectors as wagers_selectors


class EventOut(serializers.ModelSerializer):
    """``actor_name`` is the username the chain recorded; ``actor_full_name`` the person's
    name, as people read it."""

    actor_full_name = PersonNameField(source="actor", allow_null=True)

    class Meta:
        model = AuditEvent
        fields = [
            "seq",
            "occurred_at",
            "actor",
            "actor_name",
            "actor_full_name",
            "action",
            "object_type",
            "object_id",
            "payload",
            "prev_hash",
            "hash",
        ]


class EventFilter(django_filters.FilterSet):
    actor = IdFilter(field_name="actor_id")
    action = django_filters.CharFilter(lookup_expr="startswith")
    occurred_after = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="gte")
    occurred_before = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="lt")

    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = AuditEvent
        fields = ["actor", "action", "object_type", "occurred_after", "occurred_before"]


class EventList(generics.ListAPIView):
    """The audit log, newest first, by actor, action (prefix), object type and period. The
    cards of a hand still in play are hidden from compliance until it settles; suspicious
    activity cases' events (``sar.*``) from everyone but compliance."""

    serializer_class = EventOut
    filterset_class = EventFilter
    read_roles = AUDITORS

    def get_queryset(self) -> Any:
        events = audit_events_in_scope(AuditEvent.objects.select_related("actor").order_by("-seq"))
        if role_of(self.request.user) != COMPLIANCE_AUDITOR:
            events = events.exclude(action__startswith=SAR_PREFIX)
        return events

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        viewer = table_selectors.viewer(self.request.user)
        return None if page is None else wagers_selectors.hide_live_cards(page, viewer)


class VerificationOut(serializers.ModelSerializer):
    """A verification run: poll it until ``status`` is done (or failed), then
    ``ok`` says whether it holds and ``result`` is the report. An audit chain run's report
    has the fields verification answered before: ok, events, head_seq, head_hash, broken_seq
    and problem; a books run's: ok, row (the first offending row), problem and the counts."""

    requested_by_name = PersonNameField(source="requested_by", allow_null=True)

    class Meta:
        model = VerificationRun
        fields = [
            "id",
            "kind",
            "requested_by",
            "requested_by_name",
            "requested_at",
            "status",
            "progress",
            "progress_at",
            "finished_at",
            "ok",
            "result",
            "error",
        ]


class _VerificationRequest(ServiceView):
    kind: str = ""
    write_roles = AUDITORS

    @extend_schema(request=None, responses={202: VerificationOut})
    @idempotent
    def post(self, request: Request) -> Response:
        run = services.verification_request(kind=self.kind, by=actor(request))
        run.refresh_from_db()  # run inline on the embedded default: done already
        return Response(VerificationOut(run).data, status=202)


class Verify(_VerificationRequest):
    """Recompute the whole chain, against the recorded checkpoints too, in a Celery task:
    answers 202 with the run; GET ``audit/verify/{id}/`` for its progress and report."""

    kind = VerificationRun.Kind.AUDIT_CHAIN


class BooksVerify(_VerificationRequest):
    """Verify the books in a Celery task: every stack against its entries, every
    settlement against the engine, the fee ledger, R15 per hand and per day. 202 with the
    run; GET ``books/verify/{id}/`` for its progress and the first offending row."""

    kind = VerificationRun.Kind.BOOKS


class StateVerify(_VerificationRequest):
    """Verify the compliance state against the audit log in a Celery task: self-approval,
    role groups, exclusions, CTRs and settled hands' cards. 202 with the run; GET
    ``state/verify/{id}/`` for its progress and the first offending row."""

    kind = VerificationRun.Kind.STATE


class VerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.AUDIT_CHAIN).select_related(
        "requested_by"
    )
    serializer_class = VerificationOut
    read_roles = AUDITORS


class BooksVerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.BOOKS).select_related(
        "requested_by"
    )
    serializer_class = VerificationOut
    read_roles = AUDITORS


class StateVerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.STATE)
    serializer_class = VerificationOut
    read_roles = AUDITORS


class CheckpointOut(serializers.ModelSerializer):
    class Meta:
        model = Checkpoint
        fields = ["seq", "hash", "verified_at", "events"]


class CheckpointList(generics.ListAPIView):
    """Verified chain heads; keep a copy outside the system to detect a cut-off tail."""

    queryset = Checkpoint.objects.order_by("-seq", "-id")
    serializer_class = CheckpointOut
    read_roles = AUDITORS
