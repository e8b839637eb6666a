"""Asking for a state list's import: the quick checks answered at once (a 4xx naming what is
wrong), then the import queued as a Celery task (``state_list_runs``) once the request
commits; its progress and outcome on an ``ExclusionListImport`` row."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from .models import ExclusionListImport
from .state_lists import state_list_check
from .tasks import state_list_import_enqueue


@transaction.atomic
def state_list_import_request(*, text: str, source_name: str, by: User) -> ExclusionListImport:
    """Queue ``text`` (a state list as CSV) for import; refused at once if it is too large,
    holds a NUL, names unknown columns or is not readable CSV (a cell too long): field
    ``file``, the line named. Its rows are checked by the import itself."""
    require_role(by, COMPLIANCE_AUDITOR, action="import a state exclusion list")
    if len(text) > settings.EXCLUSION_LIST_MAX_BYTES:
        limit = settings.EXCLUSION_LIST_MAX_BYTES // (1024 * 1024)
        raise DomainError(f"A state list is at most {limit} MB.", field="file")
    rows = state_list_check(text)
    now = timezone.now()
    job = ExclusionListImport.objects.create(
        source_name=(source_name or "state list")[:100],
        content=text,
        requested_by=by,
        requested_at=now,
        progress_at=now,
        rows=rows,
    )
    transaction.on_commit(lambda: state_list_import_enqueue(job.pk))
    return job
