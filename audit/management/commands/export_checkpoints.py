"""``manage.py export_checkpoints``: the recorded checkpoints as JSON lines, for keeping
outside the system and giving back to ``verify_audit --checkpoints`` (issue 5)."""

import json
from typing import Any

from django.core.management.base import BaseCommand

from audit.models import Checkpoint


class Command(BaseCommand):
    help = "Print the audit chain's checkpoints as JSON lines (seq, hash, verified_at)."

    def handle(self, *args: Any, **options: Any) -> None:
        for checkpoint in Checkpoint.objects.order_by("seq", "id").iterator():
            self.stdout.write(
                json.dumps(
                    {
                        "seq": checkpoint.seq,
                        "hash": checkpoint.hash,
                        "verified_at": checkpoint.verified_at.isoformat(),
                    }
                )
            )
