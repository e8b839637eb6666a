"""REST API for the exclusion lists: the cardroom's own (a floor supervisor bars a player;
compliance too) and the state lists compliance imports, each import a Celery task with its
progress. ID numbers are masked in every answer (``patrons.masking.masked_id``)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import RowField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons import exclusion_ends, exclusions
from patrons.masking import masked_id
from patrons.models import Cardroom, Exclusion, ExclusionListImport, Player
from patrons.state_list_imports import state_list_import_request

COMPLIANCE = (COMPLIANCE_AUDITOR,)
FLOOR_AND_COMPLIANCE = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


# --- serializers -----------------------------------------------------------------------------


class ExclusionIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    player = RowField(Player.objects.all(), required=False, allow_null=True, default=None)
    kind = serializers.ChoiceField(choices=Exclusion.Kind.choices)
    name = serializers.CharField(max_length=100, required=False, default="")
    date_of_birth = serializers.DateField(required=False, allow_null=True, default=None)
    id_type = serializers.CharField(max_length=20, required=False, default="")
    id_number = serializers.CharField(max_length=60, required=False, default="")
    id_issuer = serializers.CharField(max_length=60, required=False, default="")
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    reason = serializers.CharField(max_length=2000)
    term = serializers.ChoiceField(choices=Exclusion.Term.choices, required=False, default="")


class ExclusionOut(serializers.ModelSerializer):
    id_number = serializers.SerializerMethodField()

    class Meta:
        model = Exclusion
        fields = [
            "id",
            "cardroom",
            "kind",
            "source",
            "reference",
            "name",
            "date_of_birth",
            "id_type",
            "id_number",
            "id_issuer",
            "starts_on",
            "ends_on",
            "term",
            "reason",
            "player",
            "created_at",
            "ended_at",
            "end_reason",
            "end_reference",
        ]

    def get_id_number(self, row: Exclusion) -> str:
        return masked_id(row.id_number)


class ExclusionEndIn(StrictSerializer):
    ends_on = serializers.DateField()
    reason = serializers.CharField(max_length=2000)


class ImportIn(StrictSerializer):
    """A state list: a ``file`` upload (multipart; up to EXCLUSION_LIST_MAX_BYTES), or its
    text as ``csv`` in a JSON body (within the body's limit: a short list)."""

    file = serializers.FileField(required=False)
    csv = serializers.CharField(required=False, trim_whitespace=False)
    source_name = serializers.CharField(max_length=100, required=False, default="state list")


class ImportOut(serializers.ModelSerializer):
    """A state list's import (a Celery task): poll it until ``status`` is done (``added``
    new entries, ``on_file`` skipped as already on file, of ``rows``) or failed (``error``
    says why, naming the line and column; ``error_field`` the field: nothing was
    imported)."""

    class Meta:
        model = ExclusionListImport
        fields = [
            "id",
            "source_name",
            "requested_by",
            "requested_at",
            "status",
            "progress",
            "progress_at",
            "finished_at",
            "rows",
            "added",
            "on_file",
            "error",
            "error_field",
        ]


# --- views ---------------------------------------------------------------------------------------


class ExclusionList(generics.ListAPIView, ServiceView):
    """The exclusion lists (ID numbers masked); POST adds to the cardroom's own list."""

    serializer_class = ExclusionOut
    read_roles = FLOOR_AND_COMPLIANCE
    write_roles = exclusions.KEEPERS
    input_serializer = ExclusionIn
    queryset = Exclusion.objects.order_by("name_key", "id")

    @extend_schema(request=ExclusionIn, responses={201: ExclusionOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        cardroom, player = data.pop("cardroom"), data.pop("player")
        row = exclusions.exclusion_add(
            cardroom=cardroom,
            entry=exclusions.ExclusionInput(**data),
            player=player,
            by=actor(request),
        )
        return Response(ExclusionOut(row).data, status=201)


class ExclusionEnd(ServiceView):
    """The cardroom's own self-exclusion or self-restriction ended early; a state list's entry
    and a house bar are refused (field ``exclusion``: a house bar ends by a two-person change,
    ``exclusions/{id}/end-changes/``)."""

    read_roles = ()
    write_roles = exclusions.KEEPERS
    input_serializer = ExclusionEndIn

    @extend_schema(request=ExclusionEndIn, responses=ExclusionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        row = exclusion_ends.exclusion_end(
            exclusion=get_object_or_404(Exclusion, pk=pk),
            **self.parse(request),
            by=actor(request),
        )
        return Response(ExclusionOut(row).data)


class ExclusionImport(ServiceView):
    """A state list as CSV (a ``file`` upload, or its text as ``csv``), imported by a Celery
    task: 202 with the import, every row or none; GET ``exclusions/import/{id}/`` for its
    progress and outcome. A file that cannot be read as a state list (too large, a NUL, an
    unknown column, a cell too long for CSV) is refused at once, naming the line."""

    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = ImportIn

    @extend_schema(request=ImportIn, responses={202: ImportOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        upload = data.get("file")
        if upload is not None:
            if upload.size > settings.EXCLUSION_LIST_MAX_BYTES:
                limit = settings.EXCLUSION_LIST_MAX_BYTES // (1024 * 1024)
                raise DomainError(f"A state list is at most {limit} MB.", field="file")
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise DomainError("The file is not UTF-8 text.", field="file") from None
            name = upload.name
        elif "csv" in data:
            text, name = data["csv"], data["source_name"]
        else:
            raise DomainError("Send the list as a file or as csv text.", field="file")
        job = state_list_import_request(text=text, source_name=name, by=actor(request))
        job.refresh_from_db()  # run inline on the embedded default: done already
        return Response(ImportOut(job).data, status=202)


class ExclusionImportDetail(generics.RetrieveAPIView):
    queryset = ExclusionListImport.objects.all()
    serializer_class = ImportOut
    read_roles = COMPLIANCE
