"""``manage.py verify_audit``: recompute the audit chains.

Exit 0 and print the events verified, the heads' hash and the events at risk (after the last
signed checkpoint on the sink) when every chain holds; exit 1 and name the chain and the first
broken place when one does not, or when a checkpoint is forged, or is outside the database (in
the sink, ``AUDIT_CHECKPOINT_SINK``, or in ``--checkpoints FILE``) but missing or different in
it — unless compliance acknowledged that problem (``audit.alarms``) — or when the sink lacks
the database's latest checkpoints (it is not being written).

By default every event is verified again from the start of its chain, so that an old event
rewritten behind the last checkpoint is found; ``--since-checkpoint`` verifies only what was added
since the last signed checkpoint (what beat does every minute, besides its rolling re-hash of
the older events: ``audit.sweep``). ``--full`` is the default, still accepted. In ``--workers``
processes, one chain per task.
"""

import json
import os
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.alarms import acknowledgements_of
from audit.signing import sink_path
from audit.verification import ChainReport, verify_chains


class Command(BaseCommand):
    help = "Verify the hash chains of the audit log against the signed checkpoints."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--checkpoints", type=Path, help="exported checkpoints (JSON lines), e.g. a copy"
        )
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument(
            "--since-checkpoint",
            action="store_true",
            help="verify only the events added since the last signed checkpoint",
        )
        scope.add_argument(
            "--full", action="store_true", help="verify every event (the default; still accepted)"
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=min(os.cpu_count() or 1, 8),
            help="processes verifying chains in parallel (default: the cores, at most 8)",
        )
        parser.add_argument(
            "--sink", type=Path, help="the checkpoint sink (default: AUDIT_CHECKPOINT_SINK)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        exported: list[dict[str, Any]] = []
        if options["checkpoints"]:
            try:
                lines = options["checkpoints"].read_text().splitlines()
                exported = [json.loads(line) for line in lines if line.strip()]
                for record in exported:
                    int(record["seq"]), str(record["hash"])  # noqa: B018 -- validates them
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise CommandError(f"--checkpoints: cannot read {error}") from None
        started = time.perf_counter()
        report = verify_chains(
            full=not options["since_checkpoint"],
            exported=exported,
            workers=max(1, options["workers"]),
            sink=options["sink"] or sink_path(),
        )
        seconds = time.perf_counter() - started
        if report.chains_ok:
            self.stdout.write(
                f"OK: {report.events} events in {report.chains} chains"
                f"{' since the last checkpoint' if report.incremental else ''}; "
                f"head #{report.head_seq} {report.head_hash} ({seconds:.2f} s)"
            )
        else:
            self.stdout.write(
                f"BROKEN at #{report.broken_seq}: {report.problem}. "
                f"Last good event #{report.head_seq} {report.head_hash}"
            )
        self.stdout.write(_at_risk(report))
        acknowledged = acknowledgements_of(list(report.checkpoint_problems))
        for problem in report.checkpoint_problems:
            seen = acknowledged.get(problem)
            if seen is None:
                self.stdout.write(f"Checkpoint problem: {problem}")
            else:
                self.stdout.write(
                    f"Checkpoint problem (acknowledged by {seen.by.get_username()} on "
                    f"{seen.at.isoformat()}: {seen.note}): {problem}"
                )
        for problem in report.sink_problems:
            self.stdout.write(f"Sink problem: {problem}")
        for note in report.notes:
            self.stdout.write(f"Note: {note}")
        unacknowledged = set(report.checkpoint_problems) - set(acknowledged)
        if not report.chains_ok or unacknowledged or report.sink_problems:
            raise SystemExit(1)


def _at_risk(report: ChainReport) -> str:
    since = report.signed_checkpoint or "the start: no signed checkpoint on the sink yet"
    if not report.at_risk:
        return f"At risk: 0 events after the last signed checkpoint ({since})."
    return (
        f"At risk: {report.at_risk} events after the last signed checkpoint ({since}): "
        f"#{report.at_risk_first} to #{report.at_risk_last}."
    )
