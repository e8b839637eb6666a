"""A state exclusion list imported from CSV (``state_lists`` reads the file): every row or
none, a row already on file skipped; run as a Celery task by ``state_list_runs``."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from . import hooks, seals
from .exclusion_ends import state_removal_apply
from .exclusion_terms import entry_with_term
from .exclusions import ExclusionInput, check_entry, new_row
from .keys import normal_text
from .models import Exclusion
from .state_lists import (
    StateListRow,
    StateRemoval,
    one_import_at_a_time,
    state_list_rows,
    state_lists_on_file,
)


def exclusion_list_import(
    *,
    text: str,
    source_name: str,
    by: User,
    progress: Callable[[int], None] | None = None,
) -> list[Exclusion]:
    """A state list, as CSV (``state_lists.CSV_COLUMNS``): every row or none; a bad row is
    named by its line and column. A row already on file (same source reference, or same
    name, date of birth and start) is skipped, so importing a list again adds only what is
    new. The file is read whole first, outside the transaction (``progress(rows read)`` is
    told as it goes, and can be seen meanwhile); then the rows are added in one transaction,
    a few statements for the lot."""
    require_role(by, COMPLIANCE_AUDITOR, action="import a state exclusion list")
    return state_list_apply(text=text, source_name=source_name, by=by, progress=progress)[0]


def state_list_apply(
    *,
    text: str,
    source_name: str,
    by: User,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Exclusion], list[Exclusion]]:
    """``exclusion_list_import``, with the entries its removal rows ended (a removal row
    names the entry's reference and the state's removal reference; one ended already is
    skipped): what was added, and what was removed."""
    require_role(by, COMPLIANCE_AUDITOR, action="import a state exclusion list")
    read = list(state_list_rows(text, progress=progress))
    rows = [row for row in read if isinstance(row, StateListRow)]
    with transaction.atomic():
        made = _state_list_add(rows, source_name=source_name, by=by)
        hooks.exclusions_recorded(made, by=by)
        removed = [
            ended
            for row in read
            if isinstance(row, StateRemoval)
            and (
                ended := state_removal_apply(
                    reference=row.reference,
                    removal_reference=row.removal_reference,
                    removed_on=row.removed_on,
                    by=by,
                    line=row.line,
                )
            )
            is not None
        ]
        audit_record(
            actor=by,
            action=AuditAction.EXCLUSION_LIST_IMPORTED,
            target=None,
            payload={
                "file": source_name,
                "added": len(made),
                "removed": len(removed),
                **seals.import_seal(made),
            },
        )
    return made, removed


#: Rows added per INSERT.
BATCH = 2_000


def _state_list_add(rows: list[StateListRow], *, source_name: str, by: User) -> list[Exclusion]:
    """Each row checked as an entry, and added unless it is on file already (or earlier in
    the same file): one read of what is on file, then the new rows in batches."""
    one_import_at_a_time()
    references, people = state_lists_on_file()
    made: list[Exclusion] = []
    now = timezone.now()
    for row in rows:
        entry = _entry(row)
        person = (normal_text(entry.name), entry.date_of_birth, entry.starts_on)
        if (row.reference and row.reference in references) or (
            not row.reference and person in people
        ):
            continue
        reference = row.reference or source_name
        made.append(
            new_row(
                entry,
                cardroom=None,
                source=Exclusion.Source.STATE_LIST,
                reference=reference,
                player=None,
                by=by,
                at=now,
            )
        )
        references.add(reference)
        people.add(person)
    return Exclusion.objects.bulk_create(made, batch_size=BATCH)


def _entry(row: StateListRow) -> ExclusionInput:
    entry = ExclusionInput(
        term=row.term,
        kind=row.kind,
        name=row.name,
        date_of_birth=row.date_of_birth,
        id_type=row.id_type,
        id_number=row.id_number,
        id_issuer=row.id_issuer,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        reason=row.reason,
    )
    try:
        check_entry(entry)
        entry = entry_with_term(entry)
    except DomainError as error:
        message = f"Line {row.line}, {error.field}: {error.message}"
        raise DomainError(message, field="file") from None
    return entry
