"""REST API for the audit log's alarms (``audit.alarms``): the checkpoint sink not taking
checkpoints, and the checkpoint problems compliance acknowledges before a day closes."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from audit import alarms
from audit.models import CheckpointProblem
from cardroom.api.base import ServiceView, actor
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.roles import AUDITORS, COMPLIANCE_AUDITOR


class SinkAlarmOut(serializers.Serializer):
    error = serializers.CharField()
    since = serializers.DateTimeField()
    checkpoints = serializers.IntegerField(help_text="checkpoints only in the database")


class CheckpointProblemOut(serializers.ModelSerializer):
    class Meta:
        model = CheckpointProblem
        fields = ["id", "text", "found_at"]


class AlarmsOut(serializers.Serializer):
    sink = SinkAlarmOut(allow_null=True)
    checkpoint_problems = CheckpointProblemOut(many=True)


class Alarms(ServiceView):
    """The sink's alarm (null while it takes checkpoints) and the checkpoint problems not
    acknowledged yet."""

    read_roles = AUDITORS

    @extend_schema(responses=AlarmsOut)
    def get(self, request: Request) -> Response:
        found = {
            "sink": alarms.sink_alarm(),
            "checkpoint_problems": alarms.checkpoint_problems_outstanding(),
        }
        return Response(AlarmsOut(found).data)


class AcknowledgeIn(StrictSerializer):
    note = serializers.CharField(max_length=2000, help_text="what was found and done")


class AcknowledgementOut(serializers.Serializer):
    problem = serializers.IntegerField(source="problem_id")
    note = serializers.CharField()
    by = serializers.CharField(source="by.username")
    at = serializers.DateTimeField()


class CheckpointProblemAcknowledge(ServiceView):
    """Compliance acknowledges a checkpoint problem, saying what was done: recorded and
    audited; a gaming day closes once every problem is acknowledged."""

    input_serializer = AcknowledgeIn
    write_roles = (COMPLIANCE_AUDITOR,)

    @extend_schema(request=AcknowledgeIn, responses={201: AcknowledgementOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        problem = get_object_or_404(CheckpointProblem, pk=pk)
        done = alarms.checkpoint_problem_acknowledge(
            problem=problem, by=actor(request), **self.parse(request)
        )
        return Response(AcknowledgementOut(done).data, status=201)
