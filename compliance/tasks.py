"""Celery adapters for the compliance layer: ids in, a call, idempotent."""

from celery import shared_task

from .exports import export_build


@shared_task(name="compliance.build_export")
def build_export_task(export_id: int) -> dict:
    """Build one export file (enqueued on commit by ``export_request``)."""
    export = export_build(export_id)
    return {"export": export.pk, "status": export.status, "rows": export.rows}
