"""``manage.py verify_audit``: recompute the audit chain (issue 5).

Exit 0 and print the head (sequence and hash) when the chain holds; exit 1 and name the first
broken sequence number when it does not. ``--checkpoints FILE`` also checks exported
checkpoints (JSON lines with ``seq`` and ``hash``), which detects a cut-off tail.
"""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.verification import verify_chain


class Command(BaseCommand):
    help = "Verify the hash chain of the audit log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--checkpoints", type=Path, help="exported checkpoints (JSON lines)")

    def handle(self, *args: Any, **options: Any) -> None:
        checkpoints = []
        if options["checkpoints"]:
            try:
                lines = options["checkpoints"].read_text().splitlines()
                checkpoints = [(c["seq"], c["hash"]) for c in map(json.loads, filter(None, lines))]
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise CommandError(f"--checkpoints: cannot read {error}") from None
        report = verify_chain(checkpoints=checkpoints)
        if report.ok:
            self.stdout.write(
                f"OK: {report.events} events; head #{report.head_seq} {report.head_hash}"
            )
            return
        self.stdout.write(
            f"BROKEN at #{report.broken_seq}: {report.problem}. "
            f"Last good event #{report.head_seq} {report.head_hash}"
        )
        raise SystemExit(1)
