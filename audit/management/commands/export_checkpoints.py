"""``manage.py export_checkpoints``: the recorded checkpoints as JSON lines, in the sink's
format (heads, hash, signature), for keeping outside the system and giving back to
``verify_audit --checkpoints``."""

import json
from typing import Any

from django.core.management.base import BaseCommand

from audit.models import Checkpoint
from audit.services import checkpoint_record


class Command(BaseCommand):
    help = "Print the audit chain's checkpoints as JSON lines (the sink's format)."

    def handle(self, *args: Any, **options: Any) -> None:
        for checkpoint in Checkpoint.objects.order_by("verified_at", "id").iterator():
            record = checkpoint_record(checkpoint)
            if not checkpoint.signature:  # from before signed checkpoints: an event's number
                record = {k: record[k] for k in ("seq", "hash", "verified_at")}
            self.stdout.write(json.dumps(record, sort_keys=True, separators=(",", ":")))
