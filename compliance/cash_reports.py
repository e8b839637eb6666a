"""Cash reporting for compliance: the multiple transaction log and the currency transaction
reports as CSV, for a range of gaming days. The CTR file carries whole ID numbers (the form
needs them), so making it is an audited look at them, naming every player in it."""

from __future__ import annotations

import io
import json
from datetime import date

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.csv_cells import csv_writer
from core.errors import DomainError
from core.money import money_text
from core.people import person_name
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR
from patrons import selectors
from patrons.ctr_person import PERSON_PARTS, masked_tin
from patrons.masking import masked_id
from patrons.models import Cardroom, CashTransaction, CurrencyTransactionReport, PlayerIdentity

MTL_COLUMNS = [
    "transaction",
    "gaming_day",
    "time",
    "player",
    "player_id",
    "direction",
    "kind",  # its 31 CFR 1021.311 type
    "amount",
    "day_total",
    "place",
    "table",
    "id_on_file",
    "recorded_by",  # the person by name; their username beside it
    "recorded_by_username",
]
PERSON_COLUMNS = list(PERSON_PARTS)
CTR_COLUMNS = [
    "ctr",
    "gaming_day",
    "status",
    "filing_reference",
    "cardroom",
    "last_name_or_name",
    "date_of_birth",
    "id_type",
    "id_number",
    "id_issuer",
    "id_expires",
    "cash_in",
    "cash_out",
    "transactions",
    "created_at",
    "filed_by",
    "filed_by_username",
    "filed_at",
    # a CTR's life: its version, what it amends and changes, when it is due
    "version",
    "amends",
    "changes",
    "due_on",
    # the person (as filed, for a version filed): the TIN masked, as everywhere
    *PERSON_COLUMNS,
]


def _table_name(row: CashTransaction) -> str:
    at = getattr(row, "at_table", None)  # none: at the cage
    return at.table.name if at is not None else ""


def _days(start: date, end: date) -> None:
    if end < start:
        raise DomainError("The last day is on or after the first.", field="end")


def mtl_csv(*, cardroom: Cardroom, start: date, end: date, by: User) -> str:
    """The MTL of gaming days ``start`` to ``end`` (inclusive); ID numbers are not in it."""
    require_role(by, COMPLIANCE_AUDITOR, action="export the multiple transaction log")
    _days(start, end)
    rows = (
        selectors.multiple_transaction_log(cardroom.pk)
        .filter(gaming_day__gte=start, gaming_day__lte=end)
        .select_related("player__identity", "at_table__table")
    )
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(MTL_COLUMNS)
    for row in rows:
        identity = getattr(row.player, "identity", None)
        writer.writerow(
            [
                row.pk,
                row.gaming_day,
                row.created_at.isoformat(),
                row.player.name,
                row.player_id,
                row.direction,
                row.kind,
                money_text(row.amount),
                money_text(row.day_total),
                row.place,
                _table_name(row),
                masked_id(identity.id_number) if identity else "",
                person_name(row.recorded_by),
                row.recorded_by.get_username(),
            ]
        )
    return out.getvalue()


def _person_cells(report: CurrencyTransactionReport, identity: PlayerIdentity | None) -> list[str]:
    """The person's cells: as filed for a version filed, from the identity on file otherwise;
    the TIN masked (its whole number is shown only by compliance's audited "show")."""
    if report.filed_as:
        person = json.loads(str(report.filed_as)).get("person", {})
    elif identity is not None:
        person = {name: getattr(identity, name) or "" for name in PERSON_COLUMNS}
    else:
        person = {}
    cells = {name: str(person.get(name, "")) for name in PERSON_COLUMNS}
    cells["tin"] = masked_tin(cells["tin"])
    return [cells[name] for name in PERSON_COLUMNS]


@transaction.atomic
def ctr_csv(*, cardroom: Cardroom, start: date, end: date, by: User) -> str:
    """The CTRs of gaming days ``start`` to ``end``, with the identity on file, whole (the
    federal form's fields the cardroom holds; the address is taken when filing). Audited as
    a look at those players' ID numbers."""
    require_role(by, COMPLIANCE_AUDITOR, action="export currency transaction reports")
    _days(start, end)
    reports = list(
        selectors.ctrs(cardroom.pk)
        .filter(gaming_day__gte=start, gaming_day__lte=end)
        .prefetch_related("transactions")
        .order_by("gaming_day", "player_id", "version")
    )
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(CTR_COLUMNS)
    for report in reports:
        identity = getattr(report.player, "identity", None)
        writer.writerow(
            [
                report.pk,
                report.gaming_day,
                report.status,
                report.filing_reference,
                cardroom.name,
                report.player.name,
                identity.date_of_birth if identity else "",
                identity.id_type if identity else "",
                identity.id_number if identity else "",
                identity.id_issuer if identity else "",
                identity.id_expires if identity else "",
                money_text(report.cash_in),
                money_text(report.cash_out),
                " ".join(str(tx.pk) for tx in report.transactions.all()),
                report.created_at.isoformat(),
                person_name(report.filed_by),
                report.filed_by.get_username() if report.filed_by else "",
                report.filed_at.isoformat() if report.filed_at else "",
                report.version,
                report.amends_id or "",
                report.changes,
                report.due_on,
                *_person_cells(report, identity),
            ]
        )
    audit_record(
        actor=by,
        action=AuditAction.PLAYER_IDENTITY_REVEALED,
        target=cardroom,
        payload={
            "export": "ctr_csv",
            "start": start,
            "end": end,
            "players": sorted({report.player_id for report in reports}),
        },
    )
    return out.getvalue()
