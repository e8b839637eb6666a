"""The child process of ``bench.export_memory``: fill a throw-away database with ``rows`` audit
events, build one audit-log export of them, print its size and the peak memory as JSON.

    python -m bench.export_memory_build ROWS     (run by bench.export_memory, with its env)
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sys
import tracemalloc
from datetime import timedelta

import django

django.setup()

from django.conf import settings  # noqa: E402 - after django.setup()
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from audit.models import AuditEvent, ChainHead  # noqa: E402
from compliance.exports import export_build  # noqa: E402
from compliance.models import Export  # noqa: E402


def fill(rows: int) -> User:
    """Migrate and append ``rows`` audit events (bulk, with stand-in hashes: an export copies
    whatever the log holds)."""
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench")
    now = timezone.now()
    payload = json.dumps({"filler": "x" * 300})
    for start in range(1, rows + 1, 10_000):
        AuditEvent.objects.bulk_create(
            AuditEvent(
                seq=seq, occurred_at=now, actor_name="bench", action="export.requested",
                object_type="bench", object_id=str(seq), payload=payload, prev_hash="0" * 64,
                hash=hashlib.sha256(str(seq).encode()).hexdigest(),
            )
            for seq in range(start, min(start + 10_000, rows + 1))
        )  # fmt: skip
    ChainHead.objects.update_or_create(pk=1, defaults={"seq": rows, "hash": "0" * 64})
    return user


def main() -> None:
    settings.MEDIA_ROOT = os.environ["BENCH_MEDIA_ROOT"]
    user = fill(int(sys.argv[1]))
    now = timezone.now()
    export = Export.objects.create(
        kind=Export.Kind.AUDIT_LOG, start=now - timedelta(days=1), end=now, requested_by=user,
        requested_at=now,
    )  # fmt: skip
    tracemalloc.start()
    export_build(export.pk)
    peak = tracemalloc.get_traced_memory()[1]
    export.refresh_from_db()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"rows": export.rows, "file_bytes": export.file.size,
                      "peak_python": peak, "max_rss_kb": rss}))  # fmt: skip


if __name__ == "__main__":
    main()
