"""The admin's view of the audit log (R17): append-only and hash-chained, so read-only."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin

from .models import (
    AuditEvent,
    ChainHead,
    ChainSweep,
    Checkpoint,
    CheckpointProblem,
    CheckpointProblemAcknowledgement,
    RefusalTally,
    SinkWrite,
)


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = [
        "seq",
        "chain",
        "chain_seq",
        "occurred_at",
        "actor_name",
        "action",
        "object_type",
        "object_id",
    ]
    list_filter = ["action", "object_type"]
    search_fields = ["action", "actor_name", "object_type", "=object_id", "payload"]
    date_hierarchy = "occurred_at"
    ordering = ["-seq"]


@admin.register(ChainHead)
class ChainHeadAdmin(ReadOnlyAdmin):
    list_display = ["chain", "seq", "hash"]


@admin.register(ChainSweep)
class ChainSweepAdmin(ReadOnlyAdmin):
    """Where beat's rolling re-hash stands (``audit.sweep``): moved by beat alone."""

    list_display = ["chain", "place", "passed_at", "checked_at", "broken"]


@admin.register(Checkpoint)
class CheckpointAdmin(ReadOnlyAdmin):
    list_display = ["seq", "hash", "verified_at", "events", "key_id"]
    date_hierarchy = "verified_at"


@admin.register(SinkWrite)
class SinkWriteAdmin(ReadOnlyAdmin):
    list_display = ["checkpoint_id", "written", "at", "error"]
    list_filter = ["written"]
    date_hierarchy = "at"


@admin.register(CheckpointProblem)
class CheckpointProblemAdmin(ReadOnlyAdmin):
    list_display = ["id", "found_at", "text"]
    search_fields = ["text"]


@admin.register(CheckpointProblemAcknowledgement)
class CheckpointProblemAcknowledgementAdmin(ReadOnlyAdmin):
    list_display = ["problem", "by", "at", "note"]
    search_fields = ["note"]


@admin.register(RefusalTally)
class RefusalTallyAdmin(ReadOnlyAdmin):
    list_display = ["key", "recorded_at", "unrecorded", "last_attempted"]
    search_fields = ["key"]
