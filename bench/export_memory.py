"""Peak memory of building an audit-log export, for a small and a large period: the export
streams rows to its file, so the peak stays flat while the file grows (before, the whole CSV
was built in memory, 366 MB for a 128 MB file).

    .venv/bin/python -m bench.export_memory [--rows 50000 200000]

Each size runs in a fresh process (``bench.export_memory_build``) on a throw-away SQLite
database in a temporary folder: the rows are inserted in bulk, the export is built, and the
file's size and the process's peak Python allocation (tracemalloc) and resident set
(ru_maxrss) are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(rows: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        environ = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "cardroom.settings.local",
            "DJANGO_DEBUG": "false",
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "REDIS_URL": "",
            "BENCH_MEDIA_ROOT": folder,
        }
        done = subprocess.run(
            [sys.executable, "-m", "bench.export_memory_build", str(rows)],
            cwd=ROOT, env=environ, capture_output=True, text=True, check=True,
        )  # fmt: skip
        return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[50_000, 200_000])
    args = parser.parse_args()
    print("| rows | CSV size | peak Python allocation | peak RSS |")
    print("| ---: | ---: | ---: | ---: |")
    for rows in args.rows:
        m = measure(rows)
        print(
            f"| {m['rows']:,} | {m['file_bytes'] / 2**20:.1f} MB "
            f"| {m['peak_python'] / 2**20:.1f} MB | {m['max_rss_kb'] / 1024:.0f} MB |"
        )


if __name__ == "__main__":
    main()
