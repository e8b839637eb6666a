"""Building the CSV exports of settlements, of the audit log and of hold against theoretical
for a period.

``export_build`` writes the file, reporting progress as it goes; it runs in a Celery task
(``compliance.tasks``) enqueued by ``compliance.services.export_request`` (or
``export_retry``, or the sweep of stalled exports, ``export_requeue_stalled``). Each export names
the audit chain head it was made from, so that it can be tied to a verified chain. The rows, and
that head, are read from the replica when one is configured (``core.replica``).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from audit.actions import SAR_PREFIX
from audit.models import AuditEvent
from core.csv_cells import csv_writer
from core.people import person_name
from core.replica import reporting
from core.roles import COMPLIANCE_AUDITOR, role_of
from tables.audit_chains import audit_events_in_scope
from tables.selectors import gaming_day
from wagers.models import Settlement

from . import hold, hold_lines
from .models import Export

logger = logging.getLogger(__name__)

SETTLEMENT_COLUMNS = [
    "settlement",
    "hand",
    "table",
    "hand_number",
    "entry",
    "kind",
    "created_at",
    "gaming_day",
    "dealer_seat",
    "dealer_net",
    "house_rake",
    "spots",
    "spots_net",
    "misdeal",
    "reason",
]
AUDIT_COLUMNS = [
    "seq",
    "chain",  # each chain's rows follow one another
    "chain_seq",
    "occurred_at",
    "actor",  # the person by name (as now); the username the chain recorded beside it
    "actor_username",
    "action",
    "object_type",
    "object_id",
    "payload",
    "prev_hash",
    "hash",
]
HOLD_COLUMNS = [
    "cardroom",
    "table",
    "banking",
    "period_start",
    "period_end",
    "bank",
    "player",
    "proposition_player",
    "hands",
    "wager",
    "wagers",
    "handle",
    "handle_ante",
    "handle_raise",
    "win",
    "hold",
    "theoretical_win",
    "theoretical_hold",
    "band_low",
    "band_high",
    "z",
    "flagged",
    "flag",
]
PROGRESS_STEPS = 20  # the progress bar moves in 5% steps
EXPORTS = "exports"  # the folder of MEDIA_ROOT the files are kept in
#: A running build that reported no progress for this long has lost its worker.
STALLED_AFTER = timedelta(minutes=5)
#: Builds started for one export before it is marked failed for the user to retry.
MAX_ATTEMPTS = 3
HEARTBEAT = 10  # seconds: a build shows it is alive at least this often


def export_build(export_id: int, *, task_id: str | None = None) -> Export:
    """Build the file; idempotent (a finished export is left as it is, an unfinished one is
    built again from the start). Rows stream to a temporary file beside the final one, which
    is moved into place when complete: memory stays constant whatever the period's size, and
    a worker killed half-way leaves no half file behind as the export's.

    A task (``task_id``) builds only an export nobody is building: pending, or running under
    the same task id (its message delivered again after its worker died), or running with no
    progress for STALLED_AFTER. A duplicate message while another worker builds does nothing."""
    export = Export.objects.get(pk=export_id)
    if export.status == Export.Status.DONE:
        return export
    try:
        with reporting():  # the rows, and the head they go up to, from the replica if any
            built = _build(export, task_id)
        if built is None:  # another build has it
            export.refresh_from_db()
            return export
        export.refresh_from_db()
        export.file.name, export.rows = built
        export.status, export.progress = Export.Status.DONE, 100
        export.finished_at = timezone.now()
        export.save(update_fields=["file", "status", "progress", "rows", "finished_at"])
    except Exception as error:
        Export.objects.filter(pk=export.pk).update(status=Export.Status.FAILED, error=str(error))
        raise
    return export


def _build(export: Export, task_id: str | None) -> tuple[str, int] | None:
    """Claim the export and write its file: the stored name and the rows, or None when another
    build holds it. Reads only what it exports (the progress it writes goes to the primary)."""
    # The newest event across the audit chains: the export covers events up to it.
    head = AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first()
    chain_seq, chain_hash = head if head else (0, "")
    if not _claim(export, task_id, chain_seq, chain_hash):
        return None
    if export.kind == Export.Kind.SETTLEMENTS:
        columns, rows, total = SETTLEMENT_COLUMNS, *_settlement_rows(export)
    elif export.kind == Export.Kind.HOLD:
        columns, rows, total = HOLD_COLUMNS, *_hold_rows(export)
    else:
        columns, rows, total = AUDIT_COLUMNS, *_audit_rows(export, chain_seq)
    name = (
        f"{export.kind}_{export.start:%Y%m%d%H%M}_{export.end:%Y%m%d%H%M}"
        f"_head{chain_seq}-{chain_hash[:12]}.csv"
    )
    return _write(export, name, columns, rows, total)


def _claim(export: Export, task_id: str | None, chain_seq: int, chain_hash: str) -> bool:
    claim = Export.objects.filter(pk=export.pk).exclude(status=Export.Status.DONE)
    if task_id is not None:
        stale = timezone.now() - STALLED_AFTER
        claim = claim.filter(
            Q(status=Export.Status.PENDING)
            | Q(status=Export.Status.RUNNING)
            & (Q(task_id=task_id) | Q(progress_at__lt=stale) | Q(progress_at=None))
        )
    claimed = claim.update(
        status=Export.Status.RUNNING,
        progress=0,
        chain_seq=chain_seq,
        chain_hash=chain_hash,
        error="",
        attempts=F("attempts") + 1,
        progress_at=timezone.now(),
        task_id=task_id or "",
    )
    return claimed == 1


def export_mark_unqueued(export_id: int, reason: str) -> None:
    """The build could not be sent (the broker is down): failed, with the reason."""
    Export.objects.filter(pk=export_id, status=Export.Status.PENDING).update(
        status=Export.Status.FAILED,
        error=f"The export could not be queued ({reason}). Retry it.",
    )


def export_requeue_stalled(*, now: datetime | None = None) -> list[int]:
    """Beat's sweep: exports whose build stopped reporting progress for STALLED_AFTER (their
    worker died) are made pending again to be sent, or failed after MAX_ATTEMPTS builds;
    exports left pending that long (their message lost) are sent again. The ids to send."""
    cutoff = (now or timezone.now()) - STALLED_AFTER
    not_moving = Q(progress_at__lt=cutoff) | Q(progress_at=None)
    stalled = Q(status=Export.Status.RUNNING) & not_moving
    lost = Q(status=Export.Status.PENDING, requested_at__lt=cutoff) & not_moving
    ids = Export.objects.filter(stalled | lost).values_list("pk", flat=True)
    return [pk for pk in ids if _requeue(pk, cutoff)]


def _requeue(export_id: int, cutoff: datetime) -> bool:
    with transaction.atomic():
        export = Export.objects.select_for_update().get(pk=export_id)
        moving = export.progress_at is not None and export.progress_at >= cutoff
        if export.status not in (Export.Status.RUNNING, Export.Status.PENDING) or moving:
            return False
        if export.attempts >= MAX_ATTEMPTS:
            export.status = Export.Status.FAILED
            export.error = (
                f"The build stopped {export.attempts} times without finishing (its worker "
                "died). Retry it."
            )
            export.save(update_fields=["status", "error"])
            return False
        export.status, export.progress = Export.Status.PENDING, 0
        export.progress_at = timezone.now()
        export.save(update_fields=["status", "progress", "progress_at"])
    logger.warning("Export %s stalled; sent again", export_id)
    return True


def _write(
    export: Export, name: str, columns: list[str], rows: Iterator[list], total: int
) -> tuple[str, int]:
    """Stream the rows to ``exports/<name>`` (through a temporary file in the same folder,
    moved into place at the end); the stored name and the number of rows."""
    folder = Path(default_storage.path(EXPORTS))
    folder.mkdir(parents=True, exist_ok=True)
    step = max(1, total // PROGRESS_STEPS)
    written = 0
    prefix = f".building-{export.pk}-"
    for left in folder.glob(f"{prefix}*"):  # of a build whose worker was killed
        left.unlink(missing_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".csv")
    try:
        with os.fdopen(handle, "w", newline="", encoding="utf-8") as out:
            writer = csv_writer(out)
            writer.writerow(columns)
            for row in rows:
                writer.writerow(row)
                written += 1
                if written % step == 0 and written < total:
                    Export.objects.filter(pk=export.pk).update(
                        progress=written * 100 // total, progress_at=timezone.now()
                    )
                elif written % 1000 == 0:  # a long step still shows the build is alive
                    _heartbeat(export)
        stored = default_storage.get_available_name(f"{EXPORTS}/{name}")
        os.replace(temporary, default_storage.path(stored))
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return stored, written


def _heartbeat(export: Export) -> None:
    """At most every HEARTBEAT seconds: the time of progress, without a new percentage."""
    now = timezone.now()
    last = getattr(export, "_heartbeat_at", None)
    if last is None or (now - last).total_seconds() >= HEARTBEAT:
        Export.objects.filter(pk=export.pk).update(progress_at=now)
        export._heartbeat_at = now  # type: ignore[attr-defined]


def _settlement_rows(export: Export) -> tuple[Iterator[list], int]:
    settlements = (
        Settlement.objects.filter(created_at__gte=export.start, created_at__lt=export.end)
        .select_related("hand__table__cardroom")
        .order_by("created_at", "id")
    )
    if export.cardroom_id is not None:
        settlements = settlements.filter(hand__table__cardroom_id=export.cardroom_id)

    def rows() -> Iterator[list]:
        for s in settlements.iterator(chunk_size=1000):
            hand = s.hand
            spots = s.result["spots"]
            yield [
                s.pk,
                hand.pk,
                hand.table.name,
                hand.number,
                s.entry,
                s.kind,
                s.created_at.isoformat(),
                gaming_day(hand.table.cardroom, s.created_at),
                s.result["dealer"]["seat"] or "",
                s.dealer_net,
                s.house_rake,
                len(spots),
                -s.dealer_net - s.house_rake,
                hand.misdeal,
                s.reason,
            ]

    return rows(), settlements.count()


def _hold_rows(export: Export) -> tuple[Iterator[list], int]:
    """Hold against theoretical over the export's period: for every table with a hand settled
    in it, its bank's lines (the house, or every DP together), then each DP player's; one row
    per wager type, flagged when the win is outside its band (game-math.md)."""
    period = hold.range_period(export.start, export.end)
    reports = [
        report
        for report in hold.hold_reports(period)
        if export.cardroom_id in (None, report.table.cardroom_id)
    ]

    def rows() -> Iterator[list]:
        for report in reports:
            table = report.table
            for bank in report.banks:
                for line in bank.lines:
                    yield [
                        table.cardroom.name,
                        table.name,
                        table.banking,
                        period.start.isoformat(),
                        period.end.isoformat(),
                        bank.bank,
                        bank.player.name if bank.player else "",
                        bank.bank == hold_lines.PROPOSITION_PLAYER,
                        bank.hands,
                        line.wager,
                        line.wagers,
                        line.handle,
                        line.handle_by_wager.get("ante", ""),
                        line.handle_by_wager.get("raise", ""),
                        line.win,
                        hold_lines.figure(line.hold) or "",
                        line.theoretical_win,
                        hold_lines.figure(line.theoretical_hold) or "",
                        line.band_low,
                        line.band_high,
                        report.z,
                        line.flagged,
                        line.flag,
                    ]

    return rows(), sum(len(report.banks) * len(hold_lines.LINES) for report in reports)


def _audit_rows(export: Export, up_to_seq: int) -> tuple[Iterator[list], int]:
    events = AuditEvent.objects.filter(
        occurred_at__gte=export.start, occurred_at__lt=export.end, seq__lte=up_to_seq
    ).order_by("seq")
    if export.cardroom_id is not None:
        events = audit_events_in_scope(events, frozenset({export.cardroom_id}))
    if role_of(export.requested_by) != COMPLIANCE_AUDITOR:  # suspicious activity: theirs alone
        events = events.exclude(action__startswith=SAR_PREFIX)

    def rows() -> Iterator[list]:
        for e in events.select_related("actor").iterator(chunk_size=2000):
            yield [
                e.seq,
                e.chain,
                e.chain_seq,
                e.occurred_at.isoformat(),
                person_name(e.actor) if e.actor_id else e.actor_name,
                e.actor_name,
                e.action,
                e.object_type,
                e.object_id,
                e.payload,
                e.prev_hash,
                e.hash,
            ]

    return rows(), events.count()
