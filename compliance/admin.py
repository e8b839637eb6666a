"""The admin's view of exports: read-only, like every record."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin

from .models import Export, VerificationRun


@admin.register(Export)
class ExportAdmin(ReadOnlyAdmin):
    list_display = [
        "kind",
        "start",
        "end",
        "requested_by",
        "requested_at",
        "status",
        "progress",
        "rows",
        "finished_at",
    ]
    list_filter = ["kind", "status"]
    list_select_related = ["requested_by"]
    search_fields = ["requested_by__username"]
    date_hierarchy = "requested_at"


@admin.register(VerificationRun)
class VerificationRunAdmin(ReadOnlyAdmin):
    list_display = [
        "kind",
        "requested_by",
        "requested_at",
        "status",
        "progress",
        "ok",
        "finished_at",
    ]
    list_filter = ["kind", "status", "ok"]
    list_select_related = ["requested_by"]
    search_fields = ["requested_by__username"]
    date_hierarchy = "requested_at"
