"""Building the CSV exports of settlements, of the audit log and of hold against theoretical
for a period.

``export_build`` writes the file, reporting progress as it goes; it runs in a Celery task
(``compliance.tasks``) enqueued by ``compliance.services.export_request``. Each export names
the audit chain head it was made from, so that it can be tied to a verified chain.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from django.core.files.base import ContentFile
from django.utils import timezone

from audit.models import AuditEvent, ChainHead
from tables.selectors import gaming_day
from wagers.models import Settlement

from . import hold
from .models import Export

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
    "occurred_at",
    "actor",
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


def export_build(export_id: int) -> Export:
    """Build the file; idempotent (a finished export is left as it is)."""
    export = Export.objects.get(pk=export_id)
    if export.status == Export.Status.DONE:
        return export
    head = ChainHead.objects.filter(pk=1).first()
    chain_seq, chain_hash = (head.seq, head.hash) if head else (0, "")
    # A retried task (its worker died) builds it again from the start.
    Export.objects.filter(pk=export.pk).update(
        status=Export.Status.RUNNING, progress=0, chain_seq=chain_seq, chain_hash=chain_hash
    )
    try:
        if export.kind == Export.Kind.SETTLEMENTS:
            columns, rows, total = SETTLEMENT_COLUMNS, *_settlement_rows(export)
        elif export.kind == Export.Kind.HOLD:
            columns, rows, total = HOLD_COLUMNS, *_hold_rows(export)
        else:
            columns, rows, total = AUDIT_COLUMNS, *_audit_rows(export, chain_seq)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns)
        step = max(1, total // PROGRESS_STEPS)
        written = 0
        for row in rows:
            writer.writerow(row)
            written += 1
            if written % step == 0 and written < total:
                Export.objects.filter(pk=export.pk).update(progress=written * 100 // total)
        export.refresh_from_db()
        name = (
            f"{export.kind}_{export.start:%Y%m%d%H%M}_{export.end:%Y%m%d%H%M}"
            f"_head{chain_seq}-{chain_hash[:12]}.csv"
        )
        export.file.save(name, ContentFile(buffer.getvalue().encode()), save=False)
        export.status, export.progress, export.rows = Export.Status.DONE, 100, written
        export.finished_at = timezone.now()
        export.save(update_fields=["file", "status", "progress", "rows", "finished_at"])
    except Exception as error:
        Export.objects.filter(pk=export.pk).update(status=Export.Status.FAILED, error=str(error))
        raise
    return export


def _settlement_rows(export: Export) -> tuple[Iterator[list], int]:
    settlements = (
        Settlement.objects.filter(created_at__gte=export.start, created_at__lt=export.end)
        .select_related("hand__table__cardroom")
        .order_by("created_at", "id")
    )

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
    reports = list(hold.hold_reports(period))

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
                        bank.bank == hold.PROPOSITION_PLAYER,
                        bank.hands,
                        line.wager,
                        line.wagers,
                        line.handle,
                        line.handle_by_wager.get("ante", ""),
                        line.handle_by_wager.get("raise", ""),
                        line.win,
                        hold.figure(line.hold) or "",
                        line.theoretical_win,
                        hold.figure(line.theoretical_hold) or "",
                        line.band_low,
                        line.band_high,
                        report.z,
                        line.flagged,
                        line.flag,
                    ]

    return rows(), sum(len(report.banks) * len(hold.LINES) for report in reports)


def _audit_rows(export: Export, up_to_seq: int) -> tuple[Iterator[list], int]:
    events = AuditEvent.objects.filter(
        occurred_at__gte=export.start, occurred_at__lt=export.end, seq__lte=up_to_seq
    ).order_by("seq")

    def rows() -> Iterator[list]:
        for e in events.iterator(chunk_size=2000):
            yield [
                e.seq,
                e.occurred_at.isoformat(),
                e.actor_name,
                e.action,
                e.object_type,
                e.object_id,
                e.payload,
                e.prev_hash,
                e.hash,
            ]

    return rows(), events.count()
